package policies

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
)

// Params are the estimator policies' parameters (DESIGN §2, §3); the other
// policies ignore them. DefaultParams gives the paper's values.
type Params struct {
	Window           float64 // s, sliding window of the arrival-rate estimate, > 0
	Epsilon          float64 // ε-greedy exploration probability, [0, 1]
	RhoMax           float64 // cap on ρ̂ in the model component, (0, 1)
	PenaltyThreshold float64 // θ of the utilisation penalty, [0, 1)
	PenaltyK         float64 // k of the utilisation penalty, ≥ 0; 0 switches it off
}

// DefaultParams returns w = 10 s, ε = 0.05, ρ_max = 0.99, θ = 0.9, k = 1.
func DefaultParams() Params {
	return Params{Window: 10, Epsilon: 0.05, RhoMax: 0.99, PenaltyThreshold: 0.9, PenaltyK: 1}
}

// The names of DESIGN §3, in the order Names returns them.
const (
	NameHybrid    = "hybrid"
	NameModelOnly = "model-only"
	NameQueueOnly = "queue-only"
	NameJSQ       = "jsq"
	NameJSQS      = "jsq-s"
	NameEdgeFirst = "edge-first"
	NameRandom    = "random"
	NameOracle    = "oracle"
)

// Names returns the eight policy names in DESIGN §3 order. The slice is new
// on every call.
func Names() []string {
	return []string{NameHybrid, NameModelOnly, NameQueueOnly, NameJSQ, NameJSQS, NameEdgeFirst, NameRandom, NameOracle}
}

// HasEstimator reports whether the named policy predicts waits (and so has a
// MAPE): hybrid, model-only and queue-only.
func HasEstimator(name string) bool {
	_, ok := estimatorMode(name)
	return ok
}

func estimatorMode(name string) (estimators.Mode, bool) {
	switch name {
	case NameHybrid:
		return estimators.ModeHybrid, true
	case NameModelOnly:
		return estimators.ModeModel, true
	case NameQueueOnly:
		return estimators.ModeQueue, true
	}
	return 0, false
}

// New builds the policy called name for these tiers. The estimator policies
// use p; every policy that draws random numbers (ties, ε, random) uses rng,
// which must not be nil and should be the policy's own stream.
func New(name string, tiers []dispatch.Tier, p Params, rng *rand.Rand) (dispatch.Policy, error) {
	if rng == nil {
		return nil, fmt.Errorf("policy %q: nil random source", name)
	}
	if err := checkTiers(tiers); err != nil {
		return nil, fmt.Errorf("policy %q: %w", name, err)
	}
	if mode, ok := estimatorMode(name); ok {
		return newEstimating(name, mode, tiers, p, rng)
	}
	switch name {
	case NameJSQ:
		return NewJSQ(rng), nil
	case NameJSQS:
		return NewJSQS(tiers, rng), nil
	case NameEdgeFirst:
		return NewEdgeFirst(tiers)
	case NameRandom:
		return NewRandom(len(tiers), rng), nil
	case NameOracle:
		return NewOracle(rng), nil
	}
	return nil, unknownName(name, Names())
}

// NewPredictor builds the estimator of hybrid, model-only or queue-only to
// run in shadow: it predicts the unpenalised Ŵ for any tier and is fed every
// dispatch of the routing policy. It uses no randomness, penalty or ε.
func NewPredictor(name string, tiers []dispatch.Tier, p Params) (Shadow, error) {
	mode, ok := estimatorMode(name)
	if !ok {
		return nil, unknownName(name, []string{NameHybrid, NameModelOnly, NameQueueOnly})
	}
	if err := checkTiers(tiers); err != nil {
		return nil, fmt.Errorf("predictor %q: %w", name, err)
	}
	est, err := estimators.NewEstimator(tiers, estimatorConfig(mode, p))
	if err != nil {
		return nil, fmt.Errorf("predictor %q: %w", name, err)
	}
	return &Predictor{name: name, est: est}, nil
}

func unknownName(name string, allowed []string) error {
	return fmt.Errorf("unknown policy %q (allowed: %s)", name, strings.Join(allowed, ", "))
}

func checkTiers(tiers []dispatch.Tier) error {
	if len(tiers) == 0 {
		return fmt.Errorf("no tiers")
	}
	for i := range tiers {
		if err := estimators.ValidateTier(&tiers[i]); err != nil {
			return err
		}
	}
	return nil
}

func estimatorConfig(mode estimators.Mode, p Params) estimators.Config {
	return estimators.Config{
		Window:           p.Window,
		RhoMax:           p.RhoMax,
		Mode:             mode,
		PenaltyThreshold: p.PenaltyThreshold,
		PenaltyK:         p.PenaltyK,
	}
}
