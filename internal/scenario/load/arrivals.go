package load

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/scenario/limit"
	"github.com/offload-sim/offload/internal/schema"
)

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

// The bounds of the arrival processes, in the style of package limit.
const (
	// MinProcessCV and MaxProcessCV bound a renewal inter-arrival cv: at
	// cv 10 the gamma's shape is 0.01 and one gap in a thousand is below
	// float64's range; below 0.01 the process is a clock (Weibull's shape
	// would pass 128).
	MinProcessCV, MaxProcessCV = 0.01, 10
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
	return (m0*r0 + m1*r1) / (m0 + m1) // workload.NewMMPP's, without the import: the scenario stays apart from the simulator
}

// Resolve writes what the process block implies: an explicit poisson is
// left out, and an mmpp's rate, when it is left out or rederive is set,
// is its stationary rate.
func (a *Arrivals) Resolve(rederive bool) {
	if a.Process == "poisson" {
		a.Process = ""
	}
	if a.Process == "mmpp" && (a.Rate == 0 || rederive) {
		if r := MMPPRate(a.Rates, a.Sojourn); r > 0 {
			a.Rate = r
		}
	}
}

// PeakRate is the highest rate the process reaches before bursts: an
// mmpp's faster phase, a diurnal's crest rate·(1 + amplitude), else rate.
func (a Arrivals) PeakRate() float64 {
	switch {
	case a.Process == "mmpp" && len(a.Rates) == 2:
		return max(a.Rates[0], a.Rates[1])
	case a.Process == "diurnal":
		return a.Rate * (1 + a.Amplitude)
	}
	return a.Rate
}

// FactorRange is the smallest and largest product of burst factors the
// rate can be multiplied by, as if every burst could overlap every other.
// A product may overflow to +Inf or underflow to 0: both compare as out of
// range, which they are.
func (a Arrivals) FactorRange() (lo, hi float64) {
	lo, hi = 1, 1
	for _, b := range a.Bursts {
		switch {
		case !(b.Factor > 0) || !finite(b.Factor): // reported on its own
		case b.Factor > 1:
			hi *= b.Factor
		default:
			lo *= b.Factor
		}
	}
	return lo, hi
}

// lawNames lists the renewal laws (workload.LawNames spells them the same way).
func lawNames() []string { return []string{"gamma", "lognormal", "weibull"} }

// CheckArrivals checks the arrival process at arrivals: its rate, bursts
// and process. span is a run's seconds of arrivals, which bounds the phase
// changes of an mmpp.
func CheckArrivals(cc *schema.Checker, a Arrivals, span float64) {
	c := loadChecker{cc, span}
	// An mmpp's rate is derived: left at 0, its rates or sojourn are wrong,
	// and process says which.
	if a.Process != "mmpp" || a.Rate != 0 {
		c.Num(path("arrivals", "rate"), a.Rate, a.Rate > 0, "must be > 0 (tasks/s)")
	}
	c.Within(path("arrivals", "rate"), a.Rate, limit.MinRate, limit.MaxRate, " tasks/s")
	if !c.Count(path("arrivals", "bursts"), len(a.Bursts), limit.MaxBursts, "bursts") {
		return
	}
	for i, b := range a.Bursts {
		at := func(f string) []string { return path("arrivals", "bursts", strconv.Itoa(i), f) }
		c.Num(at("start"), b.Start, b.Start >= 0, "must be ≥ 0 (s)")
		c.Upper(at("start"), b.Start, limit.MaxSpan, " s")
		c.Num(at("every"), b.Every, b.Every >= 0, "must be ≥ 0 (s; 0 for a single burst)")
		c.Lower(at("every"), b.Every, limit.MinBurstTime, " s (or 0 for a single burst)")
		c.Upper(at("every"), b.Every, limit.MaxSpan, " s")
		if c.Num(at("length"), b.Length, b.Length > 0, "must be > 0 (s)") && b.Every > 0 && finite(b.Every) && b.Length > b.Every {
			c.Add(at("length"), "%s is not allowed: must be ≤ every (%s s), or bursts would overlap themselves", fmtNum(b.Length), fmtNum(b.Every))
		}
		c.Within(at("length"), b.Length, limit.MinBurstTime, limit.MaxSpan, " s")
		c.Num(at("factor"), b.Factor, b.Factor > 0, "must be > 0 (it multiplies the rate)")
		c.Within(at("factor"), b.Factor, limit.MinBurstFactor, limit.MaxBurstFactor, "")
		c.Integer(at("count"), b.Count, b.Count >= 0, "must be ≥ 0 (0 = unbounded)")
		if b.Every == 0 && b.Count > 1 {
			c.Add(at("count"), "%d is not allowed: a burst with every 0 happens once (count 0 or 1)", b.Count)
		}
	}
	c.process(a)
}

