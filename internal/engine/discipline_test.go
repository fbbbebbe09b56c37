package engine

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/offload-sim/offload/internal/workload"
	"gonum.org/v1/gonum/stat"
)

// replicated runs reps independent replicates of cfg (every task to tier
// 0) and returns the mean of f over them and its standard error.
func replicated(t *testing.T, cfg *Config, reps int, f func(*Result) float64) (mean, se float64) {
	t.Helper()
	v := make([]float64, reps)
	for r := range reps {
		res, err := Run(cfg, always(0), workload.NewStreams(2024, r))
		if err != nil {
			t.Fatal(err)
		}
		v[r] = f(res)
		if math.IsNaN(v[r]) || math.IsInf(v[r], 0) {
			t.Fatalf("replicate %d: %v", r, v[r])
		}
	}
	m, sd := stat.MeanStdDev(v, nil)
	return m, sd / math.Sqrt(float64(reps))
}

func dropShare(r *Result) float64 { return float64(r.Out.Dropped) / float64(r.Out.Arrived) }

func meanLatency(r *Result) float64 { return r.Latencies.Mean() }

// birthDeath is the stationary distribution of the M/M/c/K chain (μ = 1,
// offered load a), K ≥ c: p_n ∝ aⁿ/n! up to c, then ·(a/c) each step.
func birthDeath(c, k int, a float64) []float64 {
	p := make([]float64, k+1)
	p[0] = 1
	sum := 1.0
	for n := 1; n <= k; n++ {
		p[n] = p[n-1] * a / float64(min(n, c))
		sum += p[n]
	}
	for n := range p {
		p[n] /= sum
	}
	return p
}

// TestBufferDropsErlangB: M/M/c/c drops the Erlang B share and M/M/c/K
// its birth–death chain's p_K (an arrival sees the time average, PASTA);
// the account holds and nothing waits beyond the buffer.
func TestBufferDropsErlangB(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	tasks, reps, maxRel := runLength()
	for _, tc := range []struct {
		c, k int
		a    float64
	}{{1, 1, 0.5}, {2, 2, 2}, {4, 4, 3}, {2, 5, 1.8}, {3, 6, 3.3}, {20, 20, 18}} {
		cfg := singleTier(tc.a, tc.c, exp, tasks, tasks/10)
		cfg.Tiers[0].Buffer = tc.k
		want := birthDeath(tc.c, tc.k, tc.a)[tc.k]
		got, se := replicated(t, cfg, reps, dropShare)
		checkAgainst(t, "M/M/"+itoa(tc.c)+"/"+itoa(tc.k)+" a="+ftoa(tc.a)+" drop share", got, se, reps, want, maxRel)
		res, err := Run(cfg, always(0), workload.NewStreams(1, 0))
		if err != nil {
			t.Fatal(err)
		}
		if o := res.Out; o.Completed+o.Dropped != o.Arrived || o.Completed != res.Tasks || o.Dropped == 0 {
			t.Errorf("M/M/%d/%d: account %+v, tasks %d", tc.c, tc.k, o, res.Tasks)
		}
	}
}

