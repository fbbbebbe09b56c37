package policies

import (
	"math"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/workload"
)

// Without delays, lwl over k identical single-server tiers is one FCFS
// queue in front of k servers: every task takes the server that frees
// first. The engine runs both on the same workload streams, and every
// task's latency must agree. Sizes are continuous, so ties between tiers
// (where lwl draws at random and the k-server tier takes any free server)
// happen only among idle servers, where the choice changes nothing.
func TestLWLIsOneFCFSQueueWithoutDelays(t *testing.T) {
	const k, tasks = 3, 4000
	sizes := paretoSizes()
	tier := func(name string, c int) engine.TierConfig {
		return engine.TierConfig{Tier: dispatch.Tier{Name: name, Kind: dispatch.Edge, Servers: c, Speed: 2, Mu: 2 / sizes.Mean(), Cs2: sizes.Cs2()}}
	}
	waited := 0
	run := func(tiers []engine.TierConfig, p dispatch.Policy) []float64 {
		lat := make([]float64, tasks)
		cfg := &engine.Config{Tiers: tiers, Arrivals: workload.Schedule{Rate: 0.85 * k * 2}, Size: sizes, Large: math.Inf(1), Tasks: tasks,
			OnTask: func(r *engine.TaskRecord) {
				lat[r.ID] = r.Latency
				if r.Wait > 0 {
					waited++
				}
			}}
		if _, err := engine.Run(cfg, p, workload.NewStreams(7, 0)); err != nil {
			t.Fatal(err)
		}
		return lat
	}
	var split []engine.TierConfig
	var dts []dispatch.Tier
	for i := range k {
		split = append(split, tier("s"+string(rune('0'+i)), 1))
		dts = append(dts, split[i].Tier)
	}
	got := run(split, newLWL(dts, newRNG(1)))
	waited = 0
	want := run([]engine.TierConfig{tier("pool", k)}, dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }))
	for id := range got {
		if math.Abs(got[id]-want[id]) > 1e-9*want[id] {
			t.Fatalf("task %d: latency %v under lwl over %d single servers, %v in one %d-server FCFS tier", id, got[id], k, want[id], k)
		}
	}
	if waited < tasks/10 {
		t.Fatalf("only %d of %d tasks waited in the pool: the test says little at this load", waited, tasks)
	}
}

// lwl judges a tier by the work already sent there, D̄ + max(0, F − t − D̄) + 1/μ,
// not by this task's size, and tells the engine nothing of a prediction.
func TestLWLRule(t *testing.T) {
	tiers := []dispatch.Tier{
		{Name: "near", Servers: 1, Speed: 1, Mu: 1, MeanDelay: 0},
		{Name: "far", Servers: 1, Speed: 1, Mu: 1, MeanDelay: 0.5},
	}
	p := newLWL(tiers, newRNG(1))
	v := &dispatch.View{Tiers: tiers, States: make([]dispatch.State, 2), Oracle: &sizeOracle{size: 3}}
	if d := p.Decide(v); d.Tier != 0 || d.HasPred {
		t.Fatalf("both idle: %+v, want the near tier", d)
	}
	p.Dispatched(0, 0) // near busy until 3
	v.Now = 1
	v.Oracle = &sizeOracle{size: 0.1}
	// near: 0 + (3 − 1) + 1 = 3; far: 0.5 + 0 + 1 = 1.5.
	if d := p.Decide(v); d.Tier != 1 {
		t.Fatalf("near busy for 2 s more: tier %d, want far", d.Tier)
	}
	p.Dispatched(1, 1) // far: reaches at 1.5, busy until 1.6
	v.Now = 2.9
	// near: 0.1 + 1 = 1.1; far: 0.5 + max(0, 1.6 − 2.9 − 0.5) + 1 = 1.5.
	if d := p.Decide(v); d.Tier != 0 {
		t.Fatalf("near nearly free: tier %d, want near", d.Tier)
	}
}

type sizeOracle struct{ size float64 }

func (o *sizeOracle) TaskSize() float64      { return o.size }
func (o *sizeOracle) Completion(int) float64 { return 0 }

