package experiment

import (
	"math"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/policies"
)

// probe wraps a policy to sample, at the first decision of each time window,
// what an estimator makes of every tier (λ̂, β, ρ̂). The estimator is a hybrid
// shadow fed the wrapped policy's dispatches, so the burst experiment shows
// the same quantities for every policy, estimator-driven or not.
type probe struct {
	inner  dispatch.Policy
	caps   dispatch.Capabilities // inner's
	insp   policies.Shadow
	width  float64
	next   float64   // start of the next window to sample
	sample []float64 // per window: λ̂, β, ρ̂ for each tier, flattened
	ntiers int
}

// Decide samples at the first decision of a window, then lets the inner
// policy decide. A window without a decision gets no sample (NaN): a later
// decision describes its own window, not the empty ones before it.
func (p *probe) Decide(v *dispatch.View) dispatch.Decision {
	for v.Now >= p.next+p.width { // windows that passed without a decision
		for range 3 * p.ntiers {
			p.sample = append(p.sample, math.NaN())
		}
		p.next += p.width
	}
	if v.Now >= p.next {
		for i := range p.ntiers {
			l, b, r := p.insp.(policies.Inspector).Inspect(v, i)
			p.sample = append(p.sample, l, b, r)
		}
		p.next += p.width
	}
	return p.inner.Decide(v)
}

// Dispatched feeds the shadow estimator and the inner policy's own.
func (p *probe) Dispatched(now float64, tier int) {
	p.insp.Dispatched(now, tier)
	if p.caps.Observer != nil {
		p.caps.Observer.Dispatched(now, tier)
	}
}

// newProbe wraps inner in a probe of the estimator insp, sampled every
// width seconds over ntiers tiers.
func newProbe(inner dispatch.Policy, insp policies.Shadow, width float64, ntiers int) dispatch.Policy {
	return &probe{inner: inner, caps: dispatch.CapabilitiesOf(inner), insp: insp, width: width, ntiers: ntiers}
}

// Capabilities implements dispatch.Capable: the inner policy's, but the
// probe observes every dispatch (to feed its estimator, then the inner
// policy's observer), and its estimator reads every tier's counts, so that
// the view must be counted whatever the inner policy reads.
func (p *probe) Capabilities() dispatch.Capabilities {
	c := p.caps
	c.Observer = p
	c.Blind, c.Sampler, c.Idle = false, false, false
	return c
}

// probeOf is the probe that pol is, nil if none.
func probeOf(pol dispatch.Policy) *probe {
	pr, _ := pol.(*probe)
	return pr
}