// process checks arrivals.process and the fields each process takes.
func (c loadChecker) process(a Arrivals) {
	at := func(f string) []string { return path("arrivals", f) }
	kind := a.Process
	if kind == "" {
		kind = "poisson"
	}
	if !slices.Contains(processNames(), kind) {
		c.Add(at("process"), "%q is not allowed: must be one of %s", a.Process, strings.Join(processNames(), ", "))
		return
	}
	takes := map[string]bool{}
	switch kind {
	case "renewal":
		takes["law"], takes["cv"] = true, true
		if !slices.Contains(lawNames(), a.Law) {
			c.Add(at("law"), "%q is not allowed: renewal needs a law, one of %s", a.Law, strings.Join(lawNames(), ", "))
		}
		if c.Num(at("cv"), a.CV, a.CV > 0, "renewal needs cv > 0 (the inter-arrival coefficient of variation; cv 1 with law gamma is Poisson)") {
			c.Within(at("cv"), a.CV, MinProcessCV, MaxProcessCV, "")
		}
	case "mmpp":
		takes["rates"], takes["sojourn"] = true, true
		c.mmpp(a)
	case "diurnal":
		takes["amplitude"], takes["period"] = true, true
		c.Num(at("amplitude"), a.Amplitude, a.Amplitude >= 0 && a.Amplitude < 1, "must be in [0, 1) (the rate's relative swing)")
		if c.Num(at("period"), a.Period, a.Period > 0, "diurnal needs period > 0 (s)") {
			c.Within(at("period"), a.Period, limit.MinBurstTime, limit.MaxSpan, " s")
		}
	}
	given := map[string]bool{"law": a.Law != "", "cv": a.CV != 0, "rates": a.Rates != nil, "sojourn": a.Sojourn != nil,
		"amplitude": a.Amplitude != 0, "period": a.Period != 0}
	for _, f := range []string{"law", "cv", "rates", "sojourn", "amplitude", "period"} {
		if given[f] && !takes[f] {
			c.Add(at(f), "is not allowed: process %s takes no %s", kind, f)
		}
	}
}

// mmpp checks the two phases and that rate is their stationary rate.
func (c loadChecker) mmpp(a Arrivals) {
	at := func(f ...string) []string { return path(append([]string{"arrivals"}, f...)...) }
	okR, okS := len(a.Rates) == 2, len(a.Sojourn) == 2
	if !okR {
		c.Add(at("rates"), "%d values is not allowed: mmpp needs two phase rates [r0, r1] (tasks/s)", len(a.Rates))
	}
	if !okS {
		c.Add(at("sojourn"), "%d values is not allowed: mmpp needs two mean sojourn times [m0, m1] (s)", len(a.Sojourn))
	}
	if !okR || !okS {
		return
	}
	for i, r := range a.Rates {
		seg := at("rates", string(rune('0'+i)))
		okR = c.Num(seg, r, r >= 0, "must be ≥ 0 (tasks/s)") && okR
		c.Upper(seg, r, limit.MaxRate, " tasks/s")
	}
	if okR && a.Rates[0]+a.Rates[1] == 0 {
		c.Add(at("rates"), "[0, 0] is not allowed: at least one phase must have arrivals")
		okR = false
	}
	for i, m := range a.Sojourn {
		seg := at("sojourn", string(rune('0'+i)))
		okS = c.Num(seg, m, m > 0, "must be > 0 (s)") && okS
		c.Within(seg, m, limit.MinBurstTime, limit.MaxSpan, " s")
	}
	if okR && okS {
		c.mmppRate(a)
	}
}

// mmppRate checks that rate is the stationary rate of valid phases, and
// that the phase changes a run crosses are bounded.
func (c loadChecker) mmppRate(a Arrivals) {
	at := func(f ...string) []string { return path(append([]string{"arrivals"}, f...)...) }
	want := MMPPRate(a.Rates, a.Sojourn)
	if math.Abs(a.Rate-want) > 1e-9*want {
		c.Add(at("rate"), "%s is not allowed with process mmpp: the rate is derived, the stationary rate π₀r₀ + π₁r₁ = %s tasks/s of rates and sojourn; leave it out (or give 0, e.g. --set arrivals.rate=0 over a file that has one)", fmtNum(a.Rate), fmtNum(want))
		return
	}
	// Each phase change is a step of the sampler, like a burst edge.
	if span := c.span; finite(span) {
		if n := 2 * span / (a.Sojourn[0] + a.Sojourn[1]); n > limit.MaxEdges {
			c.Add(at("sojourn"), "%s phase changes in a run of %s s is out of range: must be ≤ %s (lengthen the sojourns)", approx(n), approx(span), fmtNum(limit.MaxEdges))
		}
	}
}
