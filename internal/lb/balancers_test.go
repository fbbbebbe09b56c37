package lb

import (
	"math"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// Round-robin is cyclic from its start; balancer d of k starts at ⌊d·n/k⌋.
func TestRoundRobinCyclesFromItsStart(t *testing.T) {
	v := view(0, identicalTiers(4), make([]dispatch.State, 4)...)
	if got := decideN(NewRoundRobin(4, 0), v, 9); !slices.Equal(got, []int{0, 1, 2, 3, 0, 1, 2, 3, 0}) {
		t.Errorf("from 0: %v", got)
	}
	if got := decideN(NewRoundRobin(4, 3), v, 5); !slices.Equal(got, []int{3, 0, 1, 2, 3}) {
		t.Errorf("from 3: %v", got)
	}
	for _, c := range []struct{ d, k, n, want int }{{0, 1, 4, 0}, {1, 2, 4, 2}, {1, 3, 10, 3}, {2, 3, 10, 6}, {5, 8, 4, 2}, {7, 100, 10, 0}} {
		if got := StartTier(c.d, c.k, c.n); got != c.want {
			t.Errorf("balancer %d of %d over %d tiers starts at %d, want %d", c.d, c.k, c.n, got, c.want)
		}
	}
}

// nginxSWRR is ngx_http_upstream_get_peer as written in nginx, a pass
// over every peer: the reference the grouped schedule must follow.
type nginxSWRR struct{ w, cur []int }

func (s *nginxSWRR) next() int {
	best, total := -1, 0
	for i := range s.w {
		s.cur[i] += s.w[i]
		total += s.w[i]
		if best < 0 || s.cur[i] > s.cur[best] {
			best = i
		}
	}
	s.cur[best] -= total
	return best
}

// Weighted round-robin is nginx's smooth weighted round-robin request for
// request: weights 5, 1, 1 give a a b a c a a (as nginx does,
// docs/emulation.md), and random weight lists give nginx's sequence.
func TestWeightedRoundRobinIsNginx(t *testing.T) {
	p := newWeightedRoundRobin([]int{5, 1, 1}, 0)
	v := view(0, identicalTiers(3), make([]dispatch.State, 3)...)
	if got := decideN(p, v, 14); !slices.Equal(got, []int{0, 0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 2, 0, 0}) {
		t.Errorf("weights 5, 1, 1: %v", got)
	}
	rng := newRNG(4)
	for trial := range 200 {
		n := 1 + rng.IntN(12)
		w := make([]int, n)
		for i := range w {
			w[i] = 1 + rng.IntN([]int{3, 9, 256}[trial%3])
		}
		ref, got := &nginxSWRR{w: w, cur: make([]int, n)}, newWeightedRoundRobin(w, 0)
		vv := view(0, identicalTiers(n), make([]dispatch.State, n)...)
		for k := range 3000 {
			if a, b := got.Decide(vv).Tier, ref.next(); a != b {
				t.Fatalf("weights %v, request %d: tier %d, nginx %d", w, k, a, b)
			}
		}
	}
	// A start tier rotates nginx's list: the sequence of the rotated weights.
	w := []int{3, 1, 2, 2}
	ref, got := &nginxSWRR{w: []int{2, 2, 3, 1}, cur: make([]int, 4)}, newWeightedRoundRobin(w, 2)
	for k := range 100 {
		if a, b := got.Decide(v).Tier, (ref.next()+2)%4; a != b {
			t.Fatalf("start 2, request %d: tier %d, want %d", k, a, b)
		}
	}
}

// Least-conn: the fewest outstanding; ties to the tier that has held its
// count longest (HAProxy's reinsertion order), so tied idle tiers take
// turns; a completion frees its tier.
func TestLeastConnTiesGoRoundRobin(t *testing.T) {
	p := NewLeastConn([]int{1, 1, 1})
	v := view(0, identicalTiers(3), make([]dispatch.State, 3)...)
	// One at a time, each completed before the next: every tier ties at 0,
	// and they take turns.
	var got []int
	for range 7 {
		i := p.Decide(v).Tier
		got = append(got, i)
		done(p, i, 0, 1)
	}
	if !slices.Equal(got, []int{0, 1, 2, 0, 1, 2, 0}) {
		t.Errorf("sequential requests: %v", got)
	}
	// Tier 1 holds a request (sent 1 before; 2 and 0 took theirs and
	// finished): the others alternate, and 1 returns once free.
	if i := p.Decide(v).Tier; i != 1 {
		t.Fatalf("next: %d, want 1", i)
	}
	got = got[:0]
	for range 4 {
		i := p.Decide(v).Tier
		got = append(got, i)
		done(p, i, 0, 1)
	}
	if !slices.Equal(got, []int{2, 0, 2, 0}) {
		t.Errorf("tier 1 busy: %v, want 2 0 2 0", got)
	}
	// Free again, tier 1 rejoins the idle tiers behind them: 2 and 0 have
	// been idle longer.
	done(p, 1, 0, 1)
	got = got[:0]
	for range 4 {
		i := p.Decide(v).Tier
		got = append(got, i)
		done(p, i, 0, 1)
	}
	if !slices.Equal(got, []int{2, 0, 1, 2}) {
		t.Errorf("tier 1 free again: %v, want 2 0 1 2", got)
	}
	// Outstanding 3, 1, 2: the one of 1.
	q := newLeastConn([]int{1, 1, 1})
	q.active = outstanding{3, 1, 2}
	for i := range 3 {
		q.heap.set(i, q.key(i), q.next())
	}
	if i := q.Decide(v).Tier; i != 1 {
		t.Errorf("outstanding 3, 1, 2: chose %d", i)
	}
}

// Weighted least-conn is HAProxy's key ⌊(a+1)·256/w⌋ (0 when idle): idle
// tiers first whatever their weight, then the least per unit of weight.
func TestLeastConnWeights(t *testing.T) {
	p := newLeastConn([]int{1, 4})
	v := view(0, identicalTiers(2), make([]dispatch.State, 2)...)
	// Both idle: tier 0 first (key 0, the earlier), then tier 1 (key 0);
	// then keys (1+1)·256/1 = 512 against (1+1)·256/4 = 128: tier 1 until
	// its (a+1)·64 reaches 512 at a = 7, a tie that tier 0 wins (held longer).
	got := decideN(p, v, 9)
	if want := []int{0, 1, 1, 1, 1, 1, 1, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("weights 1, 4: %v, want %v", got, want)
	}
}

// P2C: d independent draws, the fewest outstanding, the earlier draw on a
// tie; replayed here draw for draw from a twin of its generator.
func TestP2CRule(t *testing.T) {
	tiers := identicalTiers(5)
	for _, d := range []int{1, 2, 3} {
		p := newP2C([]int{1, 1, 1, 1, 1}, d, newRNG(7))
		twin := newRNG(7)
		active := make([]int, 5)
		v := view(0, tiers, make([]dispatch.State, 5)...)
		for k := range 5000 {
			best := twin.IntN(5)
			for range d - 1 {
				if c := twin.IntN(5); active[c] < active[best] {
					best = c
				}
			}
			got := p.Decide(v).Tier
			if got != best {
				t.Fatalf("d = %d, decision %d: %d, want %d (outstanding %v)", d, k, got, best, active)
			}
			active[got]++
			if j := k % 5; k%3 == 0 && active[j] > 0 { // complete some
				active[j]--
				done(p, j, 0, 1)
			}
		}
	}
	// Weights: a draw in proportion to the weight (d = 1 shows the draws).
	p := newP2C([]int{1, 2, 5}, 1, newRNG(3))
	counts := make([]int, 3)
	v := view(0, identicalTiers(3), make([]dispatch.State, 3)...)
	const n = 80000
	for range n {
		counts[p.Decide(v).Tier]++
	}
	for i, w := range []float64{1, 2, 5} {
		pr := w / 8
		if sd := math.Sqrt(n * pr * (1 - pr)); math.Abs(float64(counts[i])-n*pr) > 5*sd {
			t.Errorf("weights 1, 2, 5: tier %d drawn %d of %d, want %.0f ± %.0f", i, counts[i], n, n*pr, 5*sd)
		}
	}
	// and loads compared per unit of weight: 3 outstanding of weight 4 is
	// less than 1 of weight 1.
	q := newP2C([]int{1, 4}, 2, newRNG(1))
	q.active = outstanding{1, 3}
	if !q.fewer(1, 0) || q.fewer(0, 1) {
		t.Error("weights 1, 4, outstanding 1, 3: tier 1 not the less loaded")
	}
}

// With equal weights least-request is P2C (Envoy's documented equivalence):
// the same decisions on the same stream.
func TestLeastRequestEqualWeightsIsP2C(t *testing.T) {
	w := []int{1, 1, 1, 1, 1, 1}
	a, b := NewLeastRequest(w, 3, 1, newRNG(11)), NewP2C(w, 3, DrawWeights, newRNG(11))
	v := view(0, identicalTiers(6), make([]dispatch.State, 6)...)
	for k := range 3000 {
		x, y := a.Decide(v).Tier, b.Decide(v).Tier
		if x != y {
			t.Fatalf("decision %d: least-request %d, p2c %d", k, x, y)
		}
		if k%2 == 0 {
			done(a, x, 0, 1)
			done(b, y, 0, 1)
		}
	}
}

// With unequal weights least-request is Envoy's EDF schedule on
// weight / (active + 1)^bias, recomputed for the picked tier only.
func TestLeastRequestEDF(t *testing.T) {
	v := view(0, identicalTiers(2), make([]dispatch.State, 2)...)
	// Weights 2, 1, bias 1, nothing completes: deadlines 0.5 and 1; A
	// (0.5) → A at 1.0; B (1.0, added first) → B at 2; A (1.0, weight
	// 2/2) → 2; B (2, added first, weight 1/2) → 4; A (2, weight 2/3) →
	// 3.5; A (3.5, weight 2/4) → 5.5; B (4).
	p := newLeastRequest([]int{2, 1}, 2, 1, newRNG(1))
	if got, want := decideN(p, v, 7), []int{0, 1, 0, 1, 0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("weights 2, 1, bias 1: %v, want %v", got, want)
	}
	// Bias 0 is weighted round-robin: 2 to 1 exactly in every 3 picks.
	p = newLeastRequest([]int{2, 1}, 2, 0, newRNG(1))
	counts := make([]int, 2)
	for _, i := range decideN(p, v, 300) {
		counts[i]++
	}
	if counts[0] != 200 {
		t.Errorf("bias 0: counts %v, want 200, 100", counts)
	}
	// A larger bias weighs outstanding requests more: weights 4, 1, bias
	// 2, nothing completes. A: 0.25 → +(a+1)²/4; B: 1 → +(a+1)².
	p = newLeastRequest([]int{4, 1}, 2, 2, newRNG(1))
	// A 0.25 → 0.5 (w 4/1); A 0.5 → 1.0 (4/4); B 1 (added first) → 2 (1/1);
	// A 1.0 → 3.25 (4/9); B 2 → 6 (1/4); A 3.25 → 7.25 (4/16); B 6.
	if got, want := decideN(p, v, 7), []int{0, 0, 1, 0, 1, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("weights 4, 1, bias 2: %v, want %v", got, want)
	}
	// A completion lowers the count the next pick of its tier uses, and
	// does not move the schedule.
	p = newLeastRequest([]int{2, 1}, 2, 1, newRNG(1))
	decideN(p, v, 3) // A, B, A: A has 2 outstanding, its entry at 2
	done(p, 0, 0, 1)
	done(p, 0, 0, 1)
	if d := p.heap.key[0]; d != 2 {
		t.Errorf("A's deadline moved to %v by completions", d)
	}
	decideN(p, v, 2) // B (2, added first) → 3; A (2) → 2 + 1/(2/1)
	if d := p.heap.key[0]; d != 2.5 {
		t.Errorf("A's next deadline %v, want 2.5 (weight 2 with nothing outstanding)", d)
	}
}

// The EWMA's decay, the peak rule, Finagle's rule before a first sample
// and tower's default RTT, on hand computations.
func TestEWMARules(t *testing.T) {
	const tau = 10
	for _, peak := range []bool{false, true} {
		p := newEWMA(2, peak, tau, 0, newRNG(1))
		p.pending[0] = 1
		p.Done(&dispatch.Completion{Tier: 0, Now: 5, Latency: 2})
		want := 2 * (1 - math.Exp(-0.5)) // cost 0 blended with 2 after 5 s of τ = 10
		if peak {
			want = 2 // the peak rule: a latency above the cost replaces it
		}
		if math.Abs(p.cost[0]-want) > 1e-15 {
			t.Errorf("peak %v: cost %v after one sample, want %v", peak, p.cost[0], want)
		}
		// Read 10 s later with 2 outstanding: decayed, times (2 + 1).
		p.pending[0] = 2
		if got, w := p.load(0, 15), want*math.Exp(-1)*3; math.Abs(got-w) > 1e-12 {
			t.Errorf("peak %v: load %v at 15, want %v", peak, got, w)
		}
		// A sample below the cost blends in, whatever the rule.
		c0 := p.cost[0]
		p.Done(&dispatch.Completion{Tier: 0, Now: 20, Latency: 0.1})
		if w := c0*math.Exp(-0.5) + 0.1*(1-math.Exp(-0.5)); math.Abs(p.cost[0]-w) > 1e-15 {
			t.Errorf("peak %v: cost %v after a low sample, want %v", peak, p.cost[0], w)
		}
	}
	// Finagle's rule: no sample yet, load 0 while idle, the penalty once a
	// request is outstanding; so P2C over two such tiers sends the second
	// task to the other tier.
	p := newEWMA(2, true, tau, 0, newRNG(1))
	v := view(1, identicalTiers(2), make([]dispatch.State, 2)...)
	a := p.Decide(v).Tier
	if l := p.load(a, 1); l != ewmaPenalty+1 {
		t.Errorf("a tier with 1 outstanding and no sample: load %v, want the penalty %v", l, ewmaPenalty+1)
	}
	if b := p.Decide(v).Tier; b == a {
		t.Errorf("second task to the penalised tier %d", a)
	}
	// tower's rule: the default RTT is the cost before any sample.
	q := newEWMA(2, true, tau, 0.03, newRNG(1))
	q.pending[1] = 1
	if l := q.load(1, 0); math.Abs(l-0.06) > 1e-15 {
		t.Errorf("default_rtt 0.03, 1 outstanding: load %v, want 0.06", l)
	}
	// P2C picks the smaller load of two distinct tiers: tier 1 is slower.
	r := newEWMA(2, true, tau, 0, newRNG(2))
	r.Done(&dispatch.Completion{Tier: 0, Now: 0, Latency: 0.1})
	r.Done(&dispatch.Completion{Tier: 1, Now: 0, Latency: 1})
	for k := range 20 {
		if i := r.Decide(view(0.001*float64(k), identicalTiers(2), make([]dispatch.State, 2)...)).Tier; i != 0 {
			t.Fatalf("decision %d: tier %d, the slower", k, i)
		}
		r.pending[0] = 0 // each completed at once
	}
}