// TestBufferRetriesNextChoice: a task dropped by a full tier is sent to
// the policy's next choice, and only dropped when its retries are spent.
func TestBufferRetriesNextChoice(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	cfg := singleTier(3, 1, exp, 20000, 1000)
	cfg.Tiers = append(cfg.Tiers, cfg.Tiers[0])
	cfg.Tiers[1].Name = "u"
	cfg.Tiers[0].Buffer, cfg.Tiers[1].Buffer = 1, 1
	cfg.Retries = 1
	res, err := Run(cfg, always(0), workload.NewStreams(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	o := res.Out
	if o.Retried == 0 || res.Tier[1].Count == 0 || o.Completed+o.Dropped != o.Arrived {
		t.Errorf("account %+v, tier 1 ran %d", o, res.Tier[1].Count)
	}
	// Two M/M/1/1 with overflow at once (no delay): the pair is M/M/2/2
	// with ordered hunting, which drops B(2, 3) = 4.5/8.5; 20000 tasks put
	// its standard error near 0.005.
	if d := dropShare(res); math.Abs(d-4.5/8.5) > 0.025 {
		t.Errorf("drop share %v, want B(2, 3) = %.4f", d, 4.5/8.5)
	}
}

// TestPSInsensitive: M/G/c-PS has the M/M/c mean sojourn whatever the size
// law (a symmetric queue): E[S]/(1−ρ) with one server, Erlang C's with c,
// here with Pareto, exponential and constant sizes.
func TestPSInsensitive(t *testing.T) {
	tasks, reps, maxRel := runLength()
	par, err := workload.New("pareto", 1, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size workload.Dist
		c    int
		rho  float64
	}{{"M/Pareto(3)/1", par, 1, 0.7}, {"M/D/1", workload.Const(1), 1, 0.7}, {"M/Pareto(3)/2", par, 2, 0.7}, {"M/D/4", workload.Const(1), 4, 0.8}} {
		lambda := tc.rho * float64(tc.c)
		want := erlangC(tc.c, lambda)/(float64(tc.c)-lambda) + 1
		cfg := singleTier(lambda, tc.c, tc.size, tasks, tasks/5)
		cfg.Tiers[0].Discipline = PS
		got, se := replicated(t, cfg, reps, meanLatency)
		checkAgainst(t, tc.name+"-PS ρ="+ftoa(tc.rho)+" mean sojourn", got, se, reps, want, maxRel)
	}
}

// schrageMiller is M/G/1-SRPT's mean sojourn (Schrage and Miller 1966)
// for arrival rate lambda and size density f on [0, top], by the
// trapezoid rule on n steps:
//
//	E[T(x)] = (λ∫₀ˣ t²f + λx²(1−F(x))) / (2(1−ρ(x))²) + ∫₀ˣ dt/(1−ρ(t)),
//
// ρ(x) = λ∫₀ˣ t f(t) dt, and E[T] = ∫ E[T(x)] f(x) dx.
func schrageMiller(lambda float64, f func(float64) float64, top float64, n int) float64 {
	h := top / float64(n)
	var m1, m2, cdf, inner, mean float64 // running ∫ t f, ∫ t² f, F, ∫ 1/(1−ρ)
	prev := func(x float64) (float64, float64, float64) { d := f(x); return d, x * d, x * x * d }
	d0, a0, b0 := prev(0)
	g0 := 1.0
	for i := 1; i <= n; i++ {
		x := float64(i) * h
		d, a, b := prev(x)
		cdf += h * (d0 + d) / 2
		m1 += h * (a0 + a) / 2
		m2 += h * (b0 + b) / 2
		rho := lambda * m1
		g := 1 / (1 - rho)
		inner += h * (g0 + g) / 2
		tx := (lambda*m2+lambda*x*x*(1-cdf))/(2*(1-rho)*(1-rho)) + inner
		mean += h * tx * d // right-endpoint rule on a density that vanishes at the top
		d0, a0, b0, g0 = d, a, b, g
	}
	return mean
}

// TestSRPTSchrageMiller: M/M/1-SRPT and M/LN/1-SRPT against the
// Schrage–Miller integral, and below FCFS's mean (SRPT's optimality).
func TestSRPTSchrageMiller(t *testing.T) {
	tasks, reps, maxRel := runLength()
	logn := mustDist(t, "lognormal", 1, 0, 1)
	s2 := math.Log(2) // lognormal of mean 1, CV 1: σ² = ln(1 + CV²), μ = −σ²/2
	for _, tc := range []struct {
		name string
		size workload.Dist
		f    func(float64) float64
		top  float64
		rho  float64
	}{
		{"M/M/1", mustDist(t, "exponential", 1, 0, 0), func(x float64) float64 { return math.Exp(-x) }, 60, 0.7},
		{"M/M/1", mustDist(t, "exponential", 1, 0, 0), func(x float64) float64 { return math.Exp(-x) }, 60, 0.9},
		{"M/LN(1)/1", logn, func(x float64) float64 {
			if x <= 0 {
				return 0
			}
			z := math.Log(x) + s2/2
			return math.Exp(-z*z/(2*s2)) / (x * math.Sqrt(2*math.Pi*s2))
		}, 200, 0.8},
	} {
		want := schrageMiller(tc.rho, tc.f, tc.top, 200000)
		cfg := singleTier(tc.rho, 1, tc.size, 2*tasks, tasks/5)
		cfg.Tiers[0].Discipline = SRPT
		got, se := replicated(t, cfg, reps, meanLatency)
		checkAgainst(t, tc.name+"-SRPT ρ="+ftoa(tc.rho)+" mean sojourn", got, se, reps, want, maxRel)
		fcfs := tc.rho*(1+tc.size.Cs2())/(2*(1-tc.rho)) + 1
		if !(want < fcfs) {
			t.Errorf("%s: Schrage–Miller %v not below FCFS's %v", tc.name, want, fcfs)
		}
	}
}

// BenchmarkDiscipline is BenchmarkEngine with every tier under one
// discipline (fcfs+buffer: FCFS with a buffer never full, which takes the
// outcome account's path): the cost per task of each, and its ratio to
// the floor, for docs/performance.md.
func BenchmarkDiscipline(b *testing.B) {
	for _, tc := range []struct {
		name   string
		d      Discipline
		buffer bool
	}{{"fcfs", FCFS, false}, {"fcfs+buffer", FCFS, true}, {"ps", PS, false}, {"srpt", SRPT, false}, {"priority", Priority, false}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := threeTier(b, 20, 1)
			cfg.Warmup = 0
			for i := range cfg.Tiers {
				cfg.Tiers[i].Discipline = tc.d
				if tc.buffer {
					cfg.Tiers[i].Buffer = 1000 * cfg.Tiers[i].Servers
				}
			}
			b.ReportAllocs()
			timed(b, cfg, timedSlices, func(rep int) func() (*Result, error) {
				pol := uniform(rand.New(rand.NewPCG(1, policyStream(rep))))
				return func() (*Result, error) { return Run(cfg, pol, workload.NewStreams(1, rep)) }
			})
		})
	}
}

