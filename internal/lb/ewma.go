package lb

import (
	"math"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy   = (*ewma)(nil)
	_ dispatch.Blind    = (*ewma)(nil)
	_ dispatch.Feedback = (*ewma)(nil)
)

// ewmaPenalty is Finagle's load of a tier with requests outstanding and no
// latency yet: Long.MaxValue >> 16.
const ewmaPenalty = float64(math.MaxInt64 >> 16)

// ewma is the latency-aware power of two choices of Finagle
// (com.twitter.finagle.loadbalancer.PeakEwma, Balancers.p2cPeakEwma) and of
// Linkerd's proxy (tower::load::PeakEwma under tower::balance::p2c). Each
// tier has a cost, a moving average of the response times this balancer
// measured there, decayed with time since its last update t₀ on an
// unevenly spaced series (Eckner): an observation x at t sets
//
//	cost ← cost·w + x·(1 − w),  w = exp(−(t − t₀)/τ),
//
// and with the peak rule (peak-ewma) an x above the cost replaces it, so
// the cost jumps to a latency peak and decays from it. Reading a tier's
// load observes 0 at the read's instant (the cost decays towards 0 while
// nothing is measured), and the load is cost × (outstanding + 1). Two
// distinct tiers are drawn uniformly and the one of smaller load is
// chosen, the first drawn on a tie (Finagle's P2C, tower's p2c).
//
// Before a tier has any latency sample, Finagle's cost is 0: its load is 0
// while nothing is outstanding there and a penalty (2⁴⁷) plus the
// outstanding count once something is; tower starts the cost at a default
// RTT instead (Linkerd's: 30 ms). The default_rtt option takes tower's
// rule with that value; without it the rule is Finagle's. ewma is the same
// without the peak rule (ours: the ablation of that rule).
type ewma struct {
	peak    bool
	tau     float64
	cost    []float64
	stamp   []float64 // when the cost last observed something
	pending outstanding
	finagle bool // no default_rtt: Finagle's rule before a first sample
	rng     *rand.Rand
}

// NewEWMA returns the (peak, if peak) EWMA balancer over n tiers, of decay
// time tau (s); defaultRTT > 0 starts every cost there (tower's rule), 0
// starts it at 0 (Finagle's).
func NewEWMA(n int, peak bool, tau, defaultRTT float64, rng *rand.Rand) dispatch.Policy {
	return newEWMA(n, peak, tau, defaultRTT, rng)
}

// newEWMA returns the (peak, if peak) EWMA balancer over n tiers, of decay
// time tau (s); defaultRTT > 0 starts every cost there (tower's rule), 0
// starts it at 0 (Finagle's).
func newEWMA(n int, peak bool, tau, defaultRTT float64, rng *rand.Rand) *ewma {
	p := &ewma{peak: peak, tau: tau, cost: make([]float64, n), stamp: make([]float64, n),
		pending: make(outstanding, n), finagle: !(defaultRTT > 0), rng: rng}
	for i := range p.cost {
		p.cost[i] = max(defaultRTT, 0)
	}
	return p
}

// observe folds a response time x measured at now into tier i's cost.
func (p *ewma) observe(i int, x, now float64) {
	w := math.Exp(-max(now-p.stamp[i], 0) / p.tau)
	if p.peak && x > p.cost[i] {
		p.cost[i] = x
	} else {
		p.cost[i] = p.cost[i]*w + x*(1-w)
	}
	p.stamp[i] = now
}

// load is tier i's load at now, after decaying its cost to now.
func (p *ewma) load(i int, now float64) float64 {
	p.observe(i, 0, now)
	if p.finagle && p.cost[i] == 0 && p.pending[i] != 0 {
		return ewmaPenalty + float64(p.pending[i])
	}
	return p.cost[i] * float64(p.pending[i]+1)
}

// Blind implements dispatch.Blind: the balancer's own measurements.
func (*ewma) Blind() {}

// Decide implements dispatch.Policy.
func (p *ewma) Decide(v *dispatch.View) dispatch.Decision {
	n := len(p.cost)
	i := 0
	if n > 1 {
		a, b := p.rng.IntN(n), p.rng.IntN(n-1)
		if b >= a {
			b++
		}
		i = a
		if p.load(a, v.Now) > p.load(b, v.Now) {
			i = b
		}
	}
	p.pending[i]++
	return dispatch.Decision{Tier: i}
}

// Done implements dispatch.Feedback: the attempt's response time, from its
// dispatch to its end, is observed at its end, a failure's as a
// completion's: Finagle's PeakEwma ends its metric (Metric.end) when the
// request's future is satisfied, a Throw as a Return, and tower's
// peak_ewma updates the estimate when the request's Handle drops, which
// an error or a timeout above it does too. A timeout thus raises the
// tier's cost to the timeout, and a quick refusal lowers it, as in both.
func (p *ewma) Done(c *dispatch.Completion) {
	if p.pending.end(c) {
		return
	}
	p.observe(c.Tier, c.Latency, c.Now)
}
