package engine

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// always returns a policy that sends every task to tier i.
func always(i int) dispatch.Policy {
	return dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: i} })
}

// uniform returns a policy that picks a tier uniformly with its own stream.
func uniform(r *rand.Rand) dispatch.Policy { return uniformPolicy{r} }

// uniformPolicy is uniform's policy: a type with its own Decide, as every
// registry policy is, rather than a dispatch.PolicyFunc, whose closure adds
// a second indirect call per decision to what BenchmarkEngine measures.
type uniformPolicy struct{ r *rand.Rand }

// Blind implements dispatch.Blind, as the registry's random policy does,
// which uniform stands for: the engine does not count the view.
func (uniformPolicy) Blind() {}

// Decide implements dispatch.Policy.
func (p uniformPolicy) Decide(v *dispatch.View) dispatch.Decision {
	return dispatch.Decision{Tier: p.r.IntN(len(v.Tiers))}
}

func tier(name string, kind dispatch.Kind, c int, speed float64, size workload.Dist, delay workload.Dist) TierConfig {
	return TierConfig{
		Tier:  dispatch.Tier{Name: name, Kind: kind, Servers: c, Speed: speed, Mu: speed / size.Mean(), MeanDelay: delay.Mean(), Cs2: size.Cs2()},
		Delay: delay,
	}
}

