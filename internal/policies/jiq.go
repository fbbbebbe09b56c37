package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
)

var _ dispatch.Policy = (*JIQ)(nil)

// JIQ joins the idle queue (docs/design.md §3.7): among the tiers with an
// idle server in the view (Busy < Servers and nothing queued), the one of
// smallest D̄ + 1/μ, ties uniformly at random; when none is idle, a
// uniformly random tier. Tasks in transit do not count, so several tasks
// may head for the same idle server; that is the rule's known weakness
// with delays, kept as the baseline is usually stated.
type JIQ struct {
	base []float64 // D̄_i + 1/μ_i
	rng  *rand.Rand
}

// NewJIQ returns a join-the-idle-queue policy for these tiers, drawing its
// choices from rng.
func NewJIQ(tiers []dispatch.Tier, rng *rand.Rand) *JIQ {
	p := &JIQ{base: make([]float64, len(tiers)), rng: rng}
	for i, t := range tiers {
		p.base[i] = t.MeanDelay + 1/t.Mu
	}
	return p
}

func newJIQ(b Build) (dispatch.Policy, error) { return NewJIQ(b.Tiers, b.Rand), nil }

// Decide implements dispatch.Policy.
func (p *JIQ) Decide(v *dispatch.View) dispatch.Decision {
	var m argmin
	for i, s := range v.States {
		if s.Busy < v.Tiers[i].Servers && s.Queued == 0 {
			m.offer(i, p.base[i], p.rng)
		}
	}
	if m.ties == 0 {
		return dispatch.Decision{Tier: p.rng.IntN(len(p.base))}
	}
	return dispatch.Decision{Tier: m.best}
}
