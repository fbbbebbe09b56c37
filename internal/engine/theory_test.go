package engine

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// erlangC is the textbook Erlang C, computed from the M/M/c stationary
// distribution term by term (independent of the estimators package):
// P_wait = (a^c/c!)/(1−ρ) / (Σ_{k<c} a^k/k! + (a^c/c!)/(1−ρ)).
func erlangC(c int, a float64) float64 {
	term, sum := 1.0, 0.0
	for k := 0; k < c; k++ {
		sum += term
		term *= a / float64(k+1)
	}
	tail := term / (1 - a/float64(c))
	return tail / (sum + tail)
}

// singleTier is one tier fed at rate lambda, no delay.
func singleTier(lambda float64, c int, size workload.Dist, tasks, warmup int) *Config {
	return &Config{
		Tiers:    []TierConfig{tier("t", dispatch.Edge, c, 1, size, workload.Dist{})},
		Arrivals: workload.Schedule{Rate: lambda},
		Size:     size,
		Large:    math.Inf(1),
		Tasks:    tasks,
		Warmup:   warmup,
	}
}

// replicatedWait runs reps independent replicates and returns the mean of
// their mean waits and its standard error.
func replicatedWait(t *testing.T, cfg *Config, reps int) (mean, se float64) {
	t.Helper()
	w := make([]float64, reps)
	for r := range reps {
		res, err := Run(cfg, always(0), workload.NewStreams(2024, r))
		if err != nil {
			t.Fatal(err)
		}
		w[r] = res.SumWait / float64(res.Tasks)
	}
	m, sd := stat.MeanStdDev(w, nil)
	return m, sd / math.Sqrt(float64(reps))
}

// checkAgainst asserts that theory lies in the replicates' 99.9% t-interval,
// and that the interval is narrow enough (relative half-width ≤ maxRel) for
// the check to have power. The run length sets the tolerance, not the reverse.
func checkAgainst(t *testing.T, name string, got, se float64, reps int, want, maxRel float64) {
	t.Helper()
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(reps - 1)}.Quantile(0.9995)
	half := tq * se
	if math.Abs(got-want) > half {
		t.Errorf("%s: mean wait %.5g ± %.3g (99.9%% CI), theory %.5g", name, got, half, want)
	}
	if half > maxRel*want {
		t.Errorf("%s: CI half-width %.3g is over %.0f%% of %.5g: run too short to test", name, half, 100*maxRel, want)
	}
}

// runLength scales the theory tests: the full length (ten times the tasks)
// runs with OFFLOAD_LONG=1 and not under -short; otherwise the runs are
// shorter and the confidence intervals wider accordingly.
// maxRel is the widest relative 99.9% half-width a check may have to count.
func runLength() (tasks, reps int, maxRel float64) {
	if testing.Short() || os.Getenv("OFFLOAD_LONG") == "" {
		return 40000, 10, 0.25
	}
	return 200000, 20, 0.10
}

// TestMMcAgainstErlangC: mean wait of M/M/c equals C(c, a)/(cμ − λ).
func TestMMcAgainstErlangC(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	tasks, reps, maxRel := runLength()
	for _, tc := range []struct {
		c   int
		rho float64
	}{{1, 0.5}, {1, 0.8}, {1, 0.9}, {2, 0.7}, {4, 0.9}, {8, 0.6}, {16, 0.9}} {
		lambda := tc.rho * float64(tc.c) // μ = 1
		want := erlangC(tc.c, lambda) / (float64(tc.c) - lambda)
		n := tasks
		if tc.rho >= 0.9 { // relaxation time grows like 1/(1−ρ)²
			n *= 3
		}
		cfg := singleTier(lambda, tc.c, exp, n, n/10)
		got, se := replicatedWait(t, cfg, reps)
		checkAgainst(t, "M/M/"+itoa(tc.c)+" ρ="+ftoa(tc.rho), got, se, reps, want, maxRel)
	}
}

// TestMG1AgainstPollaczekKhinchine: M/D/1 and M/G/1 with Pareto α = 4.5 (so
// the wait has finite variance) against Wq = ρ·E[S]·(1 + C_s²)/(2(1 − ρ)).
func TestMG1AgainstPollaczekKhinchine(t *testing.T) {
	tasks, reps, maxRel := runLength()
	det := workload.Const(1)
	par, err := workload.New("pareto", 1, 4.5, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size workload.Dist
		rho  float64
	}{{"M/D/1", det, 0.5}, {"M/D/1", det, 0.8}, {"M/Pareto(4.5)/1", par, 0.5}, {"M/Pareto(4.5)/1", par, 0.8}} {
		want := tc.rho * (1 + tc.size.Cs2()) / (2 * (1 - tc.rho))
		cfg := singleTier(tc.rho, 1, tc.size, tasks, tasks/10)
		got, se := replicatedWait(t, cfg, reps)
		checkAgainst(t, tc.name+" ρ="+ftoa(tc.rho), got, se, reps, want, maxRel)
	}
}

