package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/lb"
	"github.com/offload-sim/offload/internal/pick"
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
// (pick.MinTree), ready and busy, and a tier goes from busy to ready when t
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

	ready, busy pick.MinTree
	isBusy      []bool
	ready0      []float64   // D̄_i + 1/μ_i, tier i's key in ready
	due         lb.DueTimes // busy tiers by F_i − D̄_i (an entry may be stale)
}

// newLWL returns a least-work-left policy for these tiers, drawing ties
// from rng.
func newLWL(tiers []dispatch.Tier, rng *rand.Rand) *lwl {
	n := len(tiers)
	p := &lwl{free: make([]fcfs.Servers, n), delay: make([]float64, n),
		svc: make([]float64, n), speed: make([]float64, n), rng: rng,
		isBusy: make([]bool, n), ready0: make([]float64, n)}
	p.ready.Reset(n)
	p.busy.Reset(n)
	for i, t := range tiers {
		p.free[i] = fcfs.New(t.Servers)
		p.delay[i], p.svc[i], p.speed[i] = t.MeanDelay, 1/t.Mu, t.Speed
		p.ready0[i] = t.MeanDelay + 1/t.Mu
		p.ready.Put(i, p.ready0[i]) // every server free at 0
	}
	p.ready.Build()
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
	for p.due.Len() > 0 && p.due.Next() <= t { // tiers free by the reach of a task sent now
		i := p.due.Pop()
		if p.isBusy[i] && p.free[i].Free()-p.delay[i] <= t {
			p.isBusy[i] = false
			p.busy.Unset(i)
			p.ready.Set(i, p.ready0[i])
		}
	}
	a, ca := p.ready.Min()
	b, cb := p.busy.Min()
	b -= t
	var tier int
	switch {
	case cb == 0 || ca > 0 && a < b:
		tier = p.ready.Pick(p.rng)
	case ca == 0 || b < a:
		tier = p.busy.Pick(p.rng)
	default: // a tie across the trees
		if r := p.rng.IntN(ca + cb); r < ca {
			tier = p.ready.PickAt(r)
		} else {
			tier = p.busy.PickAt(r - ca)
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
		p.ready.Unset(tier)
	}
	p.busy.Set(tier, f+p.svc[tier])
	p.due.Push(f-p.delay[tier], tier)
}
