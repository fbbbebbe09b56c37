package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/workload"
)

// floor is the irreducible work of n tasks of cfg, as a bare loop: draw
// the task from the workload source (Poisson arrival, Pareto size), choose
// a tier uniformly with r, draw its delay to that tier (lognormal, from the
// keyed stream), serve it on that
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
		_, finish := free[i].Serve(task.Arrival+src.Delay(&task, i), task.Size/cfg.Tiers[i].Speed)
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

// timedSlices is how many slices BenchmarkEngine and
// BenchmarkEnginePolicies cut their tasks into (see timed).
const timedSlices = 8

// timed runs a benchmark's measured work over b.N tasks of cfg, then the
// floor loop over the same tasks, and reports their ratio as x-floor: how
// many times the irreducible work the benchmarked path costs, on whatever
// machine runs it.
//
// With slices > 1, and from 10,000 tasks a slice on (fewer would let a
// run's setup into the figure), the tasks are cut into that many runs of
// cfg, each on the next replicate's streams and each followed by the floor
// over its tasks, and the two sums are compared: a shared machine's drift
// then falls on both alike, where with one run of each it fell mostly on
// the longer, the engine's (docs/performance.md gives the spread of the
// ratio either way). Every slice's result
// is kept to the end, so that no slice reuses the latency arrays another
// freed. A slice starts empty, so a benchmark whose cost depends on the
// queues' steady state keeps one run (slices = 1).
//
// prepare(rep) builds what the run of slice rep needs (its policy), before
// the clock starts; the run it returns is timed. timed sets cfg.Tasks.
//
// Both are timed on the thread's CPU clock where there is one (Linux), so
// that other processes on a shared machine skew the ratio less (they still
// share caches and cores), and reported per task as cpu-ns/task and
// floor-ns/task; else on the wall clock. ns/op is the work's wall time per
// task.
func timed(b *testing.B, cfg *Config, slices int, prepare func(rep int) func() (*Result, error)) {
	read, stop, cpu := threadClock()
	defer stop()
	n := 1
	if b.N >= 10000*slices {
		n = slices
	}
	kept := make([]*Result, n)
	var work, fl time.Duration
	b.ResetTimer()
	b.StopTimer()
	for rep := range n {
		cfg.Tasks = b.N / n
		if rep < b.N%n {
			cfg.Tasks++
		}
		run := prepare(rep)
		b.StartTimer() // it and StopTimer read the allocation counters: outside the CPU clock's span
		var c0 time.Duration
		if cpu {
			c0 = read()
		}
		res, err := run()
		if cpu {
			work += read() - c0
		}
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if res.Tasks != cfg.Tasks {
			b.Fatalf("measured %d of %d tasks", res.Tasks, cfg.Tasks)
		}
		kept[rep] = res
		start, c1 := time.Now(), time.Duration(0)
		if cpu {
			c1 = read()
		}
		if floor(cfg, workload.NewStreams(1, rep), rand.New(rand.NewPCG(1, policyStream(rep))), cfg.Tasks) <= 0 {
			b.Fatal("no latency")
		}
		if cpu {
			fl += read() - c1
		} else {
			fl += time.Since(start)
		}
	}
	if !cpu {
		work = b.Elapsed()
	}
	if fl > 0 {
		b.ReportMetric(float64(work)/float64(fl), "x-floor")
	}
	if cpu { // the same two costs per task on the CPU clock, which load on a shared machine affects less than ns/op
		b.ReportMetric(float64(work)/float64(b.N), "cpu-ns/task")
		b.ReportMetric(float64(fl)/float64(b.N), "floor-ns/task")
	}
}

// policyStream is the stream of slice rep's random choices, the floor's
// and BenchmarkEngine's policy's alike.
func policyStream(rep int) uint64 { return 4 + uint64(rep) }