// sita-e's cutoffs against the Pareto closed form: the work below x is
// E[X]·(1 − (x_m/x)^(α−1)), so each interval's work over E[X] must be its
// tier's share of the capacity, to 10⁻⁹ relative.
func TestSITAECutoffsPareto(t *testing.T) {
	for _, alpha := range []float64{2.5, 4.5} {
		sizes, err := workload.New("pareto", 1.5, alpha, 0)
		if err != nil {
			t.Fatal(err)
		}
		tiers := threeTiers()
		tiers[1].MeanDelay, tiers[2].MeanDelay = 0.06, 0.005 // the cloud nearer than the edge: order by delay
		p := sitaEqual(tiers, sizes)
		cuts, order := p.bounds()
		if !slices.Equal(order, []int{0, 2, 1}) || len(cuts) != 2 {
			t.Fatalf("α %g: intervals %v to tiers %v, want 2 cutoffs, tiers in delay order [0 2 1]", alpha, cuts, order)
		}
		xm := 1.5 * (alpha - 1) / alpha
		workBelow := func(x float64) float64 { // closed form, over E[X]
			if x <= xm {
				return 0
			}
			return 1 - math.Pow(xm/x, alpha-1)
		}
		total := 0.0
		for _, tr := range tiers {
			total += float64(tr.Servers) * tr.Speed
		}
		bounds := append(append([]float64{0}, cuts...), math.Inf(1))
		for j, i := range order {
			hi := 1.0
			if !math.IsInf(bounds[j+1], 1) {
				hi = workBelow(bounds[j+1])
			}
			got := hi - workBelow(bounds[j])
			want := float64(tiers[i].Servers) * tiers[i].Speed / total
			if math.Abs(got/want-1) > 1e-9 {
				t.Errorf("α %g: interval %d (tier %s) carries %.15g of the work, want %.15g", alpha, j, tiers[i].Name, got, want)
			}
		}
		// The policy routes by the task's size.
		for _, c := range []struct {
			size float64
			want int
		}{{cuts[0] * 0.999, 0}, {cuts[0] * 1.001, 2}, {cuts[1] * 0.999, 2}, {cuts[1] * 1.001, 1}} {
			v := &dispatch.View{Tiers: tiers, States: make([]dispatch.State, 3), Oracle: &sizeOracle{size: c.size}}
			if d := p.Decide(v); d.Tier != c.want {
				t.Errorf("α %g: size %g went to tier %d, want %d", alpha, c.size, d.Tier, c.want)
			}
		}
	}
	det := sitaEqual(threeTiers(), workload.Const(1))
	if cuts, order := det.bounds(); len(cuts) != 0 || !slices.Equal(order, []int{2}) {
		t.Errorf("constant sizes: cutoffs %v, tiers %v; want one interval, the largest tier", cuts, order)
	}
}

// sita-opt's coordinate search against a 400 × 400 grid over the two
// cutoffs in quantile space on the default continuum (16 cloud servers):
// it must be no worse than the grid's best point (to 10⁻⁹) nor than
// sita-e's cutoffs, and no small move of the two cutoffs may improve it.
func TestSITAOptAgainstGrid(t *testing.T) {
	tiers := threeTiersCloud16()
	sizes := paretoSizes()
	for _, rate := range []float64{10, 100, 200} {
		m := &sitaModel{tiers: tiers, order: sizeOrder(tiers), sizes: sizes, lambda: rate}
		opt := sitaOptimal(tiers, sizes, rate)
		cuts, _ := opt.bounds()
		got := m.latency([]float64{sizes.CDF(cuts[0]), sizes.CDF(cuts[1])})
		const n = 400
		grid := math.Inf(1)
		for a := 0; a <= n; a++ {
			for b := a; b <= n; b++ {
				grid = math.Min(grid, m.latency([]float64{float64(a) / n, float64(b) / n}))
			}
		}
		eqCuts, _ := sitaEqual(tiers, sizes).bounds()
		eq := m.latency([]float64{sizes.CDF(eqCuts[0]), sizes.CDF(eqCuts[1])})
		if got > grid*(1+1e-9) || got > eq {
			t.Errorf("rate %g: sita-opt predicts %.9g s, the grid's best %.9g s, sita-e %.9g s", rate, got, grid, eq)
		}
		// Locally optimal in every direction, diagonals included (which a
		// coordinate search does not try).
		p0 := []float64{sizes.CDF(cuts[0]), sizes.CDF(cuts[1])}
		for _, d := range []float64{1e-5, 1e-4, 1e-3} {
			for _, dir := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
				q := []float64{p0[0] + d*dir[0], p0[1] + d*dir[1]}
				if q[0] < 0 || q[0] > q[1] || q[1] > 1 {
					continue
				}
				if v := m.latency(q); v < got*(1-1e-12) {
					t.Errorf("rate %g: moving the cutoffs by %g·%v to quantiles %v lowers the latency to %.12g from %.12g", rate, d, dir, q, v, got)
				}
			}
		}
		t.Logf("rate %g: sita-opt %.9g s (cutoffs %.4g), grid %.9g s, sita-e %.9g s", rate, got, cuts, grid, eq)
	}
}

