package scenario

import (
	"math"

	"github.com/offload-sim/offload/internal/scenario/tier"
	"github.com/offload-sim/offload/internal/schema"
)

// The defaults Default fills in, named so that the docs, the CLI and the
// tests quote one source. Tasks, Duration, Tiers and Arrivals.Rate have none:
// a run's length and the system modelled are always the file's choice.
const (
	DefaultSeed          = 1  // master seed
	DefaultSeeds         = 10 // replicates
	DefaultDist          = "pareto"
	DefaultAlpha         = 2.5  // Pareto shape; C_s² = 0.8
	DefaultMean          = 1.0  // work units
	DefaultLargeQuantile = 0.9  // "large" = above the 0.9 quantile
	DefaultWindow        = 10.0 // s
	DefaultEpsilon       = 0.05
	DefaultRhoMax        = 0.99
	DefaultThreshold     = 0.9 // θ
	DefaultK             = 1.0
)

// Default returns the scenario every file is decoded over: each field a file
// leaves out keeps its value from here. It is not valid on its own, since it
// has no run length, no tiers and no arrival rate, and no policies: those
// are the catalog's, which Parse is given.
func Default() Scenario {
	return Scenario{
		Seed:  DefaultSeed,
		Seeds: DefaultSeeds,
		Workload: Workload{
			Size:          Dist{Dist: DefaultDist, Alpha: DefaultAlpha, Mean: DefaultMean},
			LargeQuantile: DefaultLargeQuantile,
		},
		Estimator: Estimator{
			Window:  DefaultWindow,
			Epsilon: DefaultEpsilon,
			RhoMax:  DefaultRhoMax,
			Penalty: Penalty{Threshold: DefaultThreshold, K: DefaultK},
		},
	}
}

// SetCatalog gives the scenario a policy catalog, as Parse does: for a
// Scenario built in code rather than parsed, so that Validate can check
// its policies.
func (s *Scenario) SetCatalog(pols Policies) { s.pols = pols }

// MeasuredByTasks reports whether a run is bounded by a count of measured
// tasks (true) or by a span of arrivals (false, duration mode).
func (s *Scenario) MeasuredByTasks() bool { return s.Tasks > 0 }

// Clone returns a deep copy: nothing is shared with s but the policy
// catalog, which is read-only.
func (s *Scenario) Clone() *Scenario {
	c := *s
	c.Arrivals.Bursts = cloneSlice(s.Arrivals.Bursts)
	c.Arrivals.Rates = cloneSlice(s.Arrivals.Rates)
	c.Arrivals.Sojourn = cloneSlice(s.Arrivals.Sojourn)
	c.Tiers = tier.Clone(s.Tiers)
	cloneClasses(&c)
	c.Policies = schema.CloneEntries(s.Policies)
	if s.Observation != nil {
		o := *s.Observation
		if o.Delay != nil {
			d := *o.Delay
			o.Delay = &d
		}
		if o.CountOwn != nil {
			b := *o.CountOwn
			o.CountOwn = &b
		}
		c.Observation = &o
	}
	if s.Trace != nil {
		t := *s.Trace // the rows stay shared: read-only
		c.Trace = &t
	}
	c.SLO.Latency = cloneSlice(s.SLO.Latency)
	if s.Sweep != nil {
		sw := *s.Sweep
		sw.Values = cloneSlice(s.Sweep.Values)
		c.Sweep = &sw
	}
	return &c
}

// cloneSlice copies a slice of values, keeping nil as nil and empty as empty
// so that a clone is reflect.DeepEqual to its original.
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
