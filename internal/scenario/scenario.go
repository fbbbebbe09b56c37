// Package scenario is the typed, strictly decoded scenario file of docs/design.md §5:
// the YAML shape, its defaults, its validation and the --set overrides.
//
// It is a leaf package: it knows nothing of the engine, and of the policies
// only what a Policies catalog, given to Parse, tells it.
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
	// Warmup is the number of unmeasured tasks that arrive first (tasks mode).
	Warmup int `yaml:"warmup" label:"warmup tasks"`
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

	// pols is the catalog Parse was given: Validate and Cells check the
	// policies against it. Unexported, so yaml and Hash ignore it.
	pols Policies
}

// Arrivals is the arrival process (Poisson unless Process says otherwise)
// whose rate is multiplied during bursts (docs/design.md §1.3).
type Arrivals struct {
	// Rate is the base arrival rate, tasks/s. For process mmpp it is
	// derived, the stationary rate of rates and sojourn, and is left out.
	Rate float64 `yaml:"rate" label:"arrival rate" unit:"tasks/s"`
	// Bursts are periods of multiplied rate; they may overlap (factors multiply).
	Bursts []Burst `yaml:"bursts,omitempty" label:""`
	// Process is poisson (omitted), renewal, mmpp or diurnal.
	Process string `yaml:"process,omitempty"`
	// Law is the renewal inter-arrival law: gamma, lognormal or weibull,
	// of mean 1/rate.
	Law string `yaml:"law,omitempty"`
	// CV is the renewal inter-arrival coefficient of variation, > 0.
	CV float64 `yaml:"cv,omitempty" label:"inter-arrival CV"`
	// Rates are the mmpp's two phase rates, tasks/s, ≥ 0 (not both 0).
	Rates []float64 `yaml:"rates,omitempty" label:"MMPP phase rate" unit:"tasks/s"`
	// Sojourn are the mmpp's mean times in each phase, s, > 0.
	Sojourn []float64 `yaml:"sojourn,omitempty" label:"MMPP phase sojourn" unit:"s"`
	// Amplitude is the diurnal rate's relative amplitude, in [0, 1):
	// rate·(1 + amplitude·sin(2πt/period)).
	Amplitude float64 `yaml:"amplitude,omitempty" label:"diurnal amplitude"`
	// Period is the diurnal rate's period, s.
	Period float64 `yaml:"period,omitempty" label:"diurnal period" unit:"s"`
}

// Burst multiplies the rate by Factor during [Start + n·Every, Start + n·Every + Length).
type Burst struct {
	Start  float64 `yaml:"start" unit:"s"`                // s, first burst begins
	Every  float64 `yaml:"every" label:"period" unit:"s"` // s, period; 0 means a single burst
	Length float64 `yaml:"length" unit:"s"`               // s, ≤ Every when Every > 0
	Factor float64 `yaml:"factor"`                        // > 0
	Count  int     `yaml:"count,omitempty"`               // number of bursts; 0 = unbounded (1 when Every is 0)
}

// Workload describes task sizes.
type Workload struct {
	// Size is the size distribution, in work units.
	// Omitted (zero) only with a trace, which gives the sizes.
	Size Dist `yaml:"size,omitempty" label:"task size"`
	// LargeQuantile: a task is "large" when its size is strictly above this
	// quantile of the size distribution.
	LargeQuantile float64 `yaml:"large_quantile" label:"large-task quantile"`
	// Data is the law of the data each task sends to its tier, bits
	// (omitted: none); a tier's delay.bandwidth turns it into transfer
	// time, its tx_energy into energy.
	Data Data `yaml:"data,omitempty"`
	// Reply is the law of each task's reply, bits (omitted: none): it
	// costs the device the tier's rx_energy; its transfer time is not
	// part of the latency (docs/design.md §1.5).
	Reply Data `yaml:"reply,omitempty"`
}