func threeTiersCloud16() []dispatch.Tier {
	ts := threeTiers()
	ts[2].Servers = 16
	return ts
}

// static-opt's split against a brute-force grid of step 0.001 on the
// simplex: its predicted latency is no worse than the grid's best, and its
// probabilities are within the grid's resolution of the grid's argmin.
func TestStaticOptAgainstGrid(t *testing.T) {
	cases := []struct {
		name  string
		tiers []dispatch.Tier
		rate  float64
	}{
		{"two tiers", threeTiersCloud16()[1:], 150},
		{"three tiers, light", threeTiersCloud16(), 20},
		{"three tiers, heavy", threeTiersCloud16(), 200},
	}
	for _, c := range cases {
		got := staticSplit(c.tiers, c.rate)
		gotCost := staticCost(c.tiers, got, c.rate)
		const n = 1000
		best, bestP := math.Inf(1), []float64(nil)
		p := make([]float64, len(c.tiers))
		if len(c.tiers) == 2 {
			for a := 0; a <= n; a++ {
				p[0], p[1] = float64(a)/n, float64(n-a)/n
				if v := staticCost(c.tiers, p, c.rate); v < best {
					best, bestP = v, slices.Clone(p)
				}
			}
		} else {
			for a := 0; a <= n; a++ {
				for b := 0; a+b <= n; b++ {
					p[0], p[1], p[2] = float64(a)/n, float64(b)/n, float64(n-a-b)/n
					if v := staticCost(c.tiers, p, c.rate); v < best {
						best, bestP = v, slices.Clone(p)
					}
				}
			}
		}
		if gotCost > best*(1+1e-12) {
			t.Errorf("%s: split %v predicts %.12g s, the grid's %v %.12g s", c.name, got, gotCost, bestP, best)
		}
		var sum float64
		for i := range got {
			sum += got[i]
			if math.Abs(got[i]-bestP[i]) > 2.0/n {
				t.Errorf("%s: p[%d] = %.5f, the grid's argmin %.3f (resolution %g)", c.name, i, got[i], bestP[i], 1.0/n)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: split %v sums to %v", c.name, got, sum)
		}
	}
}

// static-opt draws each tier with its probability.
func TestStaticOptDraws(t *testing.T) {
	s := newStaticOpt(threeTiersCloud16(), 150, newRNG(4))
	p := s.split()
	counts := make([]int, 3)
	const n = 20000
	for range n {
		counts[s.Decide(nil).Tier]++
	}
	for i := range p {
		sd := math.Sqrt(n * p[i] * (1 - p[i]))
		if math.Abs(float64(counts[i])-n*p[i]) > 5*sd+1 {
			t.Errorf("tier %d chosen %d times of %d, want %.0f ± %.0f (p %v)", i, counts[i], n, n*p[i], 5*sd, p)
		}
	}
}

// jiq picks an idle tier whenever one exists (the idle one of least
// D̄ + 1/μ), and otherwise any tier uniformly.
func TestJIQ(t *testing.T) {
	tiers := threeTiers() // local 1×10/s, edge 4×25/s at 5 ms, cloud 64×50/s at 60 ms
	p := newJIQ(tiers, newRNG(2))
	cases := []struct {
		name   string
		states []dispatch.State
		want   int
	}{
		{"all idle: the edge, 0.005 + 0.04 < 0.1 and 0.08", []dispatch.State{{}, {}, {}}, 1},
		{"edge full: the cloud, 0.06 + 0.02 < 0.1", []dispatch.State{{}, {Busy: 4}, {Busy: 3}}, 2},
		{"only local idle", []dispatch.State{{}, {Busy: 4, Queued: 1}, {Busy: 64}}, 0},
		{"edge has a free server but a queue: not idle", []dispatch.State{{Busy: 1}, {Busy: 3, Queued: 1}, {Busy: 63}}, 2},
	}
	for _, c := range cases {
		for range 50 {
			if d := p.Decide(&dispatch.View{Tiers: tiers, States: c.states}); d.Tier != c.want {
				t.Fatalf("%s: tier %d, want %d", c.name, d.Tier, c.want)
			}
		}
	}
	busy := []dispatch.State{{Busy: 1}, {Busy: 4}, {Busy: 64, Queued: 2}}
	counts := make([]int, 3)
	for range 6000 {
		counts[p.Decide(&dispatch.View{Tiers: tiers, States: busy}).Tier]++
	}
	checkUniform(t, "jiq with no idle tier", counts)
	twin := identicalTiers(2)
	q := newJIQ(twin, newRNG(3))
	counts = make([]int, 2)
	for range 4000 {
		counts[q.Decide(&dispatch.View{Tiers: twin, States: []dispatch.State{{Busy: 1}, {}}}).Tier]++
	}
	checkUniform(t, "jiq between two idle identical tiers", counts)
}

// TestSITAECutoffsBoundedPareto: on a bounded Pareto (every moment finite,
// C_s² ≈ 49), sita-e's intervals carry each tier's capacity share of the
// work, against the closed-form work below x:
// (L^(1−α) − x^(1−α)) / (L^(1−α) − H^(1−α)) for α ≠ 1.
func TestSITAECutoffsBoundedPareto(t *testing.T) {
	const alpha, lo, hi = 1.4, 0.3, 3000.0
	sizes, err := workload.NewBoundedPareto(alpha, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	tiers := threeTiers()
	p := sitaEqual(tiers, sizes)
	cuts, order := p.bounds()
	if len(cuts) != 2 {
		t.Fatalf("intervals %v to tiers %v, want 2 cutoffs", cuts, order)
	}
	workBelow := func(x float64) float64 {
		x = math.Min(math.Max(x, lo), hi)
		return (math.Pow(lo, 1-alpha) - math.Pow(x, 1-alpha)) / (math.Pow(lo, 1-alpha) - math.Pow(hi, 1-alpha))
	}
	total := 0.0
	for _, tr := range tiers {
		total += float64(tr.Servers) * tr.Speed
	}
	bounds := append(append([]float64{0}, cuts...), math.Inf(1))
	for j, i := range order {
		got := workBelow(bounds[j+1]) - workBelow(bounds[j])
		want := float64(tiers[i].Servers) * tiers[i].Speed / total
		if math.Abs(got/want-1) > 1e-9 {
			t.Errorf("interval %d (tier %s) carries %.15g of the work, want %.15g", j, tiers[i].Name, got, want)
		}
	}
}

// lwl's two trees decide as a scan of its score over every tier does:
// D̄ + 1/μ for a tier free by the task's expected reach (F − D̄ ≤ t), F +
// 1/μ − t otherwise, the smallest, its ties drawn as Decide draws them
// (the r-th of the ready tiers' ties, then of the busy ones', in index
// order). Twelve tiers, alike in threes (ties among idle tiers), near
// saturation, at random times and sizes, then with times and sizes in
// quarters (ties across the trees).
func TestLWLTreesAreTheScan(t *testing.T) {
	var tiers []dispatch.Tier
	for i := range 12 {
		c := 1 + i%4
		tiers = append(tiers, dispatch.Tier{Name: "t", Servers: c, Speed: 1, Mu: 1, MeanDelay: float64(i % 3)})
	}
	crossTies := 0
	for _, quarters := range []bool{false, true} {
		p := newLWL(tiers, newRNG(5))
		free := make([]fcfs.Servers, len(tiers))
		for i, tr := range tiers {
			free[i] = fcfs.New(tr.Servers)
		}
		r, brute := newRNG(6), newRNG(5)
		clock := 0.0
		for k := range 10000 {
			clock += r.ExpFloat64() * 0.04
			now, size := clock, r.ExpFloat64()
			if quarters { // times and sizes in quarters: a busy tier's F + 1/μ − t may tie a ready one's D̄ + 1/μ
				now, size = math.Ceil(clock*4)/4, float64(1+r.IntN(8))/4
			}
			v := &dispatch.View{Now: now, Tiers: tiers, States: make([]dispatch.State, len(tiers)), Oracle: &sizeOracle{size: size}}
			got := p.Decide(v).Tier
			var ready, busy []int
			var a, b float64
			for i, tr := range tiers {
				f := free[i].Free()
				if f-tr.MeanDelay <= now {
					switch x := tr.MeanDelay + 1/tr.Mu; {
					case len(ready) == 0 || x < a:
						a, ready = x, []int{i}
					case x == a:
						ready = append(ready, i)
					}
				} else {
					switch x := f + 1/tr.Mu; {
					case len(busy) == 0 || x < b:
						b, busy = x, []int{i}
					case x == b:
						busy = append(busy, i)
					}
				}
			}
			b -= now
			var cands []int
			switch {
			case len(busy) == 0 || len(ready) > 0 && a < b:
				cands = ready
			case len(ready) == 0 || b < a:
				cands = busy
			default:
				cands = append(ready, busy...)
				crossTies++
			}
			want := cands[0]
			if len(cands) > 1 {
				want = cands[brute.IntN(len(cands))]
			}
			if got != want {
				t.Fatalf("quarters %v, decision %d at %v: tier %d, the scan's %d (ready %v at %v, busy %v at %v)", quarters, k, now, got, want, ready, a, busy, b)
			}
			p.Dispatched(now, got)
			free[got].Serve(now+tiers[got].MeanDelay, size/tiers[got].Speed)
		}
	}
	if crossTies < 100 {
		t.Errorf("%d ties across the trees: the test does not reach them", crossTies)
	}
}

// A pool of many alike tiers splits as its classes do: a local tier and a
// thousand alike edge tiers give every edge tier the same share, the
// shares sum to 1, and the local tier's share is the best of a grid of
// step 10⁻⁴ over the one free mass (the edge tiers sharing the rest
// equally), to the grid's resolution.
func TestStaticSplitOfManyAlikeTiers(t *testing.T) {
	tiers := []dispatch.Tier{{Name: "local", Servers: 1, Speed: 10, Mu: 10, Cs2: 0.8}}
	for range 1000 {
		tiers = append(tiers, dispatch.Tier{Name: "edge", Servers: 4, Speed: 10, Mu: 10, MeanDelay: 0.005, Cs2: 0.8})
	}
	const lambda = 0.5 * (10 + 1000*40)
	p := staticSplit(tiers, lambda)
	sum := 0.0
	for i, x := range p {
		sum += x
		if i > 1 && x != p[1] {
			t.Fatalf("edge tier %d has %v, tier 1 %v", i, x, p[1])
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("shares sum to %v", sum)
	}
	cost := func(local float64) float64 { // staticCost of that split, its thousand equal terms as one
		return splitCost(&tiers[0], local, lambda) + 1000*splitCost(&tiers[1], (1-local)/1000, lambda)
	}
	best, bestCost := 0.0, math.Inf(1)
	for k := range 10001 {
		if x := float64(k) / 10000; cost(x) < bestCost {
			best, bestCost = x, cost(x)
		}
	}
	if math.Abs(p[0]-best) > 1e-4 || staticCost(tiers, p, lambda) > bestCost*(1+1e-12) {
		t.Errorf("local share %v (cost %v), the grid's best %v (cost %v)", p[0], staticCost(tiers, p, lambda), best, bestCost)
	}
}
