// Package scenario is the typed, strictly decoded scenario file of docs/design.md §5:
// the YAML shape, its defaults, its validation and the --set overrides.
//
// It knows nothing of the engine, and of the policies only what a Policies
// catalog, given to Parse, tells it. Its parts live in packages of their
// own, with their checks, and are named here by alias: the load offered
// (load), the tiers (tier) and the bounds they all check against (limit).
package scenario

// Scenario is one experiment's configuration, as read from YAML. Every field
// documents its unit; Default fills what a file leaves out.
type Scenario struct {
	// Name labels the experiment in CSVs (the "experiment" column).
	Name string `yaml:"name"`
	// Seed is the master seed; replicate r's streams derive from (Seed, r).
	Seed uint64 `yaml:"seed"`
	// Seeds is the number of replicates per (cell, policy).
	Seeds int `yaml:"seeds"`
	// Tasks is the number of measured tasks per run, after the warmup.
	// Exactly one of Tasks and Duration is set.
	Tasks int `yaml:"tasks,omitempty" label:"measured tasks"`
	// Duration is the measured span of arrivals, in seconds, after WarmupTime.
	Duration float64 `yaml:"duration,omitempty" label:"measured duration" unit:"s"`
	// Warmup is the number of unmeasured tasks that arrive first (tasks
	// mode), or auto: each run's own, chosen from its output by MSER-5.
	Warmup WarmupTasks `yaml:"warmup" label:"warmup tasks"`
	// WarmupTime is the unmeasured span of arrivals, in seconds (duration mode).
	WarmupTime float64 `yaml:"warmup_time,omitempty" label:"warmup time" unit:"s"`
	// Arrivals is the arrival process.
	// Omitted (zero) only with Trace.
	Arrivals Arrivals `yaml:"arrivals,omitempty" label:""`
	// Workload is the task-size distribution.
	Workload Workload `yaml:"workload" label:""`
	// Trace, if set, replays a recorded workload: its arrivals and sizes
	// replace arrivals and workload.size.
	Trace *Trace `yaml:"trace,omitempty" label:""`
	// Tiers lists the tiers in order; names become CSV columns.
	Tiers []Tier `yaml:"tiers" label:""`
	// Policies lists the policies to run (docs/design.md §3), each with its label
	// and options; Parse fills the catalog's defaults when a file has none.
	Policies []PolicyEntry `yaml:"policies" label:""`
	// Estimator configures the hybrid estimator and its two ablations.
	Estimator Estimator `yaml:"estimator" label:""`
	// Devices is the number of dispatchers sharing the non-local tiers,
	// each with its own copy of the local tiers, its own arrivals of rate
	// arrivals.rate / devices, policy and observations (docs/design.md
	// §1.9); omitted (0): one.
	Devices int `yaml:"devices,omitempty"`
	// Observation is what a dispatcher sees of the tiers; omitted: the
	// true state at every decision (fresh).
	Observation *Observation `yaml:"observation,omitempty"`
	// Sweep, if set, varies one parameter over a list of values.
	Sweep *Sweep `yaml:"sweep,omitempty"`
	// SLO, if it has thresholds, adds the share of tasks over each to
	// runs.csv (slo_miss_<ms>ms, slo_miss_large_<ms>ms).
	SLO SLO `yaml:"slo,omitempty"`
	// Breakdown adds every tier's mean latency and mean wait to runs.csv
	// (mean_latency_<tier>, mean_wait_<tier>).
	Breakdown bool `yaml:"breakdown,omitempty"`
	// Timeout is how long a dispatcher waits for an attempt's completion,
	// from its send, s (omitted: for ever).
	Timeout float64 `yaml:"timeout,omitempty" label:"task timeout" unit:"s"`
	// Retries is how many times a task that timed out, or that a down
	// tier refused, is sent again, each time to the policy's choice
	// without the tier that failed (omitted: 0).
	Retries int `yaml:"retries,omitempty"`
	// CancelOnTimeout removes a timed-out attempt from its tier (omitted:
	// false, it runs on and its work is wasted).
	CancelOnTimeout bool `yaml:"cancel_on_timeout,omitempty"`
	// Classes split the tasks, each with its share, priority, size law,
	// deadline and patience (discipline.go; omitted: one class).
	Classes []Class `yaml:"classes,omitempty" label:""`
	// Patience is how long a task waits in a queue before it leaves, s,
	// for a class without its own (omitted: for ever); under ps nothing
	// waits.
	Patience *Dist `yaml:"patience,omitempty" label:"patience law"`

	// pols is the catalog Parse was given: Validate and Cells check the
	// policies against it. Unexported, so yaml and Hash ignore it.
	pols Policies
}