// classMean is the mean latency of class k over the replicates.
func classMean(k int) func(*Result) float64 {
	return func(r *Result) float64 { return r.Class[k].Latencies.Mean() }
}

// TestPriorityCobham: two classes at one M/G/1 priority tier against
// Cobham's formula per class (Cobham, Operations Research 2(1), 1954):
// non-preemptive W_k = W₀/((1−σ_{k−1})(1−σ_k)), W₀ = Σ λ_i E[S_i²]/2, σ_k
// the load of the classes up to k; preempt-resume T_k = E[S_k]/(1−σ_{k−1})
// + Σ_{i≤k} λ_i E[S_i²]/2 / ((1−σ_{k−1})(1−σ_k)).
func TestPriorityCobham(t *testing.T) {
	tasks, reps, maxRel := runLength()
	exp := mustDist(t, "exponential", 1, 0, 0)
	small := mustDist(t, "exponential", 0.5, 0, 0)
	lambda := 0.8
	share := []float64{0.4, 0.6}
	sizes := []workload.Dist{small, exp} // the urgent class has the smaller tasks
	m1 := []float64{0.5, 1}
	m2 := []float64{2 * 0.25, 2} // E[S²] of exponentials
	for _, preempt := range []bool{false, true} {
		cfg := singleTier(lambda, 1, exp, tasks, tasks/10)
		cfg.Tiers[0].Discipline, cfg.Tiers[0].Preemptive = Priority, preempt
		cfg.Classes = []Class{{Name: "hi", Share: share[0], Priority: 0, Size: sizes[0]}, {Name: "lo", Share: share[1], Priority: 1, Size: sizes[1]}}
		sigma, w0 := 0.0, 0.0
		for k := range 2 {
			w0 += lambda * share[k] * m2[k] / 2
		}
		partial := 0.0
		for k := range 2 {
			prev := sigma
			sigma += lambda * share[k] * m1[k]
			partial += lambda * share[k] * m2[k] / 2
			want := m1[k] + w0/((1-prev)*(1-sigma))
			if preempt {
				want = m1[k]/(1-prev) + partial/((1-prev)*(1-sigma))
			}
			got, se := replicated(t, cfg, reps, classMean(k))
			checkAgainst(t, "M/M/1 priority class "+itoa(k)+" preemptive "+strconv.FormatBool(preempt), got, se, reps, want, maxRel)
		}
	}
}

// TestAbandonmentMM1M: M/M/1+M (exponential patience, mean 1/θ) against
// its birth–death chain: death rate μ + (n−1)θ with n present, abandon
// share θ·E[queue]/λ; under FCFS and under one class's priority, which
// serves in the same order.
func TestAbandonmentMM1M(t *testing.T) {
	tasks, reps, maxRel := runLength()
	exp := mustDist(t, "exponential", 1, 0, 0)
	for _, tc := range []struct{ lambda, patience float64 }{{0.9, 2}, {1.5, 1}} {
		theta := 1 / tc.patience
		p := []float64{1}
		sum, q := 1.0, 0.0
		for n := 1; n < 400; n++ {
			p = append(p, p[n-1]*tc.lambda/(1+float64(n-1)*theta))
			sum += p[n]
		}
		for n := 1; n < 400; n++ {
			q += float64(n-1) * p[n] / sum
		}
		want := theta * q / tc.lambda
		for _, d := range []Discipline{FCFS, Priority} {
			cfg := singleTier(tc.lambda, 1, exp, tasks, tasks/10)
			cfg.Tiers[0].Discipline = d
			cfg.Patience = mustDist(t, "exponential", tc.patience, 0, 0)
			got, se := replicated(t, cfg, reps, func(r *Result) float64 { return float64(r.Out.Abandoned) / float64(r.Out.Arrived) })
			checkAgainst(t, "M/M/1+M "+d.String()+" λ="+ftoa(tc.lambda)+" abandon share", got, se, reps, want, maxRel)
			res, err := Run(cfg, always(0), workload.NewStreams(1, 0))
			if err != nil {
				t.Fatal(err)
			}
			if o := res.Out; o.Completed+o.Abandoned != o.Arrived {
				t.Errorf("%s: account %+v", d, o)
			}
		}
	}
}

