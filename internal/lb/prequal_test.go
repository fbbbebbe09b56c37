package lb

import (
	"math"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// newTestPrequal is prequal of the paper's parameters but those set
// changes, drawing from seed 1.
func newTestPrequal(tiers []dispatch.Tier, set func(c *PrequalConfig)) *prequal {
	c := DefaultPrequal()
	set(&c)
	return newPrequal(tiers, c, newRNG(1))
}

func answer(tier, rif int, lat, read float64) probeAnswer {
	return probeAnswer{tier: int32(tier), rif: int32(rif), lat: lat, read: read, uses: 100}
}

// A probe reads the tier's RIF (queued + in service) through the view at
// the decision, and its answer is usable only after the tier's round trip
// 2·D̄; the task it serves counts in its RIF.
func TestPrequalProbeTiming(t *testing.T) {
	tiers := threeTiers() // D̄ = 0, 5 ms, 60 ms
	p := newTestPrequal(tiers, func(c *PrequalConfig) { c.Probes, c.Remove, c.Reuse = 3, 0, 10 })
	states := []dispatch.State{{Busy: 1}, {Busy: 4, Queued: 2, InTransit: 7}, {Busy: 10}}
	p.Decide(view(0, tiers, states...)) // an empty pool: a uniform draw; then the three probes
	if len(p.pool) != 0 || p.pending.Len() != 3 {
		t.Fatalf("after the first decision: pool %d, pending %d", len(p.pool), p.pending.Len())
	}
	if got := p.Decide(view(0.009, tiers, states...)).Tier; got != 0 {
		t.Errorf("at 9 ms only tier 0's answer is back (round trip 0): chose %d", got)
	}
	if len(p.pool) != 1 || p.pool[0].rif != 2 {
		t.Fatalf("pool %+v: want tier 0's answer, RIF 1 read + 1 sent", p.pool)
	}
	p.Decide(view(0.0101, tiers, states...)) // tier 1's answer back at 10 ms
	var rif1 int32 = -1
	for _, a := range p.pool {
		if a.tier == 1 {
			rif1 = a.rif
		}
	}
	if rif1 < 6 {
		t.Errorf("tier 1's answer: RIF %d, want queued + busy = 6 (not in transit), plus any sent", rif1)
	}
	for _, a := range p.pool {
		if a.tier == 2 {
			t.Errorf("tier 2's answer in the pool at 10.1 ms, before its 120 ms round trip")
		}
	}
}

// The hot-cold lexicographic rule: a probe is hot above the q_rif quantile
// of the recent RIFs; the cold probe of lowest latency wins, else, all hot,
// the lowest RIF.
func TestPrequalHotColdRule(t *testing.T) {
	tiers := identicalTiers(5)
	p := newTestPrequal(tiers, func(c *PrequalConfig) { c.QRIF, c.Remove, c.Probes = 0.5, 0, 1 })
	for _, a := range []probeAnswer{answer(0, 5, 0.1, 0), answer(1, 1, 0.5, 0), answer(2, 2, 0.3, 0), answer(3, 9, 0.01, 0)} {
		p.admit(a)
	}
	// RIFs 5, 1, 2, 9: the median (rank 2 of 4) is 2: 5 and 9 are hot.
	if thr := p.threshold(); thr != 2 {
		t.Fatalf("threshold %d, want 2", thr)
	}
	if k := p.hcl(2); p.pool[k].tier != 2 {
		t.Errorf("chose tier %d, want 2: the cold one of lowest latency (3 is faster but hot)", p.pool[k].tier)
	}
	// All hot against a history of low RIFs: the lowest RIF, whatever its latency.
	q := newTestPrequal(tiers, func(c *PrequalConfig) { c.QRIF, c.Remove = 0.84, 0 })
	for range 20 {
		q.hist.add(1)
	}
	q.pool = append(q.pool, answer(0, 7, 0.01, 0), answer(1, 4, 0.9, 0), answer(2, 6, 0.02, 0))
	thr := q.threshold()
	if thr != 1 {
		t.Fatalf("threshold %d over a history of 1s", thr)
	}
	if k := q.hcl(thr); q.pool[k].tier != 1 {
		t.Errorf("all hot: chose tier %d, want 1 (lowest RIF)", q.pool[k].tier)
	}
	// Latency ties among the cold go to the lower RIF.
	r := newTestPrequal(tiers, func(c *PrequalConfig) { c.QRIF, c.Remove = 1, 0 })
	r.pool = append(r.pool, answer(0, 3, 0.2, 0), answer(1, 2, 0.2, 0), answer(2, 5, 0.3, 0))
	if k := r.hcl(math.MaxInt32); r.pool[k].tier != 1 {
		t.Errorf("equal latency: chose tier %d, want 1 (lower RIF)", r.pool[k].tier)
	}
}

// A probe serves at most b_reuse decisions, is dropped past max_age, and
// a newer answer from its tier replaces it; r_remove more go each
// decision, the oldest and the worst in turn.
func TestPrequalProbeReuseAndAgeing(t *testing.T) {
	tiers := identicalTiers(4)
	v := func(now float64) *dispatch.View { return view(now, tiers, make([]dispatch.State, 4)...) }
	p := newTestPrequal(tiers, func(c *PrequalConfig) { c.Reuse, c.Remove, c.MaxAge = 2, 0, 0.5 })
	p.rProbe = 0 // no new probes: the pool alone
	a := answer(3, 0, 0.1, 0)
	a.uses = 2
	p.admit(a)
	for k := range 2 {
		if i := p.Decide(v(0.1)).Tier; i != 3 {
			t.Fatalf("use %d: tier %d", k, i)
		}
	}
	if len(p.pool) != 0 {
		t.Errorf("after 2 uses of reuse 2: pool %+v", p.pool)
	}
	p.admit(answer(2, 0, 0.1, 0))
	p.expire(0.5)
	if len(p.pool) != 1 {
		t.Errorf("a probe read at 0 is 0.5 old at 0.5: dropped before max_age")
	}
	p.expire(0.5001)
	if len(p.pool) != 0 {
		t.Errorf("a probe read at 0 kept past max_age 0.5")
	}
	p.admit(answer(1, 4, 0.1, 1))
	p.admit(answer(1, 2, 0.3, 2))
	if len(p.pool) != 1 || p.pool[0].rif != 2 {
		t.Errorf("a newer answer of tier 1: pool %+v", p.pool)
	}
	// The oldest, then the worst (the hot one of highest RIF), then the
	// oldest again.
	q := newTestPrequal(tiers, func(c *PrequalConfig) { c.Remove, c.QRIF = 1, 0.5 })
	q.rProbe = 0
	for _, x := range []probeAnswer{answer(0, 1, 0.1, 0.3), answer(1, 8, 0.1, 0.1), answer(2, 3, 0.9, 0.2), answer(3, 2, 0.05, 0.4)} {
		q.admit(x)
	}
	var left [][]int32
	for range 3 {
		q.Decide(v(0.45))
		var tiers []int32
		for _, x := range q.pool {
			tiers = append(tiers, x.tier)
		}
		left = append(left, tiers)
	}
	// RIFs 1, 8, 3, 2, median 2: 8 and 3 are hot. Decision 1 serves tier
	// 3 (cold, 50 ms; its RIF becomes 3) and removes the oldest, tier 1
	// (read at 0.1); decision 2 serves tier 0 (the one cold left; RIF 2)
	// and removes the worst, the hot one of highest RIF, tier 2 (3, the
	// first of the two 3s); decision 3 serves tier 0 and removes the
	// oldest, tier 0 (read at 0.3).
	if want := [][]int32{{0, 2, 3}, {0, 3}, {3}}; !slices.EqualFunc(left, want, slices.Equal) {
		t.Errorf("pools after each decision: %v, want %v", left, want)
	}
}

// The default reuse budget: 1 + δ/((1 − m/n)·r_probe − r_remove), the
// cap where the pool cannot be kept full.
func TestPrequalReuseBudget(t *testing.T) {
	for _, c := range []struct {
		m, n, r, rm int
		delta, want float64
	}{
		{16, 1000, 3, 1, 1, 1 + 1/(0.984*3-1)},
		{16, 32, 3, 1, 1, 1 + 1/(0.5*3-1)},
		{16, 10, 3, 1, 1, prequalMaxReuse},
		{16, 100, 1, 1, 1, prequalMaxReuse},
		{16, 1000, 4, 0, 0, 1},
	} {
		if got := reuseBudget(c.m, c.n, c.r, c.rm, c.delta); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("m %d n %d r_probe %d r_remove %d δ %v: %v, want %v", c.m, c.n, c.r, c.rm, c.delta, got, c.want)
		}
	}
}

