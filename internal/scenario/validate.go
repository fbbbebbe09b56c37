package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Validate checks every field against DESIGN §5 and returns all problems
// together as Errors, or nil. Each message names the field, the bad value
// and what is allowed. A sweep is checked by applying each of its values to
// a copy and validating that copy too.
//
// Run length: exactly one of tasks and duration is given (0 means not
// given). warmup (tasks) belongs to tasks mode and warmup_time (seconds) to
// duration mode; giving the other mode's warmup is an error rather than
// being silently ignored.
func (s *Scenario) Validate() error {
	c := &checker{s: s}
	c.run()
	c.arrivals()
	c.workload()
	c.tiers()
	c.policies()
	c.estimator()
	c.sweep()
	return c.errs.orNil()
}

// checker collects the problems of one scenario.
type checker struct {
	s    *Scenario
	errs Errors
}

func (c *checker) add(segs []string, format string, args ...any) {
	c.errs = append(c.errs, &FieldError{
		Field: fieldName(segs, c.tierName),
		Msg:   fmt.Sprintf(format, args...),
		segs:  segs,
	})
}

func (c *checker) tierName(i int) string {
	if i >= 0 && i < len(c.s.Tiers) {
		return c.s.Tiers[i].Name
	}
	return ""
}

// num checks a float: finite, then ok. It reports whether x passed.
func (c *checker) num(segs []string, x float64, ok bool, rule string) bool {
	if !finite(x) {
		c.add(segs, "%s is not allowed: must be a finite number", fmtNum(x))
		return false
	}
	if !ok {
		c.add(segs, "%s is not allowed: %s", fmtNum(x), rule)
	}
	return ok
}

// integer checks an int against ok.
func (c *checker) integer(segs []string, n int, ok bool, rule string) {
	if !ok {
		c.add(segs, "%d is not allowed: %s", n, rule)
	}
}

func (c *checker) run() {
	s := c.s
	c.integer(path("seeds"), s.Seeds, s.Seeds >= 1, "must be ≥ 1 (replicates)")
	c.integer(path("tasks"), s.Tasks, s.Tasks >= 0, "must be > 0 (measured tasks), or leave it out and give duration")
	c.num(path("duration"), s.Duration, s.Duration >= 0, "must be > 0 (seconds of arrivals), or leave it out and give tasks")
	switch {
	case s.Tasks > 0 && s.Duration > 0:
		c.add(path("tasks"), "%d is not allowed with duration %s: give exactly one of tasks (measured tasks) and duration (seconds)", s.Tasks, fmtNum(s.Duration))
	case s.Tasks == 0 && s.Duration == 0:
		c.add(nil, "neither tasks nor duration is given: give exactly one of tasks (measured tasks) and duration (seconds)")
	}
	c.integer(path("warmup"), s.Warmup, s.Warmup >= 0, "must be ≥ 0 (unmeasured tasks)")
	c.num(path("warmup_time"), s.WarmupTime, s.WarmupTime >= 0, "must be ≥ 0 (seconds)")
	if s.Duration > 0 && s.Tasks == 0 && s.Warmup > 0 {
		c.add(path("warmup"), "%d is not allowed in duration mode: a duration run warms up for warmup_time seconds", s.Warmup)
	}
	if s.Tasks > 0 && s.Duration == 0 && s.WarmupTime > 0 {
		c.add(path("warmup_time"), "%s is not allowed in tasks mode: a tasks run warms up for warmup tasks", fmtNum(s.WarmupTime))
	}
}

func (c *checker) arrivals() {
	a := c.s.Arrivals
	c.num(path("arrivals", "rate"), a.Rate, a.Rate > 0, "must be > 0 (tasks/s)")
	for i, b := range a.Bursts {
		at := func(f string) []string { return path("arrivals", "bursts", strconv.Itoa(i), f) }
		c.num(at("start"), b.Start, b.Start >= 0, "must be ≥ 0 (s)")
		c.num(at("every"), b.Every, b.Every >= 0, "must be ≥ 0 (s; 0 for a single burst)")
		if c.num(at("length"), b.Length, b.Length > 0, "must be > 0 (s)") && b.Every > 0 && finite(b.Every) && b.Length > b.Every {
			c.add(at("length"), "%s is not allowed: must be ≤ every (%s s), or bursts would overlap themselves", fmtNum(b.Length), fmtNum(b.Every))
		}
		c.num(at("factor"), b.Factor, b.Factor > 0, "must be > 0 (it multiplies the rate)")
		c.integer(at("count"), b.Count, b.Count >= 0, "must be ≥ 0 (0 = unbounded)")
		if b.Every == 0 && b.Count > 1 {
			c.add(at("count"), "%d is not allowed: a burst with every 0 happens once (count 0 or 1)", b.Count)
		}
	}
}

