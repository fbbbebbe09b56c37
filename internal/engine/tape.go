package engine

import (
	"math"

	"github.com/offload-sim/offload/internal/workload"
)

// deviceSpec is the workload one of k devices draws: cfg's, at the rate
// λ/k (each device has its own arrival stream).
func deviceSpec(cfg *Config, k int) workload.Spec {
	spec := cfg.Workload()
	spec.Arrivals.Rate /= float64(k)
	return spec
}

// NewTapes starts one tape per device of a replicate of cfg (streams[d]
// returns device d's workload streams, unused, at every call), each
// keeping at most limit tasks, for Device.Tape: the runs of several
// policies on the replicate then draw its tasks once. Every run given the
// tapes must have cfg's workload and device count (RunDevices checks the
// workload); the tapes serve one run at a time.
func NewTapes(cfg *Config, streams []func() workload.Streams, limit int) []*workload.Tape {
	k := len(streams)
	spec := deviceSpec(cfg, k)
	hint := 0
	if cfg.Tasks > 0 {
		// A device's share of the arrivals, with room for its
		// fluctuation when there are several (binomial, 5 sd).
		n := float64(cfg.Warmup+cfg.Tasks) / float64(k)
		if k > 1 {
			n += 5*math.Sqrt(n) + 1
		}
		hint = int(n) + 1
	}
	tapes := make([]*workload.Tape, k)
	for d := range tapes {
		tapes[d] = workload.NewTape(spec, streams[d], cfg.Cancel, limit, hint)
	}
	return tapes
}

// TapeBytes is the memory a tape of cfg's workload takes per recorded
// task, bytes (the same for one device or several).
func TapeBytes(cfg *Config) float64 { return workload.TapeBytes(cfg.Workload(), 1) }
