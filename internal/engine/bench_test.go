package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// BenchmarkEngine runs the docs/design.md §5 three-tier scenario under a uniform
// random policy at 20 tasks/s (every tier stable). One op is one task: ns/op
// is the cost per task, allocs/op the amortised allocations per task, and
// x-floor its ratio to BenchmarkFloor's bare loop over the same tasks.
func BenchmarkEngine(b *testing.B) {
	cfg := threeTier(b, 20, 1)
	cfg.Warmup = 0
	b.ReportAllocs()
	timed(b, cfg, timedSlices, func(rep int) func() (*Result, error) {
		pol := uniform(rand.New(rand.NewPCG(1, policyStream(rep))))
		return func() (*Result, error) { return Run(cfg, pol, workload.NewStreams(1, rep)) }
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
}

// BenchmarkEngineOracle is BenchmarkEngine at 60 tasks/s under a clairvoyant
// argmin of View.Oracle.Completion: the oracle's cost per task, engine
// included, since the engine computes the completion times.
func BenchmarkEngineOracle(b *testing.B) {
	cfg := threeTier(b, 60, max(b.N, 1))
	cfg.Warmup = 0
	pol := clairvoyantFunc(func(v *dispatch.View) dispatch.Decision {
		best, bt := 0, v.Oracle.Completion(0)
		for i := 1; i < len(v.Tiers); i++ {
			if t := v.Oracle.Completion(i); t < bt {
				best, bt = i, t
			}
		}
		return dispatch.Decision{Tier: best}
	})
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := Run(cfg, pol, workload.NewStreams(1, 0)); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
}
