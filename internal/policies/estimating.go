package policies

import (
	"fmt"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
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
	_ dispatch.Policy    = (*Estimating)(nil)
	_ dispatch.Observer  = (*Estimating)(nil)
	_ dispatch.Predictor = (*Estimating)(nil)
	_ Inspector          = (*Estimating)(nil)
	_ Shadow             = (*Predictor)(nil)
	_ Inspector          = (*Predictor)(nil)
)

// Estimating is the hybrid policy and its two ablations, model-only (β ≡ 0)
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
type Estimating struct {
	name string
	est  *estimators.Estimator
	eps  float64
	rng  *rand.Rand
	// energy, if set, adds hybrid-energy's term to every score.
	energy *energyCost
	// score and wait hold every tier's routing key and Ŵ during a
	// decision (Estimator.Scores).
	score, wait []float64
}

func newEstimating(name string, mode estimators.Mode, tiers []dispatch.Tier, p Params, rng *rand.Rand) (*Estimating, error) {
	if !(p.Epsilon >= 0 && p.Epsilon <= 1) {
		return nil, fmt.Errorf("policy %q: epsilon %g, must be in [0, 1]", name, p.Epsilon)
	}
	est, err := estimators.NewEstimator(tiers, estimatorConfig(mode, p))
	if err != nil {
		return nil, fmt.Errorf("policy %q: %w", name, err)
	}
	return &Estimating{name: name, est: est, eps: p.Epsilon, rng: rng,
		score: make([]float64, len(tiers)), wait: make([]float64, len(tiers))}, nil
}

// String returns the policy's name.
func (p *Estimating) String() string { return p.name }

// Decide picks a tier as described on Estimating.
func (p *Estimating) Decide(v *dispatch.View) dispatch.Decision {
	if p.eps > 0 && p.rng.Float64() < p.eps {
		i := p.rng.IntN(p.est.Tiers())
		return dispatch.Decision{Tier: i, PredWait: p.est.Wait(v, i), HasPred: true}
	}
	p.est.Scores(v, p.score, p.wait)
	if p.energy != nil {
		for i := range p.score {
			p.score[i] += p.energy.cost(v, i)
		}
	}
	best := minIndex(p.score, p.rng)
	return dispatch.Decision{Tier: best, PredWait: p.wait[best], HasPred: true}
}

// Dispatched counts a task sent to tier at time now in that tier's window.
func (p *Estimating) Dispatched(now float64, tier int) { p.est.Observe(now, tier) }

// PredictWait returns the unpenalised Ŵ for tier.
func (p *Estimating) PredictWait(v *dispatch.View, tier int) float64 { return p.est.Wait(v, tier) }

// Inspect implements Inspector.
func (p *Estimating) Inspect(v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64) {
	return inspect(p.est, v, tier)
}

func inspect(e *estimators.Estimator, v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64) {
	c := e.Components(v, tier)
	return c.LambdaHat, c.Beta, c.Rho
}

// Predictor is an estimator in shadow (see NewPredictor): the Ŵ of hybrid,
// model-only or queue-only without penalty, ε or randomness.
type Predictor struct {
	name string
	est  *estimators.Estimator
}

// String returns the estimator's policy name.
func (p *Predictor) String() string { return p.name }

// PredictWait returns the unpenalised Ŵ for tier.
func (p *Predictor) PredictWait(v *dispatch.View, tier int) float64 { return p.est.Wait(v, tier) }

// Dispatched counts a task sent to tier at time now in that tier's window.
func (p *Predictor) Dispatched(now float64, tier int) { p.est.Observe(now, tier) }

// Inspect implements Inspector.
func (p *Predictor) Inspect(v *dispatch.View, tier int) (lambdaHat, beta, rhoHat float64) {
	return inspect(p.est, v, tier)
}
