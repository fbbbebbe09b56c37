package scenario

import (
	"github.com/offload-sim/offload/internal/schema"
)

// Validate checks every field against docs/design.md §5 and returns all problems
// together as Errors, or nil. Each message names the field, the bad value
// and what is allowed. A sweep is checked by applying each of its values to
// a copy and validating that copy too.
//
// Run length: exactly one of tasks and duration is given (0 means not
// given). warmup (tasks) belongs to tasks mode and warmup_time (seconds) to
// duration mode; giving the other mode's warmup is an error rather than
// being silently ignored.
//
// Numbers are also bounded (MaxServers and the other limits), so that
// every run's arithmetic stays finite and its cost bounded. Policies are
// checked against the catalog given to Parse (or SetCatalog); without one,
// Validate says so.
func (s *Scenario) Validate() error {
	c := newChecker(s)
	c.run()
	if c.s.Trace != nil {
		c.trace()
	} else {
		c.arrivals()
		c.workload()
	}
	c.tiers()
	c.data()
	c.energy()
	c.dynamics()
	c.disciplines()
	c.policies()
	c.estimator()
	c.observation()
	c.slo()
	c.breakdown()
	c.limits()
	c.sweep()
	return c.Errs.OrNil()
}

// checker collects the problems of one scenario.
type checker struct {
	schema.Checker
	s *Scenario
}

// newChecker checks s, naming its tiers in messages.
func newChecker(s *Scenario) *checker {
	return &checker{s: s, Checker: schema.Checker{Name: tierNamer(func(i int) string {
		if i >= 0 && i < len(s.Tiers) {
			return s.Tiers[i].Name
		}
		return ""
	})}}
}

// run checks the run length: replicates, tasks or duration, and warmup.
func (c *checker) run() {
	s := c.s
	c.Integer(path("seeds"), s.Seeds, s.Seeds >= 1, "must be ≥ 1 (replicates)")
	c.Upper(path("seeds"), float64(s.Seeds), MaxSeeds, " (replicates)")
	c.Integer(path("tasks"), s.Tasks, s.Tasks >= 0, "must be > 0 (measured tasks), or leave it out and give duration")
	c.Num(path("duration"), s.Duration, s.Duration >= 0, "must be > 0 (seconds of arrivals), or leave it out and give tasks")
	c.runBounds()
	c.runMode()
}

// runBounds checks that tasks + warmup, and duration + warmup_time, are
// within bounds.
func (c *checker) runBounds() {
	s := c.s
	switch {
	case s.Tasks > MaxTasks:
		c.Add(path("tasks"), "%d is out of range: tasks + warmup must be ≤ %d per run", s.Tasks, MaxTasks)
	case int(s.Warmup) > MaxTasks:
		c.Add(path("warmup"), "%d is out of range: tasks + warmup must be ≤ %d per run", s.Warmup, MaxTasks)
	case s.Warmup > 0 && s.Tasks+int(s.Warmup) > MaxTasks:
		c.Add(path("tasks"), "%d + warmup %d = %d is out of range: tasks + warmup must be ≤ %d per run", s.Tasks, s.Warmup, s.Tasks+int(s.Warmup), MaxTasks)
	}
	switch {
	case s.Duration > MaxSpan:
		c.Add(path("duration"), "%s is out of range: duration + warmup_time must be ≤ %s s", fmtNum(s.Duration), fmtNum(MaxSpan))
	case s.WarmupTime > MaxSpan:
		c.Add(path("warmup_time"), "%s is out of range: duration + warmup_time must be ≤ %s s", fmtNum(s.WarmupTime), fmtNum(MaxSpan))
	case s.WarmupTime > 0 && s.Duration+s.WarmupTime > MaxSpan:
		c.Add(path("duration"), "%s + warmup_time %s = %s is out of range: duration + warmup_time must be ≤ %s s", fmtNum(s.Duration), fmtNum(s.WarmupTime), fmtNum(s.Duration+s.WarmupTime), fmtNum(MaxSpan))
	}
}

// runMode checks that exactly one of tasks and duration is given, with
// its own mode's warmup.
func (c *checker) runMode() {
	s := c.s
	switch {
	case s.Tasks > 0 && s.Duration > 0:
		c.Add(path("tasks"), "%d is not allowed with duration %s: give exactly one of tasks (measured tasks) and duration (seconds)", s.Tasks, fmtNum(s.Duration))
	case s.Tasks == 0 && s.Duration == 0 && s.Trace == nil: // a trace's rows give the tasks
		c.Add(nil, "neither tasks nor duration is given: give exactly one of tasks (measured tasks) and duration (seconds)")
	}
	c.Integer(path("warmup"), int(s.Warmup), s.Warmup >= 0 || s.Warmup.Auto(), "must be ≥ 0 (unmeasured tasks) or auto")
	c.Num(path("warmup_time"), s.WarmupTime, s.WarmupTime >= 0, "must be ≥ 0 (seconds)")
	if s.Duration > 0 && s.Tasks == 0 && (s.Warmup > 0 || s.Warmup.Auto()) {
		c.Add(path("warmup"), "%v is not allowed in duration mode: a duration run warms up for warmup_time seconds", s.Warmup)
	}
	if s.Tasks > 0 && s.Duration == 0 && s.WarmupTime > 0 {
		c.Add(path("warmup_time"), "%s is not allowed in tasks mode: a tasks run warms up for warmup tasks", fmtNum(s.WarmupTime))
	}
}