// Dist is a size distribution: pareto {alpha, mean}, exponential {mean},
// deterministic {mean}, lognormal {mean, cv}, bounded-pareto {alpha, low,
// high}, whose mean follows from its parameters and is left out, or
// empirical {file, column, mean}: the values of a column, drawn uniformly.
type Dist struct {
	Dist  string  `yaml:"dist"`                                                 // pareto, exponential, deterministic, lognormal, bounded-pareto or empirical
	Alpha float64 `yaml:"alpha,omitempty" label:"tail index α"`                 // pareto shape, > 2; bounded-pareto, > 0
	Mean  float64 `yaml:"mean,omitempty" unit:"work units"`                     // work units, > 0; none for bounded-pareto
	CV    float64 `yaml:"cv,omitempty" label:"CV"`                              // lognormal coefficient of variation, ≥ 0
	Low   float64 `yaml:"low,omitempty" label:"lower bound" unit:"work units"`  // bounded-pareto lower bound, work units, > 0
	High  float64 `yaml:"high,omitempty" label:"upper bound" unit:"work units"` // bounded-pareto upper bound, work units, > low
	// File and Column are an empirical law's data: the named column of a
	// CSV with a header (the tool's trace format or any other), relative to
	// the scenario file's folder; Column omitted is "size". Mean, if set,
	// scales the values so that their mean is this.
	File   string `yaml:"file,omitempty"`
	Column string `yaml:"column,omitempty"`

	// values are the column's values, attached by the caller that read File
	// (AttachSizes): unexported, so yaml ignores them; shared read-only
	// between clones.
	values *attached
}

// attached is data a caller read from a file named in the scenario.
type attached struct {
	xs     []float64
	digest string // SHA-256 of the values, for Hash
}

// Tier is one pool of identical servers behind an FCFS queue.
type Tier struct {
	Name    string  `yaml:"name"`                                           // [a-z0-9_-]+, unique
	Kind    string  `yaml:"kind"`                                           // local, edge or cloud
	Servers int     `yaml:"servers"`                                        // ≥ 1
	Speed   float64 `yaml:"speed" label:"server speed" unit:"work units/s"` // work units/s of one server, > 0
	Delay   Delay   `yaml:"delay,omitempty"`                                // to reach the tier; omitted: none
	// Power is one server's power model, W (omitted: none; docs/design.md §1.11).
	Power Power `yaml:"power,omitempty"`
	// TxEnergy and RxEnergy are the device's cost per bit, J/bit, of
	// sending a task's data to the tier and of receiving its reply
	// (non-local tiers; omitted: 0).
	TxEnergy float64 `yaml:"tx_energy,omitempty" label:"send energy" unit:"J/bit"`
	RxEnergy float64 `yaml:"rx_energy,omitempty" label:"receive energy" unit:"J/bit"`
	// Episodes are fixed spans at another speed or down, in time order
	// and disjoint (docs/model.md §1.12; omitted: none).
	Episodes []Episode `yaml:"episodes,omitempty" label:""`
	// Slowdowns are random spans at speed times the tier's speed, gap
	// seconds apart (omitted: none).
	Slowdowns *Recurring `yaml:"slowdowns,omitempty" label:""`
	// Failures are random spans during which the tier is down, gap
	// seconds apart (omitted: none); down wins over a slow-down.
	Failures *Recurring `yaml:"failures,omitempty" label:""`
}

// Power is a server's linear power model: P(u) = Idle + (Max − Idle)·u at
// utilisation u ∈ [0, 1], W.
type Power struct {
	Idle float64 `yaml:"idle" label:"idle" unit:"W"`        // W, ≥ 0
	Max  float64 `yaml:"max" label:"at full load" unit:"W"` // W, ≥ idle, > 0
}

