package engine

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// dynamicThreeTier is threeTier with the edge slowing down and failing at
// random, the cloud down for a fixed span, and a timeout with retries.
func dynamicThreeTier(t *testing.T, cancel bool) *Config {
	cfg := threeTier(t, 120, 20000)
	exp := func(m float64) workload.Dist { return mustDist(t, "exponential", m, 0, 0) }
	cfg.Tiers[1].Capacity = Capacity{Slowdowns: &Recurring{Gap: exp(20), Length: exp(5), Speed: 0.3},
		Failures: &Recurring{Gap: exp(40), Length: exp(3)}}
	cfg.Tiers[2].Capacity = Capacity{Episodes: []Episode{{Start: 30, End: 32, Down: true}, {Start: 50, End: 60, Speed: 0.5}}}
	cfg.Timeout, cfg.Retries, cfg.CancelOnTimeout = 0.5, 2, cancel
	cfg.EpisodeSeed = [2]uint64{7, 9}
	return cfg
}

// TestOutcomesAccount: every measured task ends in exactly one way, the
// completed ones are the latencies measured, and the shares sum to 1,
// with every tier under each discipline; with patience too
// under SRPT and priority, where a waiting task may abandon.
func TestOutcomesAccount(t *testing.T) {
	for _, d := range []Discipline{FCFS, PS, SRPT, Priority} {
		for _, cancel := range []bool{false, true} {
			name := d.String() + " cancel " + strconv.FormatBool(cancel)
			mk := func() *Config {
				cfg := dynamicThreeTier(t, cancel)
				for i := range cfg.Tiers {
					cfg.Tiers[i].Discipline = d
				}
				if d == SRPT || d == Priority {
					cfg.Patience = mustDist(t, "exponential", 0.4, 0, 0)
				}
				return cfg
			}
			cfg := mk()
			res, err := Run(cfg, uniform(workload.Stream(1, 0, 99)), workload.NewStreams(5, 0))
			if err != nil {
				t.Fatal(err)
			}
			o := res.Out
			if o.Arrived != cfg.Tasks || o.Completed != res.Tasks || o.Completed+o.Lost+o.TimedOut+o.Dropped+o.Abandoned != o.Arrived {
				t.Fatalf("%s: account %+v, tasks %d measured %d", name, o, cfg.Tasks, res.Tasks)
			}
			if o.Lost == 0 || o.TimedOut == 0 || o.Retried == 0 || !(o.Wasted > 0) || (cfg.Patience.Mean() > 0) != (o.Abandoned > 0) {
				t.Errorf("%s: account %+v: every way should occur", name, o)
			}
			sum := 0.0
			for _, n := range []int{o.Completed, o.Lost, o.TimedOut, o.Dropped, o.Abandoned} {
				sum += float64(n) / float64(o.Arrived)
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s: shares sum to %v", name, sum)
			}
			again, err := Run(mk(), uniform(workload.Stream(1, 0, 99)), workload.NewStreams(5, 0))
			if err != nil {
				t.Fatal(err)
			}
			if again.Out != o || again.Latencies.Mean() != res.Latencies.Mean() {
				t.Errorf("%s: not deterministic: %+v vs %+v", name, again.Out, o)
			}
			t.Logf("%s: %+v", name, o)
		}
	}
}

// TestAlwaysDownLosesItsTasks: a tier down for the whole run loses
// exactly the tasks sent to it, and the others complete, whatever the
// down tier's discipline.
func TestAlwaysDownLosesItsTasks(t *testing.T) {
	size := mustDist(t, "exponential", 1, 0, 0)
	for _, d := range []Discipline{FCFS, PS, SRPT, Priority} {
		cfg := &Config{
			Tiers: []TierConfig{tier("a", dispatch.Edge, 2, 4, size, mustDelay(t, 0.01, 0.5)),
				tier("b", dispatch.Cloud, 2, 4, size, mustDelay(t, 0.02, 0.5))},
			Arrivals: workload.Schedule{Rate: 3}, Size: size, Large: math.Inf(1), Tasks: 5000, Warmup: 100,
		}
		cfg.Tiers[1].Capacity.Episodes = []Episode{{Start: 0, End: 1e12, Down: true}}
		cfg.Tiers[1].Discipline = d
		sentB := 0
		pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
			i := v.Task % 3 % 2 // two of three to a
			if i == 1 && v.Task >= cfg.Warmup {
				sentB++
			}
			return dispatch.Decision{Tier: i}
		})
		res, err := Run(cfg, pol, workload.NewStreams(3, 0))
		if err != nil {
			t.Fatal(err)
		}
		if res.Out.Lost != sentB || res.Out.Completed != cfg.Tasks-sentB || res.Tier[1].Count != 0 {
			t.Errorf("%s: sent %d to the down tier: account %+v, its count %d", d, sentB, res.Out, res.Tier[1].Count)
		}
	}
}

