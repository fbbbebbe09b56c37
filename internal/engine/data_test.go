package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
	"gonum.org/v1/gonum/stat"
)

// records runs cfg under always(0) and keeps every task's record.
func records(t *testing.T, cfg *Config, rep int) []TaskRecord {
	t.Helper()
	var out []TaskRecord
	c := *cfg
	c.OnTask = func(r *TaskRecord) { out = append(out, *r) }
	if _, err := Run(&c, always(0), workload.NewStreams(7, rep)); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeterministicDataAddsDataOverBandwidth is an M/D/1-style check of
// transfer time: a deterministic data size D over bandwidth B adds
// exactly D/B to every task's delay and latency, and nothing else moves
// (the propagation draws, the sizes and the arrivals are the same stream
// with and without data). The queue is M/D/1 with a lognormal propagation
// delay; a constant shift of every delay keeps the order in which tasks
// reach the tier, so the waits are those of the run without data, and the
// mean wait is Pollaczek–Khinchine's.
func TestDeterministicDataAddsDataOverBandwidth(t *testing.T) {
	const (
		bits = 8e6 // 1 MB
		bw   = 1e8 // 100 Mbit/s: 0.08 s
	)
	prop, err := workload.LognormalDelay(0.01, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	size := workload.Const(1)
	tasks, reps, maxRel := runLength()
	base := singleTier(0.8, 1, size, tasks, tasks/10) // μ = 1: ρ = 0.8
	base.Tiers[0] = tier("edge", dispatch.Edge, 1, 1, size, prop)
	withData := *base
	withData.Tiers = []TierConfig{base.Tiers[0]}
	withData.Tiers[0].Bandwidth = bw
	withData.Data = workload.DataLaw{Dist: workload.Const(bits)}

	waits := make([]float64, reps)
	for r := range reps {
		a, b := records(t, base, r), records(t, &withData, r)
		if len(a) != len(b) {
			t.Fatalf("replicate %d: %d tasks without data, %d with", r, len(a), len(b))
		}
		var sum float64
		for k := range a {
			if b[k].Data != bits {
				t.Fatalf("task %d carries %v bits, want %v", k, b[k].Data, bits)
			}
			if got, want := b[k].Delay, a[k].Delay+bits/bw; got != want {
				t.Fatalf("task %d: delay %v with data, want %v + %v = %v exactly", k, got, a[k].Delay, bits/bw, want)
			}
			if d := b[k].Latency - a[k].Latency - bits/bw; math.Abs(d) > 1e-9*b[k].Latency {
				t.Fatalf("task %d: latency %v with data, %v without: the difference is not D/B = %v", k, b[k].Latency, a[k].Latency, bits/bw)
			}
			if a[k].ID != b[k].ID || a[k].Size != b[k].Size || a[k].Arrival != b[k].Arrival {
				t.Fatalf("task %d: data moved another stream: %+v vs %+v", k, a[k], b[k])
			}
			if b[k].Measured {
				sum += b[k].Wait
			}
		}
		waits[r] = sum / float64(tasks)
	}
	m, sd := stat.MeanStdDev(waits, nil)
	checkAgainst(t, "M/D/1 ρ=0.8 with data", m, sd/math.Sqrt(float64(reps)), reps, 0.8/(2*0.2), maxRel)
}

// TestProportionalDataAndReply: data proportional to the work is factor ×
// size exactly, draws nothing (the delays' stream is untouched), and a
// reply is carried but adds no time.
func TestProportionalDataAndReply(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	cfg := singleTier(0.5, 1, exp, 2000, 0)
	cfg.Tiers[0].Bandwidth = 1e3
	cfg.Data = workload.DataLaw{Factor: 250}
	cfg.Reply = workload.DataLaw{Dist: workload.Const(64)}
	res, err := Run(cfg, always(0), workload.NewStreams(7, 0)) // the streams of records
	if err != nil {
		t.Fatal(err)
	}
	var bits float64
	for _, r := range records(t, cfg, 0) {
		if r.Data != 250*r.Size || r.Reply != 64 {
			t.Fatalf("task %d: data %v, reply %v; want 250 × %v and 64", r.ID, r.Data, r.Reply, r.Size)
		}
		if r.Delay != r.Data/1e3 {
			t.Fatalf("task %d: delay %v, want data/B = %v", r.ID, r.Delay, r.Data/1e3)
		}
		if r.Measured {
			bits += r.Data
		}
	}
	if got := res.Tier[0].Data; math.Abs(got-bits) > 1e-9*bits || res.Tier[0].Reply != 64*float64(res.Tasks) {
		t.Errorf("tier sums: data %v, reply %v; want %v and %v", got, res.Tier[0].Reply, bits, 64*float64(res.Tasks))
	}
}

// TestViewCarriesData: the policy sees the data of the task being decided
// (and 0 without data).
func TestViewCarriesData(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	for _, tc := range []struct {
		name string
		law  workload.DataLaw
	}{{"none", workload.DataLaw{}}, {"proportional", workload.DataLaw{Factor: 8}}} {
		cfg := singleTier(0.5, 1, exp, 200, 0)
		cfg.Data = tc.law
		var seen []float64
		pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
			seen = append(seen, v.Data)
			return dispatch.Decision{}
		})
		var recs []float64
		cfg.OnTask = func(r *TaskRecord) { recs = append(recs, r.Data) }
		if _, err := Run(cfg, pol, workload.NewStreams(1, 0)); err != nil {
			t.Fatal(err)
		}
		for k := range recs { // no delay: tasks reach in decision order
			if seen[k] != recs[k] || (tc.law.None() && seen[k] != 0) {
				t.Fatalf("%s: task %d: the view showed %v bits, the task carried %v", tc.name, k, seen[k], recs[k])
			}
		}
	}
}

// BenchmarkEngineData is BenchmarkEngine with a lognormal data size per
// task, a reply, and a bandwidth on every non-local link: the data draw and
// the transfer times stay allocation-free per task.
func BenchmarkEngineData(b *testing.B) {
	cfg := threeTier(b, 20, max(b.N, 1))
	cfg.Warmup = 0
	data, err := workload.New("lognormal", 8e5, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Data, cfg.Reply = workload.DataLaw{Dist: data}, workload.DataLaw{Factor: 8000}
	for i := range cfg.Tiers {
		if cfg.Tiers[i].Kind != dispatch.Local {
			cfg.Tiers[i].Bandwidth = 1e8
		}
	}
	pol := uniform(rand.New(rand.NewPCG(1, 4)))
	b.ReportAllocs()
	b.ResetTimer()
	res, err := Run(cfg, pol, workload.NewStreams(1, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if res.Tasks != cfg.Tasks {
		b.Fatalf("measured %d of %d", res.Tasks, cfg.Tasks)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
}
