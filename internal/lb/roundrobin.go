package lb

import (
	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy = (*roundRobin)(nil)
	_ dispatch.Blind  = (*roundRobin)(nil)
	_ dispatch.Policy = (*weightedRoundRobin)(nil)
	_ dispatch.Blind  = (*weightedRoundRobin)(nil)
)

// StartTier is where balancer d of k in front of n tiers starts its
// rotation: ⌊d·n/k⌋, so that the first balancer starts at tier 0 and k
// balancers started together spread their first requests evenly over the
// pool rather than all sending their first to tier 0 (d = 0 and k = 1 when
// the caller has a single balancer).
func StartTier(d, k, n int) int {
	if k <= 1 || d <= 0 {
		return 0
	}
	return int(int64(d) * int64(n) / int64(k) % int64(n))
}

// roundRobin sends the tasks to the tiers in turn, 0, 1, …, n−1, 0, …
// from its start tier: HAProxy's `balance roundrobin` and nginx's default
// with equal weights, where both are exactly cyclic. It reads nothing.
type roundRobin struct {
	n, next int
}

// NewRoundRobin returns round-robin over n tiers, its rotation beginning
// at tier start.
func NewRoundRobin(n, start int) dispatch.Policy {
	return &roundRobin{n: n, next: start}
}

// Blind implements dispatch.Blind: a counter.
func (*roundRobin) Blind() {}

// Decide implements dispatch.Policy.
func (p *roundRobin) Decide(*dispatch.View) dispatch.Decision {
	i := p.next
	if p.next++; p.next == p.n {
		p.next = 0
	}
	return dispatch.Decision{Tier: i}
}

// weightedRoundRobin is nginx's smooth weighted round-robin
// (ngx_http_upstream_get_peer, src/http/ngx_http_upstream_round_robin.c):
// at each request every server's current weight grows by its weight, the
// server of the largest current weight is chosen (the first in list order
// on a tie) and its current weight loses the total of the weights. Over
// every W = Σ w requests each server gets exactly its weight, interleaved
// (weights 5, 1, 1 give a a b a c a a).
//
// It gives nginx's sequence without nginx's pass over every server. After t
// requests a server's current weight is t·w − W·k, k its choices so far, so
// among servers of one weight the one chosen is the one of fewest choices,
// the first in list order on a tie: servers of one weight take their turns
// in list order. So the servers are grouped by weight, each group keeps the
// position of its next server and its completed rounds, and a decision
// compares one candidate a group: O(G) for G distinct weights (at most 256,
// balancer.MaxWeight), whatever the number of tiers.
//
// The list is the tiers rotated to begin at the balancer's start tier
// (StartTier), so that several balancers do not all begin with tier 0.
type weightedRoundRobin struct {
	total  int64 // W
	t      int64 // requests so far
	start  int   // list position 0 is this tier
	n      int
	groups []wrrGroup
}

// wrrGroup is the servers of one weight, in list order.
type wrrGroup struct {
	w       int64
	members []int // list positions
	next    int   // members[next] is the group's candidate
	rounds  int64 // completed turns of the whole group: every member's k is rounds or rounds+1
}

// NewWeightedRoundRobin returns nginx's smooth weighted round-robin over
// tiers of these integer weights (> 0), its list beginning at tier start.
func NewWeightedRoundRobin(w []int, start int) dispatch.Policy {
	return newWeightedRoundRobin(w, start)
}

// newWeightedRoundRobin returns nginx's smooth weighted round-robin over
// tiers of these integer weights (> 0), its list beginning at tier start.
func newWeightedRoundRobin(w []int, start int) *weightedRoundRobin {
	p := &weightedRoundRobin{start: start, n: len(w)}
	byWeight := map[int]int{}
	for pos := range w {
		x := w[(pos+start)%len(w)]
		p.total += int64(x)
		g, ok := byWeight[x]
		if !ok {
			g = len(p.groups)
			byWeight[x] = g
			p.groups = append(p.groups, wrrGroup{w: int64(x)})
		}
		p.groups[g].members = append(p.groups[g].members, pos)
	}
	return p
}

// Blind implements dispatch.Blind: the schedule reads no state.
func (*weightedRoundRobin) Blind() {}

// Decide implements dispatch.Policy.
func (p *weightedRoundRobin) Decide(*dispatch.View) dispatch.Decision {
	p.t++
	best, bestPos := -1, 0
	var bestCur int64
	for gi := range p.groups {
		g := &p.groups[gi]
		pos := g.members[g.next]
		cur := p.t*g.w - p.total*g.rounds // the candidate's current weight, before it is chosen
		if best < 0 || cur > bestCur || cur == bestCur && pos < bestPos {
			best, bestPos, bestCur = gi, pos, cur
		}
	}
	g := &p.groups[best]
	if g.next++; g.next == len(g.members) {
		g.next, g.rounds = 0, g.rounds+1
	}
	return dispatch.Decision{Tier: (bestPos + p.start) % p.n}
}