func mustDist(t testing.TB, kind string, mean, alpha, cv float64) workload.Dist {
	t.Helper()
	d, err := workload.New(kind, mean, alpha, cv)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustDelay(t testing.TB, mean, cv float64) workload.Dist {
	t.Helper()
	d, err := workload.LognormalDelay(mean, cv)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// threeTier is the docs/design.md §5 example scenario at the given rate.
func threeTier(t testing.TB, rate float64, tasks int) *Config {
	size := mustDist(t, "pareto", 1, 2.5, 0)
	return &Config{
		Tiers: []TierConfig{
			tier("local", dispatch.Local, 1, 10, size, workload.Dist{}),
			tier("edge", dispatch.Edge, 4, 25, size, mustDelay(t, 0.005, 0.2)),
			tier("cloud", dispatch.Cloud, 16, 50, size, mustDelay(t, 0.060, 0.2)),
		},
		Arrivals: workload.Schedule{Rate: rate},
		Size:     size,
		Large:    size.Quantile(0.9),
		Tasks:    tasks,
		Warmup:   tasks / 20,
	}
}

func TestRunRejectsBadTier(t *testing.T) {
	cfg := threeTier(t, 20, 10)
	_, err := Run(cfg, always(7), workload.NewStreams(1, 0))
	if err == nil {
		t.Fatal("a policy choosing tier 7 of 3 was accepted")
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	cfg := threeTier(t, 20, 10)
	cfg.Duration = 5
	if _, err := Run(cfg, always(0), workload.NewStreams(1, 0)); err == nil {
		t.Fatal("tasks and duration both set: accepted")
	}
}

// TestConservationTasks: in tasks mode exactly Tasks tasks are measured, each
// once, and they are the ones that arrive after the warmup.
func TestConservationTasks(t *testing.T) {
	cfg := threeTier(t, 60, 20000)
	cfg.Warmup = 1234
	seen := make(map[int]int)
	var unmeasured int
	cfg.OnTask = func(r *TaskRecord) {
		if r.Measured {
			seen[r.ID]++
			if r.ID < cfg.Warmup {
				t.Errorf("warmup task %d measured", r.ID)
			}
		} else {
			unmeasured++
		}
	}
	res, err := Run(cfg, uniform(rand.New(rand.NewPCG(9, 9))), workload.NewStreams(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if res.Tasks != cfg.Tasks || res.Latencies.Len() != cfg.Tasks || len(seen) != cfg.Tasks {
		t.Fatalf("measured %d (latencies %d, distinct ids %d), want %d", res.Tasks, res.Latencies.Len(), len(seen), cfg.Tasks)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("task %d measured %d times", id, n)
		}
	}
	if unmeasured < cfg.Warmup {
		t.Errorf("%d unmeasured records, want at least the %d warmup tasks", unmeasured, cfg.Warmup)
	}
	var count int
	for _, tr := range res.Tier {
		count += tr.Count
	}
	if count != cfg.Tasks {
		t.Errorf("tier counts sum to %d, want %d", count, cfg.Tasks)
	}
}

// TestConservationDuration: in duration mode a task is measured exactly when
// it arrives in [WarmupTime, WarmupTime+Duration).
func TestConservationDuration(t *testing.T) {
	cfg := threeTier(t, 60, 0)
	cfg.Tasks, cfg.Warmup = 0, 0
	cfg.WarmupTime, cfg.Duration = 50, 300
	ids := make(map[int]bool)
	inWindow := 0
	cfg.OnTask = func(r *TaskRecord) {
		in := r.Arrival >= cfg.WarmupTime && r.Arrival < cfg.WarmupTime+cfg.Duration
		if in != r.Measured {
			t.Errorf("task %d at %v: measured %v, in window %v", r.ID, r.Arrival, r.Measured, in)
		}
		if ids[r.ID] {
			t.Errorf("task %d reported twice", r.ID)
		}
		ids[r.ID] = true
		if in {
			inWindow++
		}
	}
	res, err := Run(cfg, uniform(rand.New(rand.NewPCG(1, 1))), workload.NewStreams(5, 0))
	if err != nil {
		t.Fatal(err)
	}
	if res.Tasks != inWindow {
		t.Errorf("measured %d, want %d arrivals in the window", res.Tasks, inWindow)
	}
	if res.Span != cfg.Duration {
		t.Errorf("span %v, want %v", res.Span, cfg.Duration)
	}
}

// TestViewInvariants: what a policy sees is consistent with FCFS multi-server
// queues: a task waits only when every server is busy.
func TestViewInvariants(t *testing.T) {
	cfg := threeTier(t, 80, 20000)
	r := rand.New(rand.NewPCG(2, 2))
	last := -1.0
	pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
		if v.Now < last {
			t.Fatalf("time went backwards: %v after %v", v.Now, last)
		}
		last = v.Now
		for i, s := range v.States {
			c := v.Tiers[i].Servers
			if s.Queued < 0 || s.Busy < 0 || s.Busy > c || s.InTransit < 0 || (s.Queued > 0 && s.Busy < c) {
				t.Fatalf("tier %d at %v: %+v with %d servers", i, v.Now, s, c)
			}
		}
		if v.Oracle != nil {
			t.Fatal("a plain policy was given the oracle")
		}
		return dispatch.Decision{Tier: r.IntN(len(v.Tiers))}
	})
	if _, err := Run(cfg, pol, workload.NewStreams(7, 1)); err != nil {
		t.Fatal(err)
	}
}

// TestDeterminism: the same seed gives the same run; another replicate does not.
func TestDeterminism(t *testing.T) {
	run := func(rep int) (*Result, []float64) {
		cfg := threeTier(t, 60, 5000)
		var lat []float64 // in the order tasks reach their tier
		cfg.OnTask = func(r *TaskRecord) {
			if r.Measured {
				lat = append(lat, r.Latency)
			}
		}
		res, err := Run(cfg, uniform(rand.New(rand.NewPCG(1, workload.StreamID(rep, 4)))), workload.NewStreams(42, rep))
		if err != nil {
			t.Fatal(err)
		}
		return res, lat
	}
	a, la := run(0)
	_, lb := run(0)
	c, _ := run(1)
	if len(la) != len(lb) || len(la) != a.Latencies.Len() {
		t.Fatalf("lengths differ: %d, %d, %d", len(la), len(lb), a.Latencies.Len())
	}
	for i := range la {
		if la[i] != lb[i] {
			t.Fatalf("latency %d: %v vs %v", i, la[i], lb[i])
		}
	}
	if a.SumWait == c.SumWait {
		t.Error("replicates 0 and 1 gave the same run")
	}
}

// TestCommonRandomNumbers: two policies see the same arrival times and sizes.
func TestCommonRandomNumbers(t *testing.T) {
	trace := func(p dispatch.Policy) []TaskRecord {
		cfg := threeTier(t, 40, 2000)
		var out []TaskRecord
		cfg.OnTask = func(r *TaskRecord) { out = append(out, *r) }
		if _, err := Run(cfg, p, workload.NewStreams(11, 3)); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := trace(always(1)), trace(uniform(rand.New(rand.NewPCG(5, 5))))
	byID := func(rs []TaskRecord) map[int]TaskRecord {
		m := make(map[int]TaskRecord)
		for _, r := range rs {
			m[r.ID] = r
		}
		return m
	}
	ma, mb := byID(a), byID(b)
	for id, ra := range ma {
		rb, ok := mb[id]
		if !ok || ra.Arrival != rb.Arrival || ra.Size != rb.Size {
			t.Fatalf("task %d differs: %+v vs %+v", id, ra, rb)
		}
	}
}

// TestCancel: a closed Cancel channel stops a run with ErrCanceled.
func TestCancel(t *testing.T) {
	cfg := threeTier(t, 60, 1000000)
	done := make(chan struct{})
	close(done)
	cfg.Cancel = done
	if _, err := Run(cfg, always(1), workload.NewStreams(1, 0)); !errors.Is(err, ErrCanceled) {
		t.Fatalf("err = %v, want ErrCanceled", err)
	}
}
