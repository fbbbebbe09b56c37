package reproduce

import (
	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
)

// energyName is the energy experiment's command and embedded scenario.
const energyName = "energy"

// energySpec is the energy experiment (docs/design.md §4.9): the
// energy-aware hybrid's weight swept, every point's mean latency against
// its energy per task, beside the other policies' single points.
func energySpec() Experiment {
	return Experiment{Spec: runner.Spec{Name: energyName, Embedded: energyName,
		Short: "The latency–energy front of the energy-aware hybrid against every policy",
		Long: `Run every policy on a continuum with power models and per-bit transfer costs
(the embedded energy scenario, values from PureEdgeSim's shipped settings, or
-f FILE), sweeping the energy_weight (s/J) of a hybrid-energy entry: mean
latency against energy per task (energy_j: the dynamic compute and transfer
energy the tasks cause; idle power is the same for every policy), one line
for hybrid-energy across its weights and one point per other policy, in
energy_front.<format>; front.csv lists the points and marks those no other
point beats on both latency and energy.`,
		Example: "  offload energy -o results/energy\n  offload energy --policy hybrid,jsq-s,hybrid-energy --set 'sweep.values=[0, 0.1, 1]'",
		Prepare: prepareEnergy,
		Outputs: analysis.FrontOutputs(energyName),
		Files:   analysis.FrontFiles(),
		Plots:   analysis.FrontPlots(),
	}}
}

// prepareEnergy checks that the scenario models energy and sweeps the
// weight of a hybrid-energy entry.
func prepareEnergy(plan *experiment.Plan, _ runner.Args) error {
	_, err := analysis.SweptEnergyLabel(energyName, plan)
	return err
}