// TestClassesOnTape: a run with classes, a buffer and patience gives the same bits from a tape as from its streams (a reader
// finds each task's class from its place), and every task ends once.
func TestClassesOnTape(t *testing.T) {
	cfg := threeTier(t, 60, 5000)
	cfg.Tiers[0].Buffer = 3
	cfg.Classes = []Class{{Name: "a", Share: 0.3, Size: mustDist(t, "exponential", 0.2, 0, 0), Deadline: 0.1},
		{Name: "b", Share: 0.7, Priority: 1, Patience: mustDist(t, "exponential", 0.5, 0, 0)}}
	run := func(tape bool) *Result {
		d := Device{Policy: uniform(workload.Stream(1, 0, 99)), Streams: workload.NewStreams(4, 0)}
		if tape {
			d.Tape = NewTapes(cfg, []func() workload.Streams{func() workload.Streams { return workload.NewStreams(4, 0) }}, 100)[0]
		}
		res, err := RunDevices(cfg, []Device{d}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(false), run(true)
	o := a.Out
	if o != b.Out || a.Latencies.Mean() != b.Latencies.Mean() || a.Class[0].Tasks != b.Class[0].Tasks || a.Class[1].Late != b.Class[1].Late {
		t.Fatalf("tape %+v %v, streams %+v %v", b.Out, b.Latencies.Mean(), o, a.Latencies.Mean())
	}
	if o.Completed+o.Dropped+o.Abandoned != o.Arrived || o.Dropped == 0 || o.Abandoned == 0 ||
		a.Class[0].Arrived+a.Class[1].Arrived != o.Arrived || a.Class[0].Tasks+a.Class[1].Tasks != a.Tasks {
		t.Errorf("account %+v, classes %+v %+v", o, a.Class[0], a.Class[1])
	}
	if sh := float64(a.Class[0].Arrived) / float64(o.Arrived); math.Abs(sh-0.3) > 0.03 {
		t.Errorf("class a's share %v, want 0.3", sh)
	}
}

// TestPatienceMeetsTimeout: an FCFS tier, whose abandonments are decided at
// the reach, and a one-class priority tier, whose patiences and deadlines
// are events, serve in the same order and must end every task alike when
// the tasks have both a patience and a timeout: whichever comes first
// wins, the deadline at a tie, and a timed-out attempt no longer abandons.
func TestPatienceMeetsTimeout(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	for _, cancel := range []bool{false, true} {
		for _, retries := range []int{0, 2} {
			var outs [2]Outcomes
			for k, d := range []Discipline{FCFS, Priority} {
				cfg := singleTier(0.95, 1, exp, 20000, 0)
				cfg.Tiers[0].Discipline = d
				cfg.Patience = mustDist(t, "exponential", 3, 0, 0)
				cfg.Timeout, cfg.Retries, cfg.CancelOnTimeout = 4, retries, cancel
				res, err := Run(cfg, always(0), workload.NewStreams(5, 0))
				if err != nil {
					t.Fatal(err)
				}
				outs[k] = res.Out
			}
			o := outs[0]
			if o.Abandoned == 0 || o.TimedOut == 0 || o.Completed+o.Abandoned+o.TimedOut != o.Arrived {
				t.Errorf("cancel %v, retries %d: the run does not meet both ends: %+v", cancel, retries, o)
			}
			if outs[0].Abandoned != outs[1].Abandoned || outs[0].TimedOut != outs[1].TimedOut || outs[0].Retried != outs[1].Retried {
				t.Errorf("cancel %v, retries %d: fcfs %+v, priority %+v", cancel, retries, outs[0], outs[1])
			}
		}
	}
}
