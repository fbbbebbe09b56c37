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
	obs    dispatch.Observer // inner's, if it observes
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
	if p.obs != nil {
		p.obs.Dispatched(now, tier)
	}
}

// clairvoyantProbe keeps the oracle's capability through the wrapper. (An
// embedded dispatch.Clairvoyant would not do: its field, named Clairvoyant,
// would shadow the promoted method of the same name.)
type clairvoyantProbe struct{ *probe }

// Clairvoyant implements dispatch.Clairvoyant.
func (clairvoyantProbe) Clairvoyant() {}

func newProbe(inner dispatch.Policy, insp policies.Shadow, width float64, ntiers int) dispatch.Policy {
	p := &probe{inner: inner, insp: insp, width: width, ntiers: ntiers}
	p.obs, _ = inner.(dispatch.Observer)
	if _, ok := inner.(dispatch.Clairvoyant); ok {
		return clairvoyantProbe{p}
	}
	return p
}