// TestLittlePerTier: on a three-tier run, the time-average number at each
// tier equals its arrival rate times its mean sojourn, up to the two boundary
// terms of the measured window, each at most (tasks present) × (longest
// sojourn) / span.
func TestLittlePerTier(t *testing.T) {
	cfg := threeTier(t, 60, 100000)
	wmax := make([]float64, 3)
	nmax := 0
	cfg.OnTask = func(r *TaskRecord) { wmax[r.Tier] = max(wmax[r.Tier], r.Wait+r.Service) }
	r := rand.New(rand.NewPCG(3, 3))
	pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
		for _, s := range v.States {
			nmax = max(nmax, s.Present())
		}
		return dispatch.Decision{Tier: r.IntN(3)}
	})
	res, err := Run(cfg, pol, workload.NewStreams(77, 0))
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range res.Tier {
		L := tr.AreaN / res.Span
		lw := tr.SumSojourn / res.Span
		tol := 2 * float64(nmax+1) * wmax[i] / res.Span
		if math.Abs(L-lw) > tol {
			t.Errorf("tier %d: L = %.6g, λW = %.6g, tolerance %.3g", i, L, lw, tol)
		}
		if tr.Reached == 0 || L <= 0 {
			t.Errorf("tier %d saw nothing: %+v", i, tr)
		}
	}
}

// TestBurstArrivalCounts: arrivals inside and outside the bursts match the
// schedule's integrated rate within 4 Poisson standard deviations.
func TestBurstArrivalCounts(t *testing.T) {
	cfg := threeTier(t, 20, 0)
	cfg.Tasks, cfg.Warmup = 0, 0
	cfg.Duration = 2000
	cfg.Arrivals.Bursts = []workload.Burst{{Start: 100, Every: 100, Length: 20, Factor: 4}}
	var in, out int
	cfg.OnTask = func(r *TaskRecord) {
		if r.Arrival >= 100 && math.Mod(r.Arrival-100, 100) < 20 {
			in++
		} else {
			out++
		}
	}
	if _, err := Run(cfg, always(2), workload.NewStreams(8, 0)); err != nil {
		t.Fatal(err)
	}
	burstTime := 19 * 20.0 // bursts start at 100, 200, …, 1900
	wantIn := 20 * 4 * burstTime
	wantOut := 20 * (cfg.Duration - burstTime)
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"in bursts", float64(in), wantIn}, {"outside", float64(out), wantOut}} {
		if math.Abs(c.got-c.want) > 4*math.Sqrt(c.want) {
			t.Errorf("%s: %v arrivals, want %v ± %v", c.name, c.got, c.want, 4*math.Sqrt(c.want))
		}
	}
}

// TestOracleCompletionExact: with constant delays no task overtakes another,
// so the oracle's completion time for the chosen tier is the realised one.
func TestOracleCompletionExact(t *testing.T) {
	cfg := threeTier(t, 80, 5000)
	cfg.Tiers[1].Delay = workload.Const(0.005)
	cfg.Tiers[2].Delay = workload.Const(0.06)
	pred := make(map[int]float64)
	id := 0
	r := rand.New(rand.NewPCG(4, 4))
	pol := clairvoyantFunc(func(v *dispatch.View) dispatch.Decision {
		i := r.IntN(3)
		pred[id] = v.Oracle.Completion(i)
		id++
		return dispatch.Decision{Tier: i}
	})
	cfg.OnTask = func(rec *TaskRecord) {
		if got, want := pred[rec.ID], rec.Arrival+rec.Latency; math.Abs(got-want) > 1e-9*want {
			t.Errorf("task %d: oracle said %v, realised %v", rec.ID, got, want)
		}
	}
	if _, err := Run(cfg, pol, workload.NewStreams(1, 0)); err != nil {
		t.Fatal(err)
	}
}

