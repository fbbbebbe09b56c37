package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
)

var _ dispatch.Policy = (*jiq)(nil)

// jiq joins the idle queue (docs/design.md §3.7): among the tiers with an
// idle server in the view (Busy < Servers and nothing queued), the one of
// smallest D̄ + 1/μ, ties uniformly at random; when none is idle, a
// uniformly random tier. Tasks in transit do not count, so several tasks
// may head for the same idle server; that is the rule's known weakness
// with delays, kept as the baseline is usually stated.
//
// Its idle list is a tournament tree over the idle tiers' D̄ + 1/μ (a busy
// tier is absent from it), which follows the view's changes: a tier joins
// it when it goes idle and leaves it when it fills, as the idle queue of
// Lu et al. ("Join-Idle-Queue", Performance Evaluation 68(11), 2011) is
// told by the servers, so that a decision costs O(log n) of the tiers.
type jiq struct {
	base []float64 // D̄_i + 1/μ_i: the keys of the tree
	idle []bool    // tier i is in the idle list
	rng  *rand.Rand
	tree minTree
}

// newJIQ returns a join-the-idle-queue policy for these tiers, drawing its
// choices from rng.
func newJIQ(tiers []dispatch.Tier, rng *rand.Rand) *jiq {
	p := &jiq{base: make([]float64, len(tiers)), idle: make([]bool, len(tiers)), rng: rng}
	for i, t := range tiers {
		p.base[i] = t.MeanDelay + 1/t.Mu
	}
	return p
}

func buildJIQ(b Build) (dispatch.Policy, error) { return newJIQ(b.Tiers, b.Rand), nil }

// Decide implements dispatch.Policy.
func (p *jiq) Decide(v *dispatch.View) dispatch.Decision {
	if p.tree.all(v.Tracked, len(p.base)) {
		for i := range p.idle {
			p.idle[i] = v.States[i].Busy < v.Tiers[i].Servers && v.States[i].Queued == 0
		}
	} else {
		for _, i := range v.Changed {
			p.idle[i] = v.States[i].Busy < v.Tiers[i].Servers && v.States[i].Queued == 0
		}
	}
	if i := p.tree.decide(p.base, p.idle, v.Changed, v.Tracked, p.rng); i >= 0 {
		return dispatch.Decision{Tier: i}
	}
	return dispatch.Decision{Tier: p.rng.IntN(len(p.base))}
}
