package policies

import (
	"math"
	"reflect"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/workload"
)

// tinyRun runs a policy through the engine on three single-server tiers
// of speed 1 behind a constant 20 ms delay, replaying the trace's
// arrivals and sizes, and returns each task's tier and latency.
func tinyRun(t *testing.T, name string, arr, sizes []float64) (tiers []int, lat []float64) {
	t.Helper()
	tr := &workload.Trace{Arrivals: arr, Sizes: sizes}
	law, err := tr.SizeLaw()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &engine.Config{Arrivals: workload.Schedule{Rate: tr.Rate()}, Size: law, Trace: tr, Tasks: len(arr)}
	for _, n := range []string{"a", "b", "c"} {
		cfg.Tiers = append(cfg.Tiers, engine.TierConfig{
			Tier:  dispatch.Tier{Name: n, Kind: dispatch.Edge, Servers: 1, Speed: 1, Mu: 1 / law.Mean(), MeanDelay: 0.02, Cs2: law.Cs2()},
			Delay: workload.Const(0.02)})
	}
	dt := make([]dispatch.Tier, 3)
	for i := range dt {
		dt[i] = cfg.Tiers[i].Tier
	}
	pol, err := Make(Entry{Name: name}, Build{Tiers: dt, Params: DefaultParams(), Rand: newRNG(1)})
	if err != nil {
		t.Fatal(err)
	}
	tiers, lat = make([]int, len(arr)), make([]float64, len(arr))
	cfg.OnTask = func(r *engine.TaskRecord) { tiers[r.ID], lat[r.ID] = r.Tier, r.Latency }
	if _, err := engine.Run(cfg, pol, workload.NewStreams(1, 0)); err != nil {
		t.Fatal(err)
	}
	return tiers, lat
}

// least-conn and round-robin through the engine, against trajectories
// computed by hand: tiers a, b, c of one server of speed 1, 20 ms away;
// task 0 of size 3, the others 1, arriving at 0, .1, .2, .3, 1.05, 1.15,
// 1.25.
//
// least-conn (ties to the tier idle, or at its count, the longest): 0 → a,
// 1 → b, 2 → c, all idle; 3 at .3 ties the three at one outstanding, a
// has held it longest → a, behind task 0 until 3.02. At 1.05 a has two: b
// (one since .1) before c (since .2) → b, served 1.12–2.12 after task 1.
// Task 1's completion at 1.12 gives b its count of one anew, so at 1.15 c
// has held it longer → c (1.22–2.22); at 1.25 b (since 1.12) before c
// (since 1.22) → b, behind task 4 until 2.12, done at 3.12.
//
// round-robin: a b c a b c a; task 6 waits at a until 4.02.
func TestLeastConnAndRoundRobinTrajectories(t *testing.T) {
	arr := []float64{0, 0.1, 0.2, 0.3, 1.05, 1.15, 1.25}
	sizes := []float64{3, 1, 1, 1, 1, 1, 1}
	for _, c := range []struct {
		name  string
		tiers []int
		lat   []float64
	}{
		{NameLeastConn, []int{0, 1, 2, 0, 1, 2, 1}, []float64{3.02, 1.02, 1.02, 3.72, 1.07, 1.07, 1.87}},
		{NameRoundRobin, []int{0, 1, 2, 0, 1, 2, 0}, []float64{3.02, 1.02, 1.02, 3.72, 1.07, 1.07, 3.77}},
	} {
		tiers, lat := tinyRun(t, c.name, arr, sizes)
		if !reflect.DeepEqual(tiers, c.tiers) {
			t.Errorf("%s: tiers %v, want %v", c.name, tiers, c.tiers)
		}
		for i := range lat {
			if math.Abs(lat[i]-c.lat[i]) > 1e-12 {
				t.Errorf("%s: task %d latency %v, want %v", c.name, i, lat[i], c.lat[i])
			}
		}
	}
}

// balancerConfig is a three-tier continuum at 60 tasks/s.
func balancerConfig(tasks int) (*engine.Config, []dispatch.Tier) {
	size := paretoSizes()
	delay := func(m float64) workload.Dist {
		d, err := workload.LognormalDelay(m, 0.2)
		if err != nil {
			panic(err)
		}
		return d
	}
	cfg := &engine.Config{Arrivals: workload.Schedule{Rate: 60}, Size: size, Large: size.Quantile(0.9), Tasks: tasks, Warmup: tasks / 20}
	for _, x := range []struct {
		kind  dispatch.Kind
		c     int
		speed float64
		delay workload.Dist
	}{{dispatch.Local, 1, 10, workload.Dist{}}, {dispatch.Edge, 4, 25, delay(0.005)}, {dispatch.Cloud, 16, 50, delay(0.06)}} {
		cfg.Tiers = append(cfg.Tiers, engine.TierConfig{Tier: dispatch.Tier{Name: x.kind.String(), Kind: x.kind, Servers: x.c, Speed: x.speed,
			Mu: x.speed / size.Mean(), MeanDelay: x.delay.Mean(), Cs2: size.Cs2()}, Delay: x.delay})
	}
	tiers := make([]dispatch.Tier, len(cfg.Tiers))
	for i := range tiers {
		tiers[i] = cfg.Tiers[i].Tier
	}
	return cfg, tiers
}

// The same seed gives the same run, for every balancer: their draws come
// from the policy's own stream, their state from the run alone.
func TestBalancersDeterministic(t *testing.T) {
	cfg, tiers := balancerConfig(20000)
	for _, name := range balancerNames {
		var runs [2]*engine.Result
		for k := range runs {
			p := makeBalancer(t, name, tiers, nil, 42)
			r, err := engine.Run(cfg, p, workload.NewStreams(9, 0))
			if err != nil {
				t.Fatal(err)
			}
			runs[k] = r
		}
		if !reflect.DeepEqual(runs[0], runs[1]) {
			t.Errorf("%s: two runs of one seed differ", name)
		}
	}
}

// A decision and a completion allocate nothing once the balancer is warm,
// on 3 tiers and on 200.
func TestBalancersAllocationFree(t *testing.T) {
	for _, n := range []int{3, 200} {
		tiers := identicalTiers(n)
		for i := range tiers {
			tiers[i].MeanDelay = 0.001 * float64(i%7)
		}
		states := make([]dispatch.State, n)
		for i := range states {
			states[i] = dispatch.State{Busy: i % 3, Queued: i % 2}
		}
		for _, name := range balancerNames {
			p := makeBalancer(t, name, tiers, nil, 5)
			fb, _ := p.(dispatch.Feedback)
			v := view(0, tiers, states...)
			var ring [8]int
			var c dispatch.Completion // the caller's, reused, as the engine's is
			k := 0
			step := func() {
				v.Now += 0.003
				v.Task = k
				i := p.Decide(v).Tier
				if old := ring[k%8]; k >= 8 && fb != nil {
					c = dispatch.Completion{Task: k - 8, Tier: old, Now: v.Now, Latency: 0.02 + 0.001*float64(old%5), Wait: 0.001, Service: 0.01}
					fb.Done(&c)
				}
				ring[k%8] = i
				k++
			}
			for range 20000 {
				step()
			}
			if a := testing.AllocsPerRun(2000, step); a != 0 {
				t.Errorf("%s on %d tiers: %v allocations a decision", name, n, a)
			}
		}
	}
}
