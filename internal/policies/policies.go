package policies

import (
	"fmt"
	"strings"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
)

// Params are the estimator policies' parameters (docs/design.md §2, §3); the other
// policies ignore them. DefaultParams gives the paper's values.
type Params struct {
	Window           float64 // s, sliding window of the arrival-rate estimate, > 0
	Epsilon          float64 // ε-greedy exploration probability, [0, 1]
	RhoMax           float64 // cap on ρ̂ in the model component, (0, 1)
	PenaltyThreshold float64 // θ of the utilisation penalty, [0, 1)
	PenaltyK         float64 // k of the utilisation penalty, ≥ 0; 0 switches it off
	// OnlineCa2 replaces the model component's C_a² = 1 by each tier's
	// online estimate (estimators.Ca2Online; estimator.ca2: online).
	OnlineCa2 bool
}

// DefaultParams returns w = 10 s, ε = 0.05, ρ_max = 0.99, θ = 0.9, k = 1.
func DefaultParams() Params {
	return Params{Window: 10, Epsilon: 0.05, RhoMax: 0.99, PenaltyThreshold: 0.9, PenaltyK: 1}
}

// The names of the paper's policies (docs/design.md §3), in registry order.
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

// The names of the reference baselines (docs/design.md §3.7), outside the
// paper's default set.
const (
	NameLWL       = "lwl"
	nameSITAE     = "sita-e"
	nameSITAOpt   = "sita-opt"
	NameStaticOpt = "static-opt"
	NameJIQ       = "jiq"
)

// The estimator policies' β rules, by registry name.
const (
	modeHybrid = estimators.ModeHybrid
	modeModel  = estimators.ModeModel
	modeQueue  = estimators.ModeQueue
)

func estimatorModeOf(name string) (estimators.Mode, bool) {
	switch name {
	case NameHybrid:
		return modeHybrid, true
	case NameModelOnly:
		return modeModel, true
	case NameQueueOnly:
		return modeQueue, true
	case NameHybridAge:
		return estimators.ModeAge, true
	}
	return 0, false
}

// ageSpec is this project's age-aware hybrid (not the paper's): the blend
// weight discounted by the observation's age relative to the tier's
// relaxation time (estimators.ModeAge, docs/design.md §2.12).
func ageSpec() Spec {
	s := estimatorSpec(NameHybridAge, "ours: hybrid whose queue weight β decays with the observation's age over the tier's relaxation time", estimators.ModeAge)
	s.paper = false
	return s
}

// estimatorOptions are what an entry of an estimator policy may override of
// the scenario's estimator block (the same checks as the block's).
func estimatorOptions() []option {
	return []option{
		{Name: "epsilon", Doc: "ε-greedy exploration probability; default: the scenario's estimator.epsilon", Check: number(func(x float64) bool { return x >= 0 && x <= 1 }, "in [0, 1] (a probability)")},
		{Name: "window", Doc: "s, sliding window of the arrival-rate estimate; default: estimator.window", Check: number(func(x float64) bool { return x > 0 && x <= 1e6 }, "in (0, 1e6] (s)")},
		{Name: "rho_max", Doc: "cap on ρ̂ in the model component; default: estimator.rho_max", Check: number(func(x float64) bool { return x > 0 && x < 1 }, "in (0, 1)")},
		{Name: "penalty", Doc: "utilisation penalty {threshold, k}; default: estimator.penalty", Check: mapping(
			option{Name: "threshold", Check: number(func(x float64) bool { return x >= 0 && x < 1 }, "in [0, 1)")},
			option{Name: "k", Check: number(func(x float64) bool { return x >= 0 && x <= 1e6 }, "in [0, 1e6] (0 switches the penalty off)")},
		)},
		{Name: "ca2", Doc: "C_a² of the model component: poisson (1) or online (per-tier inter-dispatch SCV); default: estimator.ca2, else poisson", Check: oneOf("poisson", "online")},
	}
}

// ca2Name spells Params.OnlineCa2 as the ca2 option does.
func ca2Name(online bool) string {
	if online {
		return "online"
	}
	return "poisson"
}

// estimatorSpec is the registry row of hybrid and its two ablations: they
// differ only in the estimator's β rule.
func estimatorSpec(name, summary string, mode estimators.Mode) Spec {
	return Spec{Name: name, paper: true, summary: summary, predicts: true, options: estimatorOptions(),
		construct: func(b Build) (dispatch.Policy, error) {
			p := b.Params
			p.Epsilon = b.options.Float("epsilon", p.Epsilon)
			p.Window = b.options.Float("window", p.Window)
			p.RhoMax = b.options.Float("rho_max", p.RhoMax)
			pen := b.options.Map("penalty")
			p.PenaltyThreshold = pen.Float("threshold", p.PenaltyThreshold)
			p.PenaltyK = pen.Float("k", p.PenaltyK)
			p.OnlineCa2 = b.options.String("ca2", ca2Name(p.OnlineCa2)) == "online"
			return newEstimating(name, mode, b.Tiers, p, b.Rand)
		}}
}

// NewPredictor builds the estimator of hybrid, model-only or queue-only to
// run in shadow: it predicts the unpenalised Ŵ for any tier and is fed every
// dispatch of the routing policy. It uses no randomness, penalty or ε.
func NewPredictor(name string, tiers []dispatch.Tier, p Params) (Shadow, error) {
	mode, ok := estimatorModeOf(name)
	if !ok {
		return nil, unknownName(name, append(Estimators(), NameHybridAge))
	}
	if err := checkTiers(tiers); err != nil {
		return nil, fmt.Errorf("predictor %q: %w", name, err)
	}
	est, err := estimators.NewEstimator(tiers, estimatorConfig(mode, p))
	if err != nil {
		return nil, fmt.Errorf("predictor %q: %w", name, err)
	}
	return &predictor{name: name, est: est}, nil
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
		Ca2:              ca2Mode(p.OnlineCa2),
	}
}

// ca2Mode is the estimators' C_a² mode of Params.OnlineCa2.
func ca2Mode(online bool) estimators.Ca2Mode {
	if online {
		return estimators.Ca2Online
	}
	return estimators.Ca2Poisson
}
