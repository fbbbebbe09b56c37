package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
)

var (
	_ dispatch.Policy      = (*lwl)(nil)
	_ dispatch.Observer    = (*lwl)(nil)
	_ dispatch.Clairvoyant = (*lwl)(nil)
)

// lwl is least work left with delays (docs/design.md §3.7): the task goes
// to the tier where it would finish soonest in expectation,
//
//	argmin_i  D̄_i + max(0, F_i − t − D̄_i) + 1/μ_i
//
// where F_i is the earliest time a server of tier i is free given the work
// this dispatcher has sent there. F_i comes from a workload vector per tier
// (fcfs.Servers) fed with (t + D̄_i, size/s_i) of every task dispatched:
// the mean delay stands for the realised one, and the task being decided
// counts only by its mean service 1/μ_i, not its size.
//
// It is dispatch.Clairvoyant only to learn each dispatched task's size: it
// reads v.Oracle.TaskSize() at the decision and files it under the chosen
// tier when told of the dispatch. A real dispatcher could have that size
// after dispatch (from the tier's reply or the request's payload); this one
// has it at once, and never uses it to choose the task's own tier.
//
// Without delays over single-server tiers this is exactly the rule of one
// FCFS queue in front of all the servers (the task takes the server that
// frees first), which its test checks against the engine.
//
// The score is D̄_i + 1/μ_i for a tier free by the task's expected reach
// (F_i − D̄_i ≤ t) and F_i + 1/μ_i − t for the others: the same numbers
// split in two, each a key that does not move with t (the second moves by
// the same −t for every tier). So the tiers sit in two tournament trees
// (minTree), ready and busy, and a tier goes from busy to ready when t
// passes its F_i − D̄_i, which a heap of those times tells: a decision
// costs O(log n) of the tiers, not a pass over them. Ties, within a tree
// or across the two, uniformly at random.
type lwl struct {
	free  []fcfs.Servers
	delay []float64 // D̄_i
	svc   []float64 // 1/μ_i
	speed []float64
	size  float64 // the task being decided
	rng   *rand.Rand

	ready, busy minTree
	isBusy      []bool
	ready0      []float64 // D̄_i + 1/μ_i, tier i's key in ready
	due         dueTimes  // busy tiers by F_i − D̄_i (an entry may be stale)
}

// newLWL returns a least-work-left policy for these tiers, drawing ties
// from rng.
func newLWL(tiers []dispatch.Tier, rng *rand.Rand) *lwl {
	n := len(tiers)
	p := &lwl{free: make([]fcfs.Servers, n), delay: make([]float64, n),
		svc: make([]float64, n), speed: make([]float64, n), rng: rng,
		isBusy: make([]bool, n), ready0: make([]float64, n)}
	p.ready.reset(n)
	p.busy.reset(n)
	for i, t := range tiers {
		p.free[i] = fcfs.New(t.Servers)
		p.delay[i], p.svc[i], p.speed[i] = t.MeanDelay, 1/t.Mu, t.Speed
		p.ready0[i] = t.MeanDelay + 1/t.Mu
		p.ready.put(i, p.ready0[i]) // every server free at 0
	}
	p.ready.build()
	return p
}

func buildLWL(b Build) (dispatch.Policy, error) { return newLWL(b.Tiers, b.Rand), nil }

// Clairvoyant marks LWL as needing View.Oracle (for the sizes of the tasks
// it dispatches).
func (*lwl) Clairvoyant() {}

// Blind implements dispatch.Blind: LWL keeps its own workload vectors.
func (*lwl) Blind() {}

// Decide implements dispatch.Policy. It panics if v.Oracle is nil.
func (p *lwl) Decide(v *dispatch.View) dispatch.Decision {
	if v.Oracle == nil {
		panic("policies: lwl decided without View.Oracle; the caller must set it for dispatch.Clairvoyant policies")
	}
	p.size = v.Oracle.TaskSize()
	t := v.Now
	for p.due.len() > 0 && p.due.next() <= t { // tiers free by the reach of a task sent now
		i := p.due.pop()
		if p.isBusy[i] && p.free[i].Free()-p.delay[i] <= t {
			p.isBusy[i] = false
			p.busy.unset(i)
			p.ready.set(i, p.ready0[i])
		}
	}
	a, ca := p.ready.min()
	b, cb := p.busy.min()
	b -= t
	var tier int
	switch {
	case cb == 0 || ca > 0 && a < b:
		tier = p.ready.pick(p.rng)
	case ca == 0 || b < a:
		tier = p.busy.pick(p.rng)
	default: // a tie across the trees
		if r := p.rng.IntN(ca + cb); r < ca {
			tier = p.ready.pickAt(r)
		} else {
			tier = p.busy.pickAt(r - ca)
		}
	}
	return dispatch.Decision{Tier: tier}
}

// Dispatched adds the task just decided to tier's workload vector, as
// reaching it at now + D̄, and files the tier as busy until the new F − D̄.
func (p *lwl) Dispatched(now float64, tier int) {
	p.free[tier].Serve(now+p.delay[tier], p.size/p.speed[tier])
	f := p.free[tier].Free()
	if !p.isBusy[tier] {
		p.isBusy[tier] = true
		p.ready.unset(tier)
	}
	p.busy.set(tier, f+p.svc[tier])
	p.due.push(f-p.delay[tier], tier)
}

// dueTimes is a binary min-heap of (time, tier): when each busy tier
// becomes ready. A tier dispatched to again gets a new entry; its old one,
// earlier, comes out first and is passed over when the tier is still
// busy then.
type dueTimes struct {
	t    []float64
	tier []int
}

func (h *dueTimes) len() int           { return len(h.t) }
func (h *dueTimes) next() float64      { return h.t[0] }
func (h *dueTimes) less(i, j int) bool { return h.t[i] < h.t[j] }
func (h *dueTimes) swap(i, j int) {
	h.t[i], h.t[j] = h.t[j], h.t[i]
	h.tier[i], h.tier[j] = h.tier[j], h.tier[i]
}

func (h *dueTimes) push(t float64, tier int) {
	h.t, h.tier = append(h.t, t), append(h.tier, tier)
	for i := len(h.t) - 1; i > 0; {
		up := (i - 1) / 2
		if !h.less(i, up) {
			break
		}
		h.swap(i, up)
		i = up
	}
}

func (h *dueTimes) pop() int {
	top := h.tier[0]
	n := len(h.t) - 1
	h.swap(0, n)
	h.t, h.tier = h.t[:n], h.tier[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h.swap(i, m)
		i = m
	}
	return top
}
