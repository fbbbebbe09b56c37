package lb

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/offload-sim/offload/internal/balancer"
	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy   = (*p2c)(nil)
	_ dispatch.Blind    = (*p2c)(nil)
	_ dispatch.Feedback = (*p2c)(nil)
	_ dispatch.Policy   = (*leastRequest)(nil)
	_ dispatch.Blind    = (*leastRequest)(nil)
	_ dispatch.Feedback = (*leastRequest)(nil)
)

// outstanding is a balancer's own count of its requests at each tier: +1
// at its decision, −1 at the completion it is told.
type outstanding []int32

func (o outstanding) done(i int) {
	if o[i] > 0 {
		o[i]--
	}
}

// end applies an attempt's end to the counts: it no longer counts at its
// tier; or, Moved, it counts at its tier rather than the one chosen. It
// reports whether the attempt moved.
func (o outstanding) end(c *dispatch.Completion) bool {
	if c.Outcome == dispatch.Moved {
		o.done(c.From)
		o[c.Tier]++
		return true
	}
	o.done(c.Tier)
	return false
}

// p2c draws d tiers at random and sends the task to the one where this
// balancer has the fewest requests outstanding: Envoy's LEAST_REQUEST with
// equal weights (LeastRequestLoadBalancer::unweightedHostPick), gRPC's
// least_request (gRFC A48) and HAProxy's `balance random(2)`. As in all
// three the d draws are independent (with replacement) and a later draw
// replaces the candidate only when it has strictly fewer, so a tie keeps
// the earlier draw (HAProxy keeps the later one, the same in law). With
// weights, as HAProxy and nginx's `random two` weigh them, a tier is drawn
// with probability proportional to its weight and the loads compared are
// outstanding / weight. The draws option models the real programs' draws
// (docs/emulation.md, "Real balancers"): haproxy draws each tier with the
// chance HAProxy's consistent-hash ring gives it
// (balancer.HAProxyRandomShares), not in proportion to its weight; distinct
// draws the d tiers distinct from one another, as nginx's `random two
// least_conn` does, each later draw repeated while it falls on a tier
// already drawn, at most 20 times (nginx's bound), after which the tiers
// drawn so far decide.
type p2c struct {
	d        int
	active   outstanding
	w        []int64 // nil: equal weights
	prob     []float64
	alias    []int32 // nil: uniform draws
	distinct bool
	drawn    []int // this decision's draws, when distinct
	rng      *rand.Rand
}

const maxRedraws = 20 // nginx's tries for a second, distinct peer

// Draws is how p2c draws its d tiers.
type Draws int

const (
	// DrawWeights draws each tier in proportion to its weight, the draws
	// independent (Envoy, gRPC).
	DrawWeights Draws = iota
	// DrawHAProxy draws each tier with the chance HAProxy's hash ring
	// gives it (balancer.HAProxyRandomShares).
	DrawHAProxy
	// DrawDistinct draws the d tiers distinct, as nginx's random two.
	DrawDistinct
)

// NewP2C returns the power of d choices on a balancer's own counts over
// tiers of these integer weights (> 0), drawing as draws says from rng.
func NewP2C(w []int, d int, draws Draws, rng *rand.Rand) dispatch.Policy {
	p := newP2C(w, d, rng)
	switch draws {
	case DrawHAProxy:
		p.prob, p.alias = AliasTable(balancer.HAProxyRandomShares(w))
	case DrawDistinct:
		p.distinct, p.drawn = true, make([]int, 0, p.d)
	}
	return p
}

// newP2C returns the power of d choices on a balancer's own counts over
// tiers of these weights, drawing from rng.
func newP2C(w []int, d int, rng *rand.Rand) *p2c {
	p := &p2c{d: d, active: make(outstanding, len(w)), rng: rng}
	if !allEqual(w) {
		p.w = make([]int64, len(w))
		q := make([]float64, len(w))
		total := 0.0
		for i, x := range w {
			p.w[i], total = int64(x), total+float64(x)
		}
		for i, x := range w {
			q[i] = float64(x) / total
		}
		p.prob, p.alias = AliasTable(q)
	}
	return p
}

// draw is a tier: uniform with equal weights, else in proportion to its
// weight or with the chances of the draws option (Vose's alias table, one
// uniform).
func (p *p2c) draw() int {
	if p.alias == nil {
		return p.rng.IntN(len(p.active))
	}
	x := p.rng.Float64() * float64(len(p.prob))
	i := min(int(x), len(p.prob)-1)
	if x-float64(i) < p.prob[i] {
		return i
	}
	return int(p.alias[i])
}

