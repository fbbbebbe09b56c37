package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	c := &checker{s: s}
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
	c.policies()
	c.estimator()
	c.observation()
	c.slo()
	c.breakdown()
	c.limits()
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
	c.upper(path("seeds"), float64(s.Seeds), MaxSeeds, " (replicates)")
	c.integer(path("tasks"), s.Tasks, s.Tasks >= 0, "must be > 0 (measured tasks), or leave it out and give duration")
	c.num(path("duration"), s.Duration, s.Duration >= 0, "must be > 0 (seconds of arrivals), or leave it out and give tasks")
	switch {
	case s.Tasks > MaxTasks:
		c.add(path("tasks"), "%d is out of range: tasks + warmup must be ≤ %d per run", s.Tasks, MaxTasks)
	case s.Warmup > MaxTasks:
		c.add(path("warmup"), "%d is out of range: tasks + warmup must be ≤ %d per run", s.Warmup, MaxTasks)
	case s.Warmup > 0 && s.Tasks+s.Warmup > MaxTasks:
		c.add(path("tasks"), "%d + warmup %d = %d is out of range: tasks + warmup must be ≤ %d per run", s.Tasks, s.Warmup, s.Tasks+s.Warmup, MaxTasks)
	}
	switch {
	case s.Duration > MaxSpan:
		c.add(path("duration"), "%s is out of range: duration + warmup_time must be ≤ %s s", fmtNum(s.Duration), fmtNum(MaxSpan))
	case s.WarmupTime > MaxSpan:
		c.add(path("warmup_time"), "%s is out of range: duration + warmup_time must be ≤ %s s", fmtNum(s.WarmupTime), fmtNum(MaxSpan))
	case s.WarmupTime > 0 && s.Duration+s.WarmupTime > MaxSpan:
		c.add(path("duration"), "%s + warmup_time %s = %s is out of range: duration + warmup_time must be ≤ %s s", fmtNum(s.Duration), fmtNum(s.WarmupTime), fmtNum(s.Duration+s.WarmupTime), fmtNum(MaxSpan))
	}
	switch {
	case s.Tasks > 0 && s.Duration > 0:
		c.add(path("tasks"), "%d is not allowed with duration %s: give exactly one of tasks (measured tasks) and duration (seconds)", s.Tasks, fmtNum(s.Duration))
	case s.Tasks == 0 && s.Duration == 0 && s.Trace == nil: // a trace's rows give the tasks
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
	// An mmpp's rate is derived: left at 0, its rates or sojourn are wrong,
	// and process says which.
	if a.Process != "mmpp" || a.Rate != 0 {
		c.num(path("arrivals", "rate"), a.Rate, a.Rate > 0, "must be > 0 (tasks/s)")
	}
	c.lower(path("arrivals", "rate"), a.Rate, MinRate, " tasks/s")
	c.upper(path("arrivals", "rate"), a.Rate, MaxRate, " tasks/s")
	if !c.count(path("arrivals", "bursts"), len(a.Bursts), MaxBursts, "bursts") {
		return
	}
	for i, b := range a.Bursts {
		at := func(f string) []string { return path("arrivals", "bursts", strconv.Itoa(i), f) }
		c.num(at("start"), b.Start, b.Start >= 0, "must be ≥ 0 (s)")
		c.upper(at("start"), b.Start, MaxSpan, " s")
		c.num(at("every"), b.Every, b.Every >= 0, "must be ≥ 0 (s; 0 for a single burst)")
		c.lower(at("every"), b.Every, MinBurstTime, " s (or 0 for a single burst)")
		c.upper(at("every"), b.Every, MaxSpan, " s")
		if c.num(at("length"), b.Length, b.Length > 0, "must be > 0 (s)") && b.Every > 0 && finite(b.Every) && b.Length > b.Every {
			c.add(at("length"), "%s is not allowed: must be ≤ every (%s s), or bursts would overlap themselves", fmtNum(b.Length), fmtNum(b.Every))
		}
		c.lower(at("length"), b.Length, MinBurstTime, " s")
		c.upper(at("length"), b.Length, MaxSpan, " s")
		c.num(at("factor"), b.Factor, b.Factor > 0, "must be > 0 (it multiplies the rate)")
		c.lower(at("factor"), b.Factor, MinBurstFactor, "")
		c.upper(at("factor"), b.Factor, MaxBurstFactor, "")
		c.integer(at("count"), b.Count, b.Count >= 0, "must be ≥ 0 (0 = unbounded)")
		if b.Every == 0 && b.Count > 1 {
			c.add(at("count"), "%d is not allowed: a burst with every 0 happens once (count 0 or 1)", b.Count)
		}
	}
	c.process()
}

