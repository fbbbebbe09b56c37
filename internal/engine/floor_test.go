package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/workload"
)

// floor is the irreducible work of n tasks of cfg, as a bare loop: draw
// the task from the workload source (Poisson arrival, Pareto size, every
// tier's lognormal delay), choose a tier uniformly with r, serve it on that
// tier's Kiefer–Wolfowitz vector at its reach time, and add its latency. No
// event queue, no view, no record: what any simulator of this model must
// do per task. It serves tasks in arrival order rather than reach order,
// which only a queue of events could restore: the floor is a bound, not a
// second simulator. It returns the sum of latencies, so that the compiler
// keeps the work.
func floor(cfg *Config, st workload.Streams, r *rand.Rand, n int) float64 {
	src := workload.NewSource(cfg.Workload(), st, nil)
	free := make([]fcfs.Servers, len(cfg.Tiers))
	for i := range free {
		free[i] = fcfs.New(cfg.Tiers[i].Servers)
	}
	var task workload.Task
	sum := 0.0
	for range n {
		src.Next(&task)
		i := r.IntN(len(cfg.Tiers))
		_, finish := free[i].Serve(task.Arrival+task.Delays[i], task.Size/cfg.Tiers[i].Speed)
		sum += finish - task.Arrival
	}
	return sum
}

// BenchmarkFloor is the floor loop on BenchmarkEngine's scenario, streams
// and policy stream: ns/op is the irreducible cost of a task on this
// machine.
func BenchmarkFloor(b *testing.B) {
	cfg := threeTier(b, 20, max(b.N, 1))
	b.ReportAllocs()
	b.ResetTimer()
	if floor(cfg, workload.NewStreams(1, 0), rand.New(rand.NewPCG(1, 4)), b.N) <= 0 {
		b.Fatal("no latency")
	}
}

// floorRatio times the floor loop over the same n tasks as a benchmark
// just run (elapsed) on the same scenario and streams, and reports their
// ratio as x-floor: how many times the irreducible work the benchmarked
// path costs, on whatever machine runs it. The floor is timed right after,
// in the same process, so that both see the same machine load.
func floorRatio(b *testing.B, cfg *Config, elapsed time.Duration) {
	b.StopTimer()
	start := time.Now()
	if floor(cfg, workload.NewStreams(1, 0), rand.New(rand.NewPCG(1, 4)), b.N) <= 0 {
		b.Fatal("no latency")
	}
	if f := time.Since(start); f > 0 {
		b.ReportMetric(float64(elapsed)/float64(f), "x-floor")
	}
}
