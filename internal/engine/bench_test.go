package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEngine runs the DESIGN §5 three-tier scenario under a uniform
// random policy at 20 tasks/s (every tier stable). One op is one task: ns/op
// is the cost per task, allocs/op the amortised allocations per task.
func BenchmarkEngine(b *testing.B) {
	cfg := threeTier(b, 20, max(b.N, 1))
	cfg.Warmup = 0
	pol := uniform(rand.New(rand.NewPCG(1, 4)))
	b.ReportAllocs()
	b.ResetTimer()
	res, err := Run(cfg, pol, NewStreams(1, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if res.Tasks != cfg.Tasks {
		b.Fatalf("measured %d of %d", res.Tasks, cfg.Tasks)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
}