func (c *checker) workload() {
	w := c.s.Workload
	d := w.Size
	at := func(f string) []string { return path("workload", "size", f) }
	known := slices.Contains(distNames(), d.Dist)
	if !known {
		c.add(at("dist"), "%q is not allowed: must be one of %s", d.Dist, strings.Join(distNames(), ", "))
	}
	c.num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (work units)")
	switch {
	case d.Dist == "pareto":
		c.num(at("alpha"), d.Alpha, d.Alpha > 2, "pareto needs alpha > 2 (alpha ≤ 2 has infinite variance)")
	case known && d.Alpha != 0:
		c.add(at("alpha"), "%s is not allowed: %s takes no alpha (only pareto does)", fmtNum(d.Alpha), d.Dist)
	}
	switch {
	case d.Dist == "lognormal":
		// cv 0 would silently be constant sizes: that is dist: deterministic.
		c.num(at("cv"), d.CV, d.CV > 0, "must be > 0 (coefficient of variation; for constant sizes use dist: deterministic)")
	case known && d.CV != 0:
		c.add(at("cv"), "%s is not allowed: %s takes no cv (only lognormal does)", fmtNum(d.CV), d.Dist)
	}
	q := w.LargeQuantile
	c.num(path("workload", "large_quantile"), q, q > 0 && q < 1, "must be in (0, 1)")
}

func (c *checker) tiers() {
	if len(c.s.Tiers) == 0 {
		c.add(path("tiers"), "none given: at least one tier is needed")
		return
	}
	first := map[string]int{}
	for i, t := range c.s.Tiers {
		at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
		if !validTierName(t.Name) {
			c.add(at("name"), "%q is not allowed: must match ^[a-z0-9_-]+$ (it becomes a CSV column name)", t.Name)
		} else if j, dup := first[t.Name]; dup {
			c.add(at("name"), "%q is not allowed: tier names must be unique (tiers[%d] has it too)", t.Name, j)
		} else {
			first[t.Name] = i
		}
		if !slices.Contains(kindNames(), t.Kind) {
			c.add(at("kind"), "%q is not allowed: must be one of %s", t.Kind, strings.Join(kindNames(), ", "))
		}
		c.integer(at("servers"), t.Servers, t.Servers >= 1, "must be ≥ 1")
		c.num(at("speed"), t.Speed, t.Speed > 0, "must be > 0 (work units/s)")
		c.num(at("delay", "mean"), t.Delay.Mean, t.Delay.Mean >= 0, "must be ≥ 0 (s)")
		c.num(at("delay", "cv"), t.Delay.CV, t.Delay.CV >= 0, "must be ≥ 0 (coefficient of variation)")
	}
}

// validTierName matches ^[a-z0-9_-]+$ without a package-level regexp.
func validTierName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func (c *checker) policies() {
	if len(c.s.Policies) == 0 {
		c.add(path("policies"), "none given: list at least one of %s", strings.Join(PolicyNames(), ", "))
		return
	}
	first := map[string]int{}
	hasEdge := slices.ContainsFunc(c.s.Tiers, func(t Tier) bool { return t.Kind == "edge" })
	for i, p := range c.s.Policies {
		at := path("policies", strconv.Itoa(i))
		switch j, dup := first[p]; {
		case !slices.Contains(PolicyNames(), p):
			c.add(at, "%q is not allowed: must be one of %s", p, strings.Join(PolicyNames(), ", "))
		case dup:
			c.add(at, "%q is not allowed: listed twice (policies[%d] has it too)", p, j)
		case p == "edge-first" && !hasEdge:
			c.add(at, "%q is not allowed: no tier has kind edge (edge-first sends every task to the first edge tier)", p)
		}
		if _, dup := first[p]; !dup {
			first[p] = i
		}
	}
}

func (c *checker) estimator() {
	e := c.s.Estimator
	at := func(f ...string) []string { return sub(path("estimator"), f...) }
	c.num(at("window"), e.Window, e.Window > 0, "must be > 0 (s)")
	c.num(at("epsilon"), e.Epsilon, e.Epsilon >= 0 && e.Epsilon <= 1, "must be in [0, 1] (a probability)")
	c.num(at("rho_max"), e.RhoMax, e.RhoMax > 0 && e.RhoMax < 1, "must be in (0, 1)")
	p := e.Penalty
	c.num(at("penalty", "threshold"), p.Threshold, p.Threshold >= 0 && p.Threshold < 1, "must be in [0, 1)")
	c.num(at("penalty", "k"), p.K, p.K >= 0, "must be ≥ 0 (0 switches the penalty off)")
}
