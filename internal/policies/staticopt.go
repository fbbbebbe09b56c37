package policies

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
)

var _ dispatch.Policy = (*StaticOpt)(nil)

// StaticOpt is the best static random split (docs/design.md §3.7): each
// task goes to tier i with a fixed probability p_i, whatever the state,
// the p_i minimising the predicted mean latency at the scenario's base
// arrival rate λ,
//
//	Σ_i p_i·(D̄_i + Ŵ_i(p_i λ) + 1/μ_i),
//
// Ŵ_i being the Allen–Cunneen wait of tier i fed a Poisson stream of rate
// p_i λ (+∞ at or above capacity). It is what a dispatcher that knows the
// rate but observes nothing can do best, and the classic baseline of
// optimal static routing (Bernoulli splitting).
type StaticOpt struct {
	cum  []float64 // cumulative probabilities
	p    []float64
	last int // the last tier of positive probability
	rng  *rand.Rand
}

func newStaticOpt(b Build) (dispatch.Policy, error) {
	if !(b.Rate > 0) || math.IsInf(b.Rate, 0) {
		return nil, fmt.Errorf("needs the scenario's arrival rate (Build.Rate), got %v: build it with policies.Make", b.Rate)
	}
	return NewStaticOpt(b.Tiers, b.Rate, b.Rand), nil
}

// NewStaticOpt returns the best static split of arrival rate lambda over
// these tiers, drawing its choices from rng.
func NewStaticOpt(tiers []dispatch.Tier, lambda float64, rng *rand.Rand) *StaticOpt {
	p := staticSplit(tiers, lambda)
	s := &StaticOpt{p: p, cum: make([]float64, len(p)), rng: rng}
	var c float64
	for i, x := range p {
		c += x
		s.cum[i] = c
		if x > 0 {
			s.last = i
		}
	}
	return s
}

// Split returns the probabilities p_i.
func (s *StaticOpt) Split() []float64 { return slices.Clone(s.p) }

// Blind implements dispatch.Blind: the split ignores the state.
func (*StaticOpt) Blind() {}

// Decide implements dispatch.Policy: one uniform draw against the
// cumulative probabilities. A tier of probability 0 is never chosen, and a
// draw that rounding leaves above the last sum goes to the last tier used.
func (s *StaticOpt) Decide(*dispatch.View) dispatch.Decision {
	u := s.rng.Float64()
	for i, c := range s.cum {
		if u < c && s.p[i] > 0 {
			return dispatch.Decision{Tier: i}
		}
	}
	return dispatch.Decision{Tier: s.last}
}

// splitCost is tier t's term p·(D̄ + Ŵ(pλ) + 1/μ) of the static objective.
func splitCost(t *dispatch.Tier, p, lambda float64) float64 {
	if p <= 0 {
		return 0
	}
	w := estimators.AllenCunneen(t.Servers, p*lambda, t.Mu, estimators.PoissonCa2, t.Cs2)
	return p * (t.MeanDelay + w + 1/t.Mu)
}

// staticCost is the predicted mean latency of split p.
func staticCost(tiers []dispatch.Tier, p []float64, lambda float64) float64 {
	var c float64
	for i := range tiers {
		c += splitCost(&tiers[i], p[i], lambda)
	}
	return c
}

// staticSplit minimises staticCost on the simplex by pairwise coordinate
// descent: for each pair of tiers in turn, the mass the two share is
// re-divided optimally by golden-section search, within the stretch where
// both stay below capacity. Each term p·Ŵ(pλ) is convex in p (the Erlang
// C wait is convex and increasing in the arrival rate, and so is its
// product with p), so the objective is a separable convex function and
// pairwise exchange converges to its minimum; sweeps repeat until one
// improves it by less than 10⁻¹⁴. It starts from the split in proportion
// to capacity c·μ, stable whenever any split is; when none is (λ ≥ Σ cμ)
// that proportional split is returned.
func staticSplit(tiers []dispatch.Tier, lambda float64) []float64 {
	n := len(tiers)
	p := make([]float64, n)
	capa := make([]float64, n) // the largest stable share, cμ/λ
	var total float64
	for i, t := range tiers {
		capa[i] = float64(t.Servers) * t.Mu / lambda
		total += float64(t.Servers) * t.Mu
	}
	for i, t := range tiers {
		p[i] = float64(t.Servers) * t.Mu / total
	}
	if lambda >= total || n == 1 {
		return p
	}
	best := staticCost(tiers, p, lambda)
	for range 500 {
		before := best
		for i := range n {
			for j := i + 1; j < n; j++ {
				s := p[i] + p[j]
				if s == 0 {
					continue
				}
				rest := best - splitCost(&tiers[i], p[i], lambda) - splitCost(&tiers[j], p[j], lambda)
				g := func(x float64) float64 {
					return splitCost(&tiers[i], x, lambda) + splitCost(&tiers[j], s-x, lambda)
				}
				lo, hi := math.Max(0, s-capa[j]), math.Min(s, capa[i])
				x := golden(g, lo, hi)
				cands := []float64{x}
				if lo == 0 {
					cands = append(cands, 0)
				}
				if hi == s {
					cands = append(cands, s)
				}
				bx, bv := p[i], g(p[i])
				for _, c := range cands {
					if v := g(c); v < bv {
						bx, bv = c, v
					}
				}
				p[i], p[j] = bx, s-bx
				best = rest + bv
			}
		}
		best = staticCost(tiers, p, lambda) // no drift from the running sums
		if before-best <= 1e-14*best {
			break
		}
	}
	return p
}
