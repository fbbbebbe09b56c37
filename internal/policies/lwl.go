package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
)

var (
	_ dispatch.Policy      = (*LWL)(nil)
	_ dispatch.Observer    = (*LWL)(nil)
	_ dispatch.Clairvoyant = (*LWL)(nil)
)

// LWL is least work left with delays (docs/design.md §3.7): the task goes
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
type LWL struct {
	free  []fcfs.Servers
	delay []float64 // D̄_i
	svc   []float64 // 1/μ_i
	speed []float64
	size  float64 // the task being decided
	rng   *rand.Rand
}

// NewLWL returns a least-work-left policy for these tiers, drawing ties
// from rng.
func NewLWL(tiers []dispatch.Tier, rng *rand.Rand) *LWL {
	p := &LWL{free: make([]fcfs.Servers, len(tiers)), delay: make([]float64, len(tiers)),
		svc: make([]float64, len(tiers)), speed: make([]float64, len(tiers)), rng: rng}
	for i, t := range tiers {
		p.free[i] = fcfs.New(t.Servers)
		p.delay[i], p.svc[i], p.speed[i] = t.MeanDelay, 1/t.Mu, t.Speed
	}
	return p
}

func newLWL(b Build) (dispatch.Policy, error) { return NewLWL(b.Tiers, b.Rand), nil }

// Clairvoyant marks LWL as needing View.Oracle (for the sizes of the tasks
// it dispatches).
func (*LWL) Clairvoyant() {}

// Blind implements dispatch.Blind: LWL keeps its own workload vectors.
func (*LWL) Blind() {}

// Decide implements dispatch.Policy. It panics if v.Oracle is nil.
func (p *LWL) Decide(v *dispatch.View) dispatch.Decision {
	if v.Oracle == nil {
		panic("policies: lwl decided without View.Oracle; the caller must set it for dispatch.Clairvoyant policies")
	}
	p.size = v.Oracle.TaskSize()
	var m argmin
	for i := range p.free {
		m.offer(i, p.delay[i]+max(0, p.free[i].Free()-v.Now-p.delay[i])+p.svc[i], p.rng)
	}
	return dispatch.Decision{Tier: m.best}
}

// Dispatched adds the task just decided to tier's workload vector, as
// reaching it at now + D̄.
func (p *LWL) Dispatched(now float64, tier int) {
	p.free[tier].Serve(now+p.delay[tier], p.size/p.speed[tier])
}
