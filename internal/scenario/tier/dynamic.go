package tier

import (
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/capacity"
	"github.com/offload-sim/offload/internal/scenario/limit"
	"github.com/offload-sim/offload/internal/scenario/load"
	"github.com/offload-sim/offload/internal/schema"
)

// Episode is a span [start, end) of a tier at speed times its speed, or
// down (serving and accepting nothing), in simulated seconds from 0.
type Episode struct {
	Start float64 `yaml:"start" unit:"s"`                               // s, ≥ 0
	End   float64 `yaml:"end" unit:"s"`                                 // s, > start
	Speed float64 `yaml:"speed,omitempty" label:"episode speed"`        // multiplier of the tier's speed, > 0; left out when down
	Down  bool    `yaml:"down,omitempty" label:"down (failed) episode"` // the tier serves and accepts nothing
}

// Recurring is a tier's random slow-downs or failures: the first starts a
// gap after 0, each next one a gap after the previous one ends, and each
// lasts a length (laws in seconds: exponential, deterministic, lognormal
// or pareto).
type Recurring struct {
	Gap    load.Dist `yaml:"gap" label:"gap law" workunit:"s"`        // law of the time from one span's end to the next one's start, s (its mean > 0)
	Length load.Dist `yaml:"length" label:"length law" workunit:"s"`  // law of a span's length, s (its mean > 0)
	Speed  float64   `yaml:"speed,omitempty" label:"slow-down speed"` // slowdowns: multiplier of the tier's speed, > 0
}

// MaxEpisodes bounds a tier's fixed episodes.
const MaxEpisodes = 100000

// Clone copies tiers, each with its own episodes and laws.
func Clone(tiers []Tier) []Tier {
	if tiers == nil {
		return nil
	}
	c := append(make([]Tier, 0, len(tiers)), tiers...)
	for i := range c {
		t := &c[i]
		if t.Episodes != nil {
			t.Episodes = append(make([]Episode, 0, len(t.Episodes)), t.Episodes...)
		}
		if t.Slowdowns != nil {
			r := *t.Slowdowns
			t.Slowdowns = &r
		}
		if t.Failures != nil {
			r := *t.Failures
			t.Failures = &r
		}
	}
	return c
}

// CheckDynamics checks each tier's capacity over time: its fixed
// episodes, its random slow-downs and failures, and that the tiers are
// never all down at once.
func CheckDynamics(cc *schema.Checker, tiers []Tier) {
	c := tierChecker{cc}
	for i, t := range tiers {
		at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
		if !c.Count(at("episodes"), len(t.Episodes), MaxEpisodes, "episodes") {
			continue
		}
		for k, e := range t.Episodes {
			ep := func(f string) []string { return at("episodes", strconv.Itoa(k), f) }
			c.Num(ep("start"), e.Start, e.Start >= 0, "must be ≥ 0 (s)")
			c.Upper(ep("start"), e.Start, limit.MaxSpan, " s")
			if c.Num(ep("end"), e.End, e.End > e.Start || !finite(e.Start), "must be > start ("+fmtNum(e.Start)+" s)") {
				c.Upper(ep("end"), e.End, 2*limit.MaxSpan, " s")
			}
			switch {
			case e.Down && e.Speed != 0:
				c.Add(ep("speed"), "%s is not allowed with down: true: a down tier serves nothing", fmtNum(e.Speed))
			case !e.Down:
				c.Num(ep("speed"), e.Speed, e.Speed > 0, "must be > 0 (a multiplier of the tier's speed), or give down: true")
				c.Within(ep("speed"), e.Speed, limit.MinSpeed/limit.MaxSpeed, limit.MaxSpeed/limit.MinSpeed, "")
			}
			if k > 0 && e.Start < t.Episodes[k-1].End {
				c.Add(ep("start"), "%s is not allowed: episodes must be in time order and must not overlap (episode %d ends at %s s)", fmtNum(e.Start), k-1, fmtNum(t.Episodes[k-1].End))
			}
		}
		c.recurring(at(keySlowdowns), t.Slowdowns, true)
		c.recurring(at(keyFailures), t.Failures, false)
	}
	if a, b, ok := allDown(tiers); ok {
		c.Add(path("tiers"), "every tier is down at once in [%s, %s) s by its episodes: no task could be served then", fmtNum(a), fmtNum(b))
	}
}

// GapLaws are the laws a gap or a length may follow (and a class's size
// or a patience).
func GapLaws() []string { return []string{"exponential", "deterministic", "lognormal", "pareto"} }

func (c tierChecker) recurring(at []string, r *Recurring, slow bool) {
	if r == nil {
		return
	}
	for _, f := range []struct {
		name string
		d    load.Dist
	}{{"gap", r.Gap}, {"length", r.Length}} {
		d := f.d
		in := func(g string) []string { return sub(at, f.name, g) }
		if !slices.Contains(GapLaws(), d.Dist) {
			c.Add(in("dist"), "%q is not allowed: must be one of %s", d.Dist, strings.Join(GapLaws(), ", "))
			continue
		}
		if c.Num(in("mean"), d.Mean, d.Mean > 0, "must be > 0 (s): a law of mean 0 would make episodes without end or without gaps") {
			c.Within(in("mean"), d.Mean, 1e-6, limit.MaxSpan, " s")
		}
		switch d.Dist {
		case "pareto":
			c.Num(in("alpha"), d.Alpha, d.Alpha > 2, "pareto needs alpha > 2")
			c.Upper(in("alpha"), d.Alpha, limit.MaxAlpha, "")
		case "lognormal":
			c.Num(in("cv"), d.CV, d.CV > 0, "must be > 0 (coefficient of variation)")
			c.Upper(in("cv"), d.CV, limit.MaxCV, "")
		}
		if d.Dist != "pareto" && d.Alpha != 0 {
			c.Add(in("alpha"), "%s is not allowed: %s takes no alpha", fmtNum(d.Alpha), d.Dist)
		}
		if d.Dist != "lognormal" && d.CV != 0 {
			c.Add(in("cv"), "%s is not allowed: %s takes no cv", fmtNum(d.CV), d.Dist)
		}
		if d.Low != 0 || d.High != 0 || d.File != "" || d.Column != "" {
			c.Add(in("dist"), "%s takes only mean, alpha (pareto) and cv (lognormal)", d.Dist)
		}
	}
	switch {
	case slow:
		c.Num(sub(at, "speed"), r.Speed, r.Speed > 0, "must be > 0 (a multiplier of the tier's speed)")
		c.Within(sub(at, "speed"), r.Speed, limit.MinSpeed/limit.MaxSpeed, limit.MaxSpeed/limit.MinSpeed, "")
	case r.Speed != 0:
		c.Add(sub(at, "speed"), "%s is not allowed: a failure serves nothing", fmtNum(r.Speed))
	}
}

// allDown is the first span in which every tier is down by its fixed
// episodes, if there is one.
func allDown(tiers []Tier) (float64, float64, bool) {
	eps := make([][]Episode, len(tiers))
	for i, t := range tiers {
		eps[i] = t.Episodes
	}
	return capacity.CommonDown(eps, func(e Episode) (float64, float64, bool) { return e.Start, e.End, e.Down })
}

// The keys of a tier's random episodes, as errors name them.
const (
	keySlowdowns = "slowdowns"
	keyFailures  = "failures"
)