func (c *checker) workload() {
	w := c.s.Workload
	d := w.Size
	at := func(f string) []string { return path("workload", "size", f) }
	known := slices.Contains(distNames(), d.Dist)
	if !known {
		c.add(at("dist"), "%q is not allowed: must be one of %s", d.Dist, strings.Join(distNames(), ", "))
	}
	switch d.Dist {
	case "bounded-pareto":
		c.boundedPareto(d, at)
	case "empirical":
		c.empirical(d, at)
	default:
		c.num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (work units)")
		c.lower(at("mean"), d.Mean, MinMean, " work units")
		c.upper(at("mean"), d.Mean, MaxMean, " work units")
		c.noBounds(d, at, known)
	}
	switch {
	case d.Dist == "bounded-pareto":
	case d.Dist == "pareto":
		c.num(at("alpha"), d.Alpha, d.Alpha > 2, "pareto needs alpha > 2 (alpha ≤ 2 has infinite variance)")
		c.upper(at("alpha"), d.Alpha, MaxAlpha, " (for sizes that barely vary use dist: deterministic)")
	case known && d.Alpha != 0:
		c.add(at("alpha"), "%s is not allowed: %s takes no alpha (only pareto does)", fmtNum(d.Alpha), d.Dist)
	}
	switch {
	case d.Dist == "lognormal":
		// cv 0 would silently be constant sizes: that is dist: deterministic.
		c.num(at("cv"), d.CV, d.CV > 0, "must be > 0 (coefficient of variation; for constant sizes use dist: deterministic)")
		c.upper(at("cv"), d.CV, MaxCV, "")
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
	if !c.count(path("tiers"), len(c.s.Tiers), MaxTiers, "tiers") {
		return
	}
	first := map[string]int{}
	for i, t := range c.s.Tiers {
		at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
		if !ValidTierName(t.Name) {
			c.add(at("name"), "%q is not allowed: must match ^[a-z0-9_-]+$ (it becomes a CSV column name)", t.Name)
		} else if j, dup := first[t.Name]; dup {
			c.add(at("name"), "%q is not allowed: tier names must be unique (tiers[%d] has it too)", t.Name, j)
		} else {
			first[t.Name] = i
		}
		c.tier(i)
	}
}

// tier checks one tier's fields but its name, whose uniqueness is the
// list's.
func (c *checker) tier(i int) {
	t := c.s.Tiers[i]
	at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
	if !slices.Contains(kindNames(), t.Kind) {
		c.add(at("kind"), "%q is not allowed: must be one of %s", t.Kind, strings.Join(kindNames(), ", "))
	}
	c.integer(at("servers"), t.Servers, t.Servers >= 1, "must be ≥ 1")
	c.upper(at("servers"), float64(t.Servers), MaxServers, "")
	c.num(at("speed"), t.Speed, t.Speed > 0, "must be > 0 (work units/s)")
	c.lower(at("speed"), t.Speed, MinSpeed, " work units/s")
	c.upper(at("speed"), t.Speed, MaxSpeed, " work units/s")
	c.num(at("delay", "mean"), t.Delay.Mean, t.Delay.Mean >= 0, "must be ≥ 0 (s)")
	c.upper(at("delay", "mean"), t.Delay.Mean, MaxDelay, " s")
	c.num(at("delay", "cv"), t.Delay.CV, t.Delay.CV >= 0, "must be ≥ 0 (coefficient of variation)")
	c.upper(at("delay", "cv"), t.Delay.CV, MaxCV, "")
}

// ValidTierName reports whether name matches ^[a-z0-9_-]+$, the tier names
// (and policy labels) that become CSV column names; serve-tier checks its
// --name with it too.
func ValidTierName(name string) bool {
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
	pols := c.s.pols
	if pols == nil {
		c.add(path("policies"), "no policy catalog to check them against (parse the scenario, or give it one with SetCatalog)")
		return
	}
	names := pols.Names()
	if len(c.s.Policies) == 0 {
		c.add(path("policies"), "none given: list at least one of %s", strings.Join(names, ", "))
		return
	}
	if !c.count(path("policies"), len(c.s.Policies), MaxEntries, "policies") {
		return
	}
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}
	kinds := c.s.tierKinds()
	first := map[string]int{}
	for i, e := range c.s.Policies {
		at := path("policies", strconv.Itoa(i))
		label := e.Label()
		if !known[e.Name] {
			c.add(at, "%q is not allowed: must be one of %s", e.Name, strings.Join(names, ", "))
			c.errs[len(c.errs)-1].at = sub(at, "name")
		}
		switch j, dup := first[label]; {
		case e.As != "" && !ValidTierName(e.As):
			c.add(sub(at, "as"), "%q is not allowed: must match ^[a-z0-9_-]+$ (it labels the policy's rows)", e.As)
		case dup && label != "": // "" is an unknown name, reported as such
			c.add(at, "%q is not allowed: listed twice (policies[%d] has it too)", label, j)
			c.errs[len(c.errs)-1].at = sub(at, "as")
		default:
			first[label] = i
		}
		if known[e.Name] {
			c.entry(at, e, kinds)
		}
	}
}