// The latency a probe reports is the median of the tier's recorded
// server-side latencies (wait + service) of queries sent at a RIF within
// one of the probe's and completed within the last latency_window (1 s);
// with none, those of the nearest lower RIF that has some (latency grows
// with RIF, so a lower RIF's is a lower bound rather than none); 0 when no
// RIF below has any either. The record keeps the last K a RIF value.
func TestPrequalLatencyEstimate(t *testing.T) {
	tiers := identicalTiers(2)
	p := newTestPrequal(tiers, func(c *PrequalConfig) { c.Samples = 4 })
	if m := p.estimate(1, 0, 0); m != 0 {
		t.Errorf("no record: %v", m)
	}
	// Tasks 0..4 sent to tier 1 at RIFs 0, 5, 1, 2, 9, with latencies 9,
	// 1, 3, 2, 7.
	for k, x := range []struct {
		rif int32
		lat float64
	}{{0, 9}, {5, 1}, {1, 3}, {2, 2}, {9, 7}} {
		p.sent.put(k, x.rif)
		p.Done(&dispatch.Completion{Task: k, Tier: 1, Wait: x.lat / 2, Service: x.lat / 2, Latency: x.lat + 7})
	}
	for _, c := range []struct {
		rif  int
		want float64
	}{{0, 9}, {1, 3}, {2, 3}, {3, 2}, {4, 1}, {6, 1}, {7, 1}, {9, 7}, {20, 7}} {
		if m := p.estimate(1, c.rif, 0.5); m != c.want {
			t.Errorf("estimate at RIF %d: %v, want %v", c.rif, m, c.want)
		}
	}
	if m := p.estimate(1, 2, 1.01); m != 0 {
		t.Errorf("every record older than the window: %v", m)
	}
	// A completion the balancer did not send (or was told twice) adds nothing.
	p.Done(&dispatch.Completion{Task: 3, Tier: 1, Wait: 100})
	if m := p.estimate(1, 2, 0.5); m != 3 {
		t.Errorf("after a stray completion: %v", m)
	}
	// RIF 2's bucket keeps its last 4 of 10, 11, 12, 13, 14.
	for k := range 5 {
		p.sent.put(10+k, 2)
		p.Done(&dispatch.Completion{Task: 10 + k, Tier: 1, Service: float64(10 + k)})
	}
	if m := p.estimate(1, 2, 0.5); m != 12 { // 3, 11, 12, 13, 14
		t.Errorf("after the bucket's ring turned: %v", m)
	}
	// Many outstanding: the table grows and loses none.
	for k := range 1000 {
		p.sent.put(100+k, int32(k))
	}
	for k := range 1000 {
		if r, ok := p.sent.take(100 + k); !ok || r != int32(k) {
			t.Fatalf("task %d: %v %v", 100+k, r, ok)
		}
	}
}
