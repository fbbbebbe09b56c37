package reproduce

import (
	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/runner"
)

// mapeName is the mape experiment's command, embedded scenario and folder.
const mapeName = "mape"

// mapeSpec is the mape experiment: one router decides, and the estimator
// policies' predictors run in shadow on its decisions (docs/design.md §4).
func mapeSpec() Experiment {
	return Experiment{Spec: runner.Spec{Name: mapeName, Embedded: mapeName,
		Short: "Prediction error of the three estimators against the arrival rate",
		Long: `Route with one policy (--router, default hybrid) and run the hybrid,
model-only and queue-only estimators in shadow on the same decisions: each
predicts every measured task's latency at the tier it went to. Writes
mape.csv (one row per run and estimator: MAPE in percent and the mean
absolute error of the wait), mape_summary.csv and mape.png.`,
		Example: "  offload mape -o results/mape\n  offload mape --router jsq --seeds 3",
		Router:  true,
		Prepare: func(plan *experiment.Plan, a runner.Args) error {
			plan.Shadows = policies.Estimators()
			return nil
		},
		Side:    analysis.MAPESidecar,
		Outputs: analysis.MAPEOutputs,
		Files:   analysis.MAPEFiles(),
		Plots:   analysis.MAPEPlots(),
	}}
}

// mapeStep is mape in a reproduction: claim 3, hybrid routing alone.
func mapeStep() step {
	return step{exp: mapeSpec(), embedded: mapeName, extra: []string{"policies=[" + policies.NameHybrid + "]"},
		args: runner.Args{Router: policies.NameHybrid}, section: true}
}