// fewer reports whether tier a is less loaded than tier b: fewer
// outstanding, or fewer a unit of weight.
func (p *p2c) fewer(a, b int) bool {
	if p.w == nil {
		return p.active[a] < p.active[b]
	}
	return int64(p.active[a])*p.w[b] < int64(p.active[b])*p.w[a]
}

// allEqual reports whether every weight is the same.
func allEqual(w []int) bool {
	for _, x := range w {
		if x != w[0] {
			return false
		}
	}
	return true
}

// Blind implements dispatch.Blind: the counts are the balancer's own.
func (*p2c) Blind() {}

// Decide implements dispatch.Policy.
func (p *p2c) Decide(*dispatch.View) dispatch.Decision {
	best := p.draw()
	if p.distinct {
		p.drawn = append(p.drawn[:0], best)
	}
	for range p.d - 1 {
		c := p.draw()
		if p.distinct {
			for k := 0; k < maxRedraws && slices.Contains(p.drawn, c); k++ {
				c = p.draw()
			}
			if slices.Contains(p.drawn, c) {
				break
			}
			p.drawn = append(p.drawn, c)
		}
		if p.fewer(c, best) {
			best = c
		}
	}
	p.active[best]++
	return dispatch.Decision{Tier: best}
}

// Done implements dispatch.Feedback: the attempt no longer counts,
// whatever its outcome (Envoy's active requests fall at a reply, an error
// or a timeout alike).
func (p *p2c) Done(c *dispatch.Completion) { p.active.end(c) }

// leastRequest is Envoy's LEAST_REQUEST load balancer
// (source/extensions/load_balancing_policies/least_request). With all
// weights equal it is P2C: choice_count tiers drawn uniformly with
// replacement, the fewest active requests, the first drawn on a tie. With
// unequal weights it is an earliest-deadline-first schedule (EdfScheduler):
// each tier holds one entry of deadline t + 1/weight, the earliest is
// picked (the earlier added on a tie), the schedule's time t becomes its
// deadline, and the tier is added again with its weight computed then,
//
//	weight = load_balancing_weight / (active_requests + 1)^active_request_bias,
//
// active_requests being this balancer's outstanding at the tier before the
// task is counted. Only the picked tier's weight is recomputed: a tier's
// entry keeps the weight it had when last picked, as in Envoy. Both forms
// cost O(choices) or O(log n) a decision.
type leastRequest struct {
	p2c    *p2c // equal weights
	active outstanding
	w      []float64
	bias   float64
	heap   stampHeap // deadline, order of insertion
	now    float64   // the schedule's time: the last picked deadline
	order  int64
}

// NewLeastRequest returns Envoy's least-request balancer over tiers of
// these integer weights (> 0): P2C of d choices when they are equal, else
// the EDF schedule with this active_request_bias.
func NewLeastRequest(w []int, d int, bias float64, rng *rand.Rand) dispatch.Policy {
	return newLeastRequest(w, d, bias, rng)
}

// newLeastRequest returns Envoy's least-request balancer over tiers of
// these weights: P2C of d choices when they are equal, else the EDF
// schedule with this active_request_bias.
func newLeastRequest(w []int, d int, bias float64, rng *rand.Rand) *leastRequest {
	if allEqual(w) {
		return &leastRequest{p2c: newP2C(w, d, rng)}
	}
	n := len(w)
	p := &leastRequest{active: make(outstanding, n), w: make([]float64, n), bias: bias}
	p.heap.init(n)
	for i, x := range w {
		p.w[i] = float64(x)
		p.heap.set(i, 1/p.weight(i), p.order)
		p.order++
	}
	return p
}

// weight is Envoy's hostWeight of tier i now.
func (p *leastRequest) weight(i int) float64 {
	a := float64(p.active[i]) + 1
	switch p.bias {
	case 0:
		return p.w[i]
	case 1:
		return p.w[i] / a
	}
	return p.w[i] / math.Pow(a, p.bias)
}

// Blind implements dispatch.Blind: the counts are the balancer's own.
func (*leastRequest) Blind() {}

// Decide implements dispatch.Policy.
func (p *leastRequest) Decide(v *dispatch.View) dispatch.Decision {
	if p.p2c != nil {
		return p.p2c.Decide(v)
	}
	i := p.heap.top()
	p.now = p.heap.key[i]
	p.heap.set(i, p.now+1/p.weight(i), p.order)
	p.order++
	p.active[i]++
	return dispatch.Decision{Tier: i}
}

// Done implements dispatch.Feedback: the count falls; the schedule does not
// move until the tier is picked again.
func (p *leastRequest) Done(c *dispatch.Completion) {
	if p.p2c != nil {
		p.p2c.Done(c)
		return
	}
	p.active.end(c)
}
