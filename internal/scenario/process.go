package scenario

import (
	"math"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// The bounds of the arrival processes and the bounded-Pareto sizes, in the
// style of limits.go.
const (
	// MinProcessCV and MaxProcessCV bound a renewal inter-arrival cv: at
	// cv 10 the gamma's shape is 0.01 and one gap in a thousand is below
	// float64's range; below 0.01 the process is a clock (Weibull's shape
	// would pass 128).
	MinProcessCV, MaxProcessCV = 0.01, 10
	// MaxBoundRatio bounds a bounded Pareto's high/low: beyond 10¹² the
	// law is a Pareto whose truncation no run reaches.
	MaxBoundRatio = 1e12
)

// processNames lists the arrival processes in the order messages give them.
func processNames() []string { return []string{"poisson", "renewal", "mmpp", "diurnal"} }

// MMPPRate is the stationary rate π₀r₀ + π₁r₁ of a two-state MMPP, with
// π_i = m_i/(m₀+m₁), or 0 when rates or sojourn are not two valid numbers.
func MMPPRate(rates, sojourn []float64) float64 {
	if len(rates) != 2 || len(sojourn) != 2 {
		return 0
	}
	r0, r1, m0, m1 := rates[0], rates[1], sojourn[0], sojourn[1]
	if !(r0 >= 0 && r1 >= 0 && m0 > 0 && m1 > 0) || !finite(r0+r1+m0+m1) {
		return 0
	}
	return (m0*r0 + m1*r1) / (m0 + m1) // workload.NewMMPP's, without the import: scenario stays a leaf
}

// lawNames lists the renewal laws (workload.LawNames spells them the same way).
func lawNames() []string { return []string{"gamma", "lognormal", "weibull"} }

// resolveProcess writes what the process block implies: an explicit
// poisson is left out (so that it resolves, and hashes, as today's
// scenarios do), and an mmpp's rate, when it is left out or rederive is
// set, is its stationary rate. A sweep derives it again in each cell
// (the cell may have changed rates or sojourn) unless it sweeps
// arrivals.rate itself, which Validate then refuses.
func (s *Scenario) resolveProcess(rederive bool) {
	if s.Estimator.Ca2 == "poisson" {
		s.Estimator.Ca2 = "" // the default, left out like poisson arrivals
	}
	a := &s.Arrivals
	if a.Process == "poisson" {
		a.Process = ""
	}
	if a.Process == "mmpp" && (a.Rate == 0 || rederive) {
		if r := MMPPRate(a.Rates, a.Sojourn); r > 0 {
			a.Rate = r
		}
	}
}

// process checks arrivals.process and the fields each process takes.
func (c *checker) process() {
	a := c.s.Arrivals
	at := func(f string) []string { return path("arrivals", f) }
	kind := a.Process
	if kind == "" {
		kind = "poisson"
	}
	if !slices.Contains(processNames(), kind) {
		c.add(at("process"), "%q is not allowed: must be one of %s", a.Process, strings.Join(processNames(), ", "))
		return
	}
	takes := map[string]bool{}
	switch kind {
	case "renewal":
		takes["law"], takes["cv"] = true, true
		if !slices.Contains(lawNames(), a.Law) {
			c.add(at("law"), "%q is not allowed: renewal needs a law, one of %s", a.Law, strings.Join(lawNames(), ", "))
		}
		if c.num(at("cv"), a.CV, a.CV > 0, "renewal needs cv > 0 (the inter-arrival coefficient of variation; cv 1 with law gamma is Poisson)") {
			c.lower(at("cv"), a.CV, MinProcessCV, "")
			c.upper(at("cv"), a.CV, MaxProcessCV, "")
		}
	case "mmpp":
		takes["rates"], takes["sojourn"] = true, true
		c.mmpp(a)
	case "diurnal":
		takes["amplitude"], takes["period"] = true, true
		c.num(at("amplitude"), a.Amplitude, a.Amplitude >= 0 && a.Amplitude < 1, "must be in [0, 1) (the rate's relative swing)")
		if c.num(at("period"), a.Period, a.Period > 0, "diurnal needs period > 0 (s)") {
			c.lower(at("period"), a.Period, MinBurstTime, " s")
			c.upper(at("period"), a.Period, MaxSpan, " s")
		}
	}
	given := map[string]bool{"law": a.Law != "", "cv": a.CV != 0, "rates": a.Rates != nil, "sojourn": a.Sojourn != nil,
		"amplitude": a.Amplitude != 0, "period": a.Period != 0}
	for _, f := range []string{"law", "cv", "rates", "sojourn", "amplitude", "period"} {
		if given[f] && !takes[f] {
			c.add(at(f), "is not allowed: process %s takes no %s", kind, f)
		}
	}
}

// mmpp checks the two phases and that rate is their stationary rate.
func (c *checker) mmpp(a Arrivals) {
	at := func(f ...string) []string { return path(append([]string{"arrivals"}, f...)...) }
	okR, okS := len(a.Rates) == 2, len(a.Sojourn) == 2
	if !okR {
		c.add(at("rates"), "%d values is not allowed: mmpp needs two phase rates [r0, r1] (tasks/s)", len(a.Rates))
	}
	if !okS {
		c.add(at("sojourn"), "%d values is not allowed: mmpp needs two mean sojourn times [m0, m1] (s)", len(a.Sojourn))
	}
	if !okR || !okS {
		return
	}
	for i, r := range a.Rates {
		seg := at("rates", string(rune('0'+i)))
		okR = c.num(seg, r, r >= 0, "must be ≥ 0 (tasks/s)") && okR
		c.upper(seg, r, MaxRate, " tasks/s")
	}
	if okR && a.Rates[0]+a.Rates[1] == 0 {
		c.add(at("rates"), "[0, 0] is not allowed: at least one phase must have arrivals")
		okR = false
	}
	for i, m := range a.Sojourn {
		seg := at("sojourn", string(rune('0'+i)))
		okS = c.num(seg, m, m > 0, "must be > 0 (s)") && okS
		c.lower(seg, m, MinBurstTime, " s")
		c.upper(seg, m, MaxSpan, " s")
	}
	if !okR || !okS {
		return
	}
	want := MMPPRate(a.Rates, a.Sojourn)
	if math.Abs(a.Rate-want) > 1e-9*want {
		c.add(at("rate"), "%s is not allowed with process mmpp: the rate is derived, the stationary rate π₀r₀ + π₁r₁ = %s tasks/s of rates and sojourn; leave it out (or give 0, e.g. --set arrivals.rate=0 over a file that has one)", fmtNum(a.Rate), fmtNum(want))
		return
	}
	// Each phase change is a step of the sampler, like a burst edge.
	if span := c.s.span(); finite(span) {
		if n := 2 * span / (a.Sojourn[0] + a.Sojourn[1]); n > MaxEdges {
			c.add(at("sojourn"), "%s phase changes in a run of %s s is out of range: must be ≤ %s (lengthen the sojourns)", approx(n), approx(span), fmtNum(MaxEdges))
		}
	}
}

// boundedPareto checks a bounded-Pareto size law: alpha > 0, 0 < low <
// high, no mean (it follows from the three).
func (c *checker) boundedPareto(d Dist, at func(string) []string) {
	if d.Mean != 0 {
		c.add(at("mean"), "%s is not allowed: bounded-pareto's mean follows from alpha, low and high (%s); leave it out", fmtNum(d.Mean), "E[X] = α·L^α·(H^(1−α) − L^(1−α))/((1−α)(1 − (L/H)^α))")
	}
	if c.num(at("alpha"), d.Alpha, d.Alpha > 0, "bounded-pareto needs alpha > 0") {
		c.upper(at("alpha"), d.Alpha, MaxAlpha, "")
	}
	okL := c.num(at("low"), d.Low, d.Low > 0, "bounded-pareto needs low > 0 (work units)")
	c.lower(at("low"), d.Low, MinMean, " work units")
	okH := c.num(at("high"), d.High, d.High > 0, "bounded-pareto needs high > low (work units)")
	c.upper(at("high"), d.High, MaxMean, " work units")
	if okL && okH {
		switch {
		case d.High <= d.Low:
			c.add(at("high"), "%s is not allowed: must be > low (%s)", fmtNum(d.High), fmtNum(d.Low))
		case d.High/d.Low > MaxBoundRatio:
			c.add(at("high"), "%s is out of range: high/low must be ≤ %s", fmtNum(d.High), fmtNum(MaxBoundRatio))
		}
	}
}

// empirical checks an empirical law: a file, a mean that only scales, no
// parameters of another family.
func (c *checker) empirical(d Dist, at func(string) []string) {
	if d.File == "" {
		c.add(at("file"), `"" is not allowed: empirical needs the CSV whose column gives the sizes, relative to the scenario file`)
	}
	if d.Mean != 0 {
		c.num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (work units: the values are scaled to this mean), or leave it out for the column's own")
		c.lower(at("mean"), d.Mean, MinMean, " work units")
		c.upper(at("mean"), d.Mean, MaxMean, " work units")
	}
	c.noBounds(d, at, true)
}

// noBounds refuses low and high for a family other than bounded-pareto,
// and file and column for one other than empirical.
func (c *checker) noBounds(d Dist, at func(string) []string, known bool) {
	if !known {
		return
	}
	if d.Dist != "empirical" {
		if d.File != "" {
			c.add(at("file"), "%q is not allowed: %s takes no file (only empirical does)", d.File, d.Dist)
		}
		if d.Column != "" {
			c.add(at("column"), "%q is not allowed: %s takes no column (only empirical does)", d.Column, d.Dist)
		}
	}
	if d.Low != 0 {
		c.add(at("low"), "%s is not allowed: %s takes no low (only bounded-pareto does)", fmtNum(d.Low), d.Dist)
	}
	if d.High != 0 {
		c.add(at("high"), "%s is not allowed: %s takes no high (only bounded-pareto does)", fmtNum(d.High), d.Dist)
	}
}

// restateBounded: a bounded-pareto or empirical size mapping without mean
// has none (not the default's 1), another family's has no bounds, and one
// other than empirical no file or column.
func restateBounded(d *Dist, size *yaml.Node) {
	if d.Dist != "empirical" {
		if child(size, "file") == nil {
			d.File = ""
		}
		if child(size, "column") == nil {
			d.Column = ""
		}
	}
	if d.Dist == "bounded-pareto" || d.Dist == "empirical" {
		if child(size, "mean") == nil {
			d.Mean = 0 // bounded-pareto: it follows from the bounds; empirical: the column's own
		}
	}
	if d.Dist == "bounded-pareto" {
		return
	}
	if child(size, "low") == nil {
		d.Low = 0
	}
	if child(size, "high") == nil {
		d.High = 0
	}
}

// peakRate is the highest rate the process reaches before bursts: an
// mmpp's faster phase, a diurnal's crest rate·(1 + amplitude), else rate.
func (s *Scenario) peakRate() float64 {
	a := s.Arrivals
	switch {
	case a.Process == "mmpp" && len(a.Rates) == 2:
		return max(a.Rates[0], a.Rates[1])
	case a.Process == "diurnal":
		return a.Rate * (1 + a.Amplitude)
	}
	return a.Rate
}