// Delay is a lognormal communication delay with this mean (s) and coefficient
// of variation; cv 0 is a constant delay, mean 0 no delay. A tier's delay
// may add the data's transfer time over Bandwidth.
type Delay struct {
	Mean float64 `yaml:"mean" unit:"s"` // s, ≥ 0
	CV   float64 `yaml:"cv" label:"CV"` // coefficient of variation, ≥ 0
	// Bandwidth is the link's bandwidth, bit/s (tiers only; omitted: no
	// limit): a task's workload.data adds data/bandwidth to its delay.
	Bandwidth float64 `yaml:"bandwidth,omitempty" unit:"bit/s"`
}

// Estimator holds the estimator-policy parameters (docs/design.md §2, §3).
type Estimator struct {
	Window  float64 `yaml:"window" label:"rate window" unit:"s"`       // s, sliding window of the arrival-rate estimate, > 0
	Epsilon float64 `yaml:"epsilon" label:"exploration probability ε"` // ε-greedy exploration probability, [0, 1]
	RhoMax  float64 `yaml:"rho_max" label:"ρ̂ cap"`                    // cap on ρ̂ in the model component, (0, 1)
	Penalty Penalty `yaml:"penalty" label:"penalty"`                   // utilisation penalty of the routing score
	// Ca2 is the model component's C_a²: poisson (1, omitted) or online,
	// each tier's inter-dispatch SCV over the window (docs/design.md §2.13).
	Ca2 string `yaml:"ca2,omitempty"`
}

// Penalty is the routing score's utilisation penalty: above Threshold the
// score is multiplied by 1 + K·(ρ̂ − θ)/(1 − θ). K = 0 switches it off.
type Penalty struct {
	Threshold float64 `yaml:"threshold" label:"threshold θ"` // θ ∈ [0, 1)
	K         float64 `yaml:"k" label:"k"`                   // ≥ 0
}

// Sweep varies Param (a --set path, e.g. arrivals.rate, tiers.edge.servers or
// policies.h0.epsilon) over Values; each value is one cell. A swept policy
// option is written as a float64.
type Sweep struct {
	Param  string    `yaml:"param"`  // a numeric field's --set path
	Values []float64 `yaml:"values"` // in the field's unit; integral for integer fields
}

// Observation is a dispatcher's view of the tiers (docs/design.md §1.9).
type Observation struct {
	// Model is fresh, periodic (a board refreshed at phase + k·period),
	// individual (each tier reposts at exponential epochs of mean period)
	// or delayed (each tier's state as it was delay ago); omitted: fresh.
	Model  string  `yaml:"model"`
	Period float64 `yaml:"period,omitempty" label:"period T" unit:"s"` // s; periodic 0 is fresh
	Phase  float64 `yaml:"phase,omitempty" unit:"s"`                   // s, periodic: first refresh, in [0, period)
	Delay  *Delay  `yaml:"delay,omitempty"`                            // delayed: the observation's age {mean, cv}
	// CountOwn adds the tasks this dispatcher sent a tier since the
	// observation to its observed count; omitted: true.
	CountOwn *bool `yaml:"count_own,omitempty"`
	// Noise is the coefficient of variation of a lognormal factor of mean
	// 1 on each observed count; 0: exact.
	Noise float64 `yaml:"noise,omitempty" label:"noise CV"`
}

// resolveObservation writes out an observation block's defaults, so that
// the resolved scenario shows them: count_own true, and the fresh model when
// the block names none (a block of noise alone, say). Parse calls it, and
// so does each sweep cell, whose swept field may have made the block.
func (s *Scenario) resolveObservation() {
	o := s.Observation
	if o == nil {
		return
	}
	if o.CountOwn == nil {
		yes := true
		o.CountOwn = &yes
	}
	if o.Model == "" {
		o.Model = "fresh"
	}
}

// ObservationModels lists the observation models, in the order messages
// give them.
func ObservationModels() []string { return []string{"fresh", "periodic", "individual", "delayed"} }

// MaxDevices bounds devices: each is an arrival stream, a policy and a view
// that every decision scans.
const MaxDevices = 1000
