package policies

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
	"github.com/offload-sim/offload/internal/pick"
)

// Shadow is an estimator run beside a routing policy (the mape experiment):
// it predicts waits and is told of every dispatch.
type Shadow interface {
	dispatch.Predictor
	dispatch.Observer
}

// Inspector exposes an estimator's view of one tier, for the burst
// experiment's time series: the windowed arrival rate λ̂ (tasks/s), the blend
// weight β the estimator uses, and the uncapped utilisation ρ̂ = λ̂/(cμ).
// Like a decision, it advances the rate windows to v.Now.
type Inspector interface {
	Inspect(v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64)
}

var (
	_ dispatch.Policy    = (*estimating)(nil)
	_ dispatch.Observer  = (*estimating)(nil)
	_ dispatch.Predictor = (*estimating)(nil)
	_ Inspector          = (*estimating)(nil)
	_ Shadow             = (*predictor)(nil)
	_ Inspector          = (*predictor)(nil)
)

// estimating is the hybrid policy and its two ablations, model-only (β ≡ 0)
// and queue-only (β ≡ 1); they differ only in the estimator's β rule.
//
// With probability ε it sends the task to a uniformly random tier (so that
// the rate estimates of rarely chosen tiers do not freeze); otherwise to
//
//	argmin_i  Penalty(Ŵ_i, ρ̂_i, θ, k) + 1/μ_i + D̄_i
//
// with ties broken uniformly at random. Either way the decision carries the
// unpenalised Ŵ of the chosen tier as its prediction. It must be told of
// every dispatch through Dispatched.
//
// A tier's score is kept from one decision to the next while what it is
// computed from stays: under the estimator's Plain settings without
// hybrid-energy's term, that is the tier's window count, the windows' span
// and its Queued and Busy. So a decision rescores only the tiers of
// View.Changed and those whose count changed (Estimator.Changed), and
// finds the argmin in a tournament tree (pick.MinTree), unless the span moved
// (the window's first w seconds, when λ̂ divides by the time elapsed),
// the view does not track its changes, or the settings make every score
// move with time (the age-aware β, the online C_a²) or with the task
// (hybrid-energy's term): then it scores every tier, as it always did.
type estimating struct {
	name string
	est  *estimators.Estimator
	eps  float64
	rng  *rand.Rand
	// energy, if set, adds hybrid-energy's term to every score.
	energy *energyCost
	// score and wait hold every tier's routing key and Ŵ (Estimator.Scores),
	// kept between decisions for the tiers that did not change.
	score, wait []float64
	tree        pick.MinTree
	span        float64 // the windows' span at the last scoring; NaN: none yet
	every       bool    // every score is stale (or cached scores are not kept)
	stale       []bool  // tier i's score is stale
	dirty       []int   // the tiers stale, once each
}

func newEstimating(name string, mode estimators.Mode, tiers []dispatch.Tier, p Params, rng *rand.Rand) (*estimating, error) {
	if !(p.Epsilon >= 0 && p.Epsilon <= 1) {
		return nil, fmt.Errorf("policy %q: epsilon %g, must be in [0, 1]", name, p.Epsilon)
	}
	est, err := estimators.NewEstimator(tiers, estimatorConfig(mode, p))
	if err != nil {
		return nil, fmt.Errorf("policy %q: %w", name, err)
	}
	return &estimating{name: name, est: est, eps: p.Epsilon, rng: rng,
		score: make([]float64, len(tiers)), wait: make([]float64, len(tiers)),
		span: math.NaN(), every: true, stale: make([]bool, len(tiers))}, nil
}

// String returns the policy's name.
func (p *estimating) String() string { return p.name }

// Decide picks a tier as described on Estimating.
func (p *estimating) Decide(v *dispatch.View) dispatch.Decision {
	p.note(v)
	if p.eps > 0 && p.rng.Float64() < p.eps {
		i := p.rng.IntN(p.est.Tiers())
		return dispatch.Decision{Tier: i, PredWait: p.est.Wait(v, i), HasPred: true}
	}
	tracked := !p.every
	if p.every {
		p.est.Scores(v, p.score, p.wait)
		if p.energy != nil {
			for i := range p.score {
				p.score[i] += p.energy.cost(v, i)
			}
		}
	} else {
		for _, i := range p.dirty {
			p.score[i], p.wait[i] = p.est.ScoreTier(v, i)
		}
	}
	best := p.tree.Decide(p.score, nil, p.dirty, tracked, p.rng)
	for _, i := range p.dirty {
		p.stale[i] = false
	}
	p.dirty, p.every = p.dirty[:0], false
	return dispatch.Decision{Tier: best, PredWait: p.wait[best], HasPred: true}
}

// note marks the scores that what changed since the last decision made
// stale: the view's changed tiers and the estimator's, or all of them
// (see Estimating). An exploring decision scores nothing, so the marks
// stay for the next greedy one.
//
// The estimator follows its windows' changes only from the first tracked
// view on (Estimator.Follow): a run whose views are never tracked (a few
// tiers) pays nothing for it.
func (p *estimating) note(v *dispatch.View) {
	cacheable := v.Tracked && p.energy == nil && p.est.Plain()
	if cacheable && !p.est.Followed() {
		p.est.Follow(v.Now)
		p.every = true
	}
	var changed []int32
	if p.est.Followed() { // taken at every decision, so that the list stays short
		changed = p.est.Changed(v.Now)
	}
	if span := p.est.Span(v.Now); !cacheable || span != p.span {
		p.every, p.span = true, span
	}
	if p.every {
		return
	}
	for _, i := range v.Changed {
		p.mark(i)
	}
	for _, i := range changed {
		p.mark(int(i))
	}
}

func (p *estimating) mark(i int) {
	if !p.stale[i] {
		p.stale[i] = true
		p.dirty = append(p.dirty, i)
	}
}

// Dispatched counts a task sent to tier at time now in that tier's window.
func (p *estimating) Dispatched(now float64, tier int) { p.est.Observe(now, tier) }

// PredictWait returns the unpenalised Ŵ for tier.
func (p *estimating) PredictWait(v *dispatch.View, tier int) float64 { return p.est.Wait(v, tier) }

// Inspect implements Inspector.
func (p *estimating) Inspect(v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64) {
	return inspect(p.est, v, tier)
}

func inspect(e *estimators.Estimator, v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64) {
	c := e.Components(v, tier)
	return c.LambdaHat, c.Beta, c.Rho
}

// predictor is an estimator in shadow (see NewPredictor): the Ŵ of hybrid,
// model-only or queue-only without penalty, ε or randomness.
type predictor struct {
	name string
	est  *estimators.Estimator
}

// String returns the estimator's policy name.
func (p *predictor) String() string { return p.name }

// PredictWait returns the unpenalised Ŵ for tier.
func (p *predictor) PredictWait(v *dispatch.View, tier int) float64 { return p.est.Wait(v, tier) }

// Dispatched counts a task sent to tier at time now in that tier's window.
func (p *predictor) Dispatched(now float64, tier int) { p.est.Observe(now, tier) }

// Inspect implements Inspector.
func (p *predictor) Inspect(v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64) {
	return inspect(p.est, v, tier)
}