// TestSlowdownStretchesExactly: a deterministic task's service is the
// time its work takes at the speed of each piece it spans, recomputed
// here from the episodes: under FCFS for every task, and under PS for a
// task alone at the tier (none other there from its reach to its finish).
func TestSlowdownStretchesExactly(t *testing.T) {
	size := mustDist(t, "deterministic", 1, 0, 0)
	cfg := singleTier(0.3, 1, size, 3000, 0)
	var eps []Episode
	for k := range 4000 {
		eps = append(eps, Episode{Start: 5*float64(k) + 1.5, End: 5*float64(k) + 3.25, Speed: 0.25})
	}
	cfg.Tiers[0].Capacity.Episodes = eps
	speedAt := func(x float64) (float64, float64) { // speed at x and where it next changes
		k := math.Floor(x / 5)
		a, b := 5*k+1.5, 5*k+3.25
		switch {
		case x < a:
			return 1, a
		case x < b:
			return 0.25, b
		}
		return 1, 5*k + 6.5
	}
	finish := func(x float64) float64 { // of a task of work 1 started at x
		work := 1.0
		for {
			sp, next := speedAt(x)
			if x+work/sp <= next {
				return x + work/sp
			}
			work -= (next - x) * sp
			x = next
		}
	}
	n, worst := 0, 0.0
	cfg.OnTask = func(r *TaskRecord) {
		start := r.Arrival + r.Delay + r.Wait
		worst = max(worst, math.Abs(r.Service-(finish(start)-start)))
		if r.Service > 1+1e-9 {
			n++
		}
	}
	if _, err := Run(cfg, always(0), workload.NewStreams(11, 0)); err != nil {
		t.Fatal(err)
	}
	if worst > 1e-9 || n < 100 {
		t.Errorf("fcfs: largest error %g s; %d tasks stretched", worst, n)
	}

	type span struct{ reach, finish float64 }
	var spans []span
	cfg.Tiers[0].Discipline = PS
	cfg.OnTask = func(r *TaskRecord) { spans = append(spans, span{r.Arrival + r.Delay, r.Arrival + r.Latency}) }
	if _, err := Run(cfg, always(0), workload.NewStreams(11, 0)); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.reach, b.reach) })
	n, worst, before := 0, 0.0, 0.0 // before: the latest finish of the tasks that reached earlier
	for i, sp := range spans {
		alone := before <= sp.reach && (i+1 == len(spans) || sp.finish <= spans[i+1].reach)
		before = max(before, sp.finish)
		if !alone {
			continue
		}
		worst = max(worst, math.Abs(sp.finish-finish(sp.reach)))
		if sp.finish-sp.reach > 1+1e-9 {
			n++
		}
	}
	if worst > 1e-9 || n < 100 {
		t.Errorf("ps: largest error %g s; %d tasks alone stretched", worst, n)
	}
}

// mmm1Sojourn is the mean sojourn time of an M/M/1 queue whose speed
// switches between 1 (mean time up) and f (mean time slow), from the
// stationary law of its CTMC on (n, phase), truncated at n = nMax, and
// Little's law.
func mmm1Sojourn(lambda, mu, f, up, slow float64, nMax int) float64 {
	idx := func(n, ph int) int { return 2*n + ph }
	m := 2 * (nMax + 1)
	q := mat.NewDense(m, m, nil)
	add := func(a, b int, r float64) {
		q.Set(a, b, q.At(a, b)+r)
		q.Set(a, a, q.At(a, a)-r)
	}
	for n := 0; n <= nMax; n++ {
		for ph, sp := range []float64{1, f} {
			if n < nMax {
				add(idx(n, ph), idx(n+1, ph), lambda)
			}
			if n > 0 {
				add(idx(n, ph), idx(n-1, ph), mu*sp)
			}
		}
		add(idx(n, 0), idx(n, 1), 1/up)
		add(idx(n, 1), idx(n, 0), 1/slow)
	}
	// πQ = 0, Σπ = 1: Qᵀπ = 0 with its last row replaced by ones.
	a := mat.DenseCopyOf(q.T())
	b := mat.NewVecDense(m, nil)
	for j := range m {
		a.Set(m-1, j, 1)
	}
	b.SetVec(m-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(a, b); err != nil {
		panic(err)
	}
	en := 0.0
	for n := 0; n <= nMax; n++ {
		en += float64(n) * (pi.AtVec(idx(n, 0)) + pi.AtVec(idx(n, 1)))
	}
	return en / lambda
}

// TestMarkovModulatedMM1: one server whose speed switches between 1 and f
// after exponential times, Poisson arrivals and exponential sizes: the
// mean latency is the CTMC's mean sojourn. The tasks present are the same
// birth–death chain under FCFS, PS and one class's priority (the server
// works at its speed whenever a task is present, and sizes are
// memoryless), so the same mean holds for all three.
func TestMarkovModulatedMM1(t *testing.T) {
	tasks, reps, maxRel := runLength()
	const lambda, f, up, slow = 0.5, 0.4, 20.0, 8.0
	want := mmm1Sojourn(lambda, 1, f, up, slow, 600)
	size := mustDist(t, "exponential", 1, 0, 0)
	for _, d := range []Discipline{FCFS, PS, Priority} {
		cfg := singleTier(lambda, 1, size, tasks, tasks/10)
		cfg.Tiers[0].Discipline = d
		cfg.Tiers[0].Capacity.Slowdowns = &Recurring{Gap: mustDist(t, "exponential", up, 0, 0), Length: mustDist(t, "exponential", slow, 0, 0), Speed: f}
		lat := make([]float64, reps)
		for r := range reps {
			cfg.EpisodeSeed = [2]uint64{2024, uint64(r)}
			res, err := Run(cfg, always(0), workload.NewStreams(2024, r))
			if err != nil {
				t.Fatal(err)
			}
			lat[r] = res.Latencies.Mean()
		}
		m, sd := stat.MeanStdDev(lat, nil)
		t.Logf("%s: CTMC mean sojourn %.4g s, simulated %.4g s", d, want, m)
		checkAgainst(t, "modulated M/M/1 "+d.String(), m, sd/math.Sqrt(float64(reps)), reps, want, maxRel)
	}
}
