package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/pick"
)

var (
	_ dispatch.Policy     = (*jiq)(nil)
	_ dispatch.IdleReader = (*jiq)(nil)
)

// jiq joins the idle queue (docs/design.md §3.7): among the tiers with an
// idle server in the view (Busy < Servers and nothing queued), the one of
// smallest D̄ + 1/μ, ties uniformly at random; when none is idle, a
// uniformly random tier. Tasks in transit do not count, so several tasks
// may head for the same idle server; that is the rule's known weakness
// with delays, kept as the baseline is usually stated.
//
// Its idle list (pick.IdleSet) follows the view's changes: a tier joins it
// when it goes idle and leaves it when it fills, as the idle queue of Lu
// et al. ("Join-Idle-Queue", Performance Evaluation 68(11), 2011) is told
// by the servers, so that a decision costs O(1) of the tiers but the
// changes since the previous one. It reads of the states only which tiers
// are idle (dispatch.IdleReader): a simulator that keeps that list itself
// (View.Idle) counts no tier for it.
type jiq struct {
	base  []float64 // D̄_i + 1/μ_i: the keys
	rng   *rand.Rand
	set   *pick.IdleSet
	stale bool // an untracked decision was scanned: set's bits are old
}

// newJIQ returns a join-the-idle-queue policy for these tiers, drawing its
// choices from rng.
func newJIQ(tiers []dispatch.Tier, rng *rand.Rand) *jiq {
	p := &jiq{base: make([]float64, len(tiers)), rng: rng, stale: true}
	for i, t := range tiers {
		p.base[i] = t.MeanDelay + 1/t.Mu
	}
	p.set = pick.NewIdleSet(p.base)
	return p
}

func buildJIQ(b Build) (dispatch.Policy, error) { return newJIQ(b.Tiers, b.Rand), nil }

// IdleReader implements dispatch.IdleReader: only idleness is read.
func (*jiq) IdleReader() {}

// Decide implements dispatch.Policy. A view that does not track its
// changes is read whole and scanned (pick.MinTree's rule, the same answer for
// the same draw); a tracked one changes the list where it changed.
func (p *jiq) Decide(v *dispatch.View) dispatch.Decision {
	s, on := p.set, p.set.On()
	i := -1
	switch {
	case !v.Tracked:
		for k := range on {
			on[k] = v.IsIdle(k)
		}
		p.stale = true
		i = pick.Scan(p.base, on, p.rng)
	case p.stale:
		for k := range on {
			on[k] = v.IsIdle(k)
		}
		s.Rebuild()
		p.stale = false
		i = s.Pick(p.rng)
	default:
		for _, k := range v.Changed {
			if v.IsIdle(k) {
				s.Add(k)
			} else {
				s.Remove(k)
			}
		}
		i = s.Pick(p.rng)
	}
	if i >= 0 {
		return dispatch.Decision{Tier: i}
	}
	return dispatch.Decision{Tier: p.rng.IntN(len(p.base))}
}