// tierKinds lists the tiers' kinds in order, for the catalog's Check.
func (s *Scenario) tierKinds() []string {
	kinds := make([]string, len(s.Tiers))
	for i, t := range s.Tiers {
		kinds[i] = t.Kind
	}
	return kinds
}

// entry passes one entry's Problems from the catalog on as errors at the
// option they name.
func (c *checker) entry(at []string, e PolicyEntry, kinds []string) {
	for _, p := range c.s.pols.Check(e.Name, e.Options, kinds) {
		segs := at
		if p.Option != "" {
			segs = sub(at, strings.Split(p.Option, ".")...)
		}
		c.add(segs, "%s", p.Msg)
	}
}

func (c *checker) estimator() {
	e := c.s.Estimator
	at := func(f ...string) []string { return sub(path("estimator"), f...) }
	c.num(at("window"), e.Window, e.Window > 0, "must be > 0 (s)")
	c.upper(at("window"), e.Window, MaxWindow, " s")
	c.num(at("epsilon"), e.Epsilon, e.Epsilon >= 0 && e.Epsilon <= 1, "must be in [0, 1] (a probability)")
	c.num(at("rho_max"), e.RhoMax, e.RhoMax > 0 && e.RhoMax < 1, "must be in (0, 1)")
	p := e.Penalty
	c.num(at("penalty", "threshold"), p.Threshold, p.Threshold >= 0 && p.Threshold < 1, "must be in [0, 1)")
	c.num(at("penalty", "k"), p.K, p.K >= 0, "must be ≥ 0 (0 switches the penalty off)")
	c.upper(at("penalty", "k"), p.K, MaxPenaltyK, "")
	if e.Ca2 != "" && e.Ca2 != "poisson" && e.Ca2 != "online" {
		c.add(at("ca2"), "%q is not allowed: must be poisson or online", e.Ca2)
	}
}

func (c *checker) observation() {
	s := c.s
	c.integer(path("devices"), s.Devices, s.Devices >= 0, "must be ≥ 1 (dispatchers; omit it for one)")
	c.upper(path("devices"), float64(s.Devices), MaxDevices, " (dispatchers)")
	o := s.Observation
	if o == nil {
		return
	}
	at := func(f ...string) []string { return sub(path("observation"), f...) }
	if !slices.Contains(ObservationModels(), o.Model) {
		c.add(at("model"), "%q is not allowed: must be one of %s", o.Model, strings.Join(ObservationModels(), ", "))
		return
	}
	usesPeriod := o.Model == "periodic" || o.Model == "individual"
	switch {
	case o.Model == "periodic":
		if c.num(at("period"), o.Period, o.Period >= 0, "must be ≥ 0 (s; 0 is a fresh view)") {
			c.upper(at("period"), o.Period, MaxSpan, " s")
		}
		if c.num(at("phase"), o.Phase, o.Phase >= 0 && (o.Phase < o.Period || o.Period == 0 && o.Phase == 0), "must be in [0, period)") {
			c.upper(at("phase"), o.Phase, MaxSpan, " s")
		}
	case o.Model == "individual":
		if c.num(at("period"), o.Period, o.Period > 0, "must be > 0 (s: the mean time between a tier's reposts)") {
			c.upper(at("period"), o.Period, MaxSpan, " s")
			c.lower(at("period"), o.Period, MinBurstTime, " s")
		}
	}
	if !usesPeriod && o.Period != 0 {
		also := ""
		if o.Model == "fresh" {
			also = "; fresh is the model when none is given"
		}
		c.add(at("period"), "%s is not allowed: %s takes no period (periodic and individual do%s)", fmtNum(o.Period), o.Model, also)
	}
	if o.Model != "periodic" && o.Phase != 0 {
		c.add(at("phase"), "%s is not allowed: only periodic takes a phase", fmtNum(o.Phase))
	}
	switch {
	case o.Model == "delayed" && o.Delay == nil:
		c.add(at("delay"), "none given: delayed needs delay: {mean, cv} (s)")
	case o.Model == "delayed":
		if c.num(at("delay", "mean"), o.Delay.Mean, o.Delay.Mean > 0, "must be > 0 (s)") {
			c.upper(at("delay", "mean"), o.Delay.Mean, MaxDelay, " s")
		}
		if c.num(at("delay", "cv"), o.Delay.CV, o.Delay.CV >= 0, "must be ≥ 0 (coefficient of variation)") {
			c.upper(at("delay", "cv"), o.Delay.CV, MaxCV, "")
		}
	case o.Delay != nil:
		c.add(at("delay"), "is not allowed: %s takes no delay (only delayed does)", o.Model)
	}
	if c.num(at("noise"), o.Noise, o.Noise >= 0, "must be ≥ 0 (coefficient of variation; 0: exact counts)") {
		c.upper(at("noise"), o.Noise, MaxCV, "")
	}
}