// TestOracleCompletionOvertaken: the oracle replays the tasks ahead in the
// order they reach the tier, not the order they left, and counts a task
// that reaches at the same instant as ahead when it left first: its
// completion time is then the realised one for every task that no later
// task reached before (a later task reaching first is the only thing it
// cannot know). With delays of cv 1.5 tasks overtake one another in
// transit all the time; with constant delays and a trace of arrivals on a
// grid, a third at the previous one's instant, reaches tie. The policy
// picks among the two delayed tiers only.
func TestOracleCompletionOvertaken(t *testing.T) {
	for _, ties := range []bool{false, true} {
		cfg := threeTier(t, 80, 20000)
		cfg.Tiers[1].Delay = mustDelay(t, 0.05, 1.5)
		cfg.Tiers[2].Delay = mustDelay(t, 0.05, 1.5)
		if ties {
			cfg.Tiers[1].Delay, cfg.Tiers[2].Delay = workload.Const(1.0/16), workload.Const(3.0/16)
			cfg.Trace = tiedTrace(21000, 128) // the edge near ρ = 0.85: queues, so that a tied task ahead counts
			cfg.Arrivals = workload.Schedule{Rate: cfg.Trace.Rate()}
			cfg.Size, _ = cfg.Trace.SizeLaw()
		}
		type rec struct {
			tier           int
			reach, pred, f float64
		}
		var recs []rec
		r := rand.New(rand.NewPCG(4, 5))
		pol := clairvoyantFunc(func(v *dispatch.View) dispatch.Decision {
			i := 1 + r.IntN(2)
			recs = append(recs, rec{tier: i, pred: v.Oracle.Completion(i)})
			return dispatch.Decision{Tier: i}
		})
		cfg.OnTask = func(x *TaskRecord) {
			recs[x.ID].reach, recs[x.ID].f = x.Arrival+x.Delay, x.Arrival+x.Latency
		}
		if _, err := Run(cfg, pol, workload.NewStreams(1, 0)); err != nil {
			t.Fatal(err)
		}
		// earliest[i]: the earliest reach at tier i of the tasks after the
		// one looked at. reordered counts the tasks that reach before one
		// that left earlier, tied those that reach with one that did.
		earliest := []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
		latest := []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		checked, reordered, tied := 0, 0, 0
		for k := len(recs) - 1; k >= 0; k-- {
			x := recs[k]
			if x.reach < earliest[x.tier] { // no later task reaches its tier first
				checked++
				// 1e-9: Arrival + Latency rounds the finish again.
				if math.Abs(x.pred-x.f) > 1e-9*x.f {
					t.Errorf("ties %v, task %d: oracle said %v, realised %v", ties, k, x.pred, x.f)
				}
			}
			earliest[x.tier] = min(earliest[x.tier], x.reach)
		}
		for _, x := range recs {
			switch {
			case x.reach < latest[x.tier]:
				reordered++
			case x.reach == latest[x.tier]:
				tied++
			}
			latest[x.tier] = max(latest[x.tier], x.reach)
		}
		t.Logf("ties %v: %d of %d tasks checked, %d reach before one that left earlier, %d with one", ties, checked, len(recs), reordered, tied)
		if n := len(recs); checked < n/2 || !ties && reordered < n/10 || ties && tied < n/10 {
			t.Fatalf("ties %v: the test needs more tasks checked, reordered or tied", ties)
		}
	}
}

type clairvoyantFunc func(v *dispatch.View) dispatch.Decision

func (f clairvoyantFunc) Decide(v *dispatch.View) dispatch.Decision { return f(v) }
func (clairvoyantFunc) Clairvoyant()                                {}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// TestLittleDurationMode: Little's law per tier also holds over a duration
// window, whose end is a fixed time rather than an arrival.
func TestLittleDurationMode(t *testing.T) {
	cfg := threeTier(t, 60, 0)
	cfg.Tasks, cfg.Warmup = 0, 0
	cfg.WarmupTime, cfg.Duration = 100, 1500
	wmax := make([]float64, 3)
	cfg.OnTask = func(r *TaskRecord) { wmax[r.Tier] = max(wmax[r.Tier], r.Wait+r.Service) }
	r := rand.New(rand.NewPCG(6, 6))
	nmax := 0
	pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
		for _, s := range v.States {
			nmax = max(nmax, s.Present())
		}
		return dispatch.Decision{Tier: 1 + r.IntN(2)}
	})
	res, err := Run(cfg, pol, workload.NewStreams(78, 0))
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range res.Tier[1:] {
		L, lw := tr.AreaN/res.Span, tr.SumSojourn/res.Span
		if tol := 2 * float64(nmax+1) * wmax[i+1] / res.Span; math.Abs(L-lw) > tol {
			t.Errorf("tier %d: L = %.6g, λW = %.6g, tolerance %.3g", i+1, L, lw, tol)
		}
	}
}
