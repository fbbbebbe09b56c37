package reproduce

import (
	"slices"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/runner"
)

// Specs are the experiments with a command of their own, in help order.
func Specs() []runner.Spec {
	return []runner.Spec{runSpec(), sweepLoadSpec(), edgeCapacitySpec(), mapeSpec(), burstSpec(), failuresSpec(), stalenessSpec(), traceAzureSpec(), energySpec(), balancersSpec()}
}

// specNamed finds the Spec a shard's manifest names: a command's, or one of
// reproduce's experiments.
func specNamed(name string) (runner.Spec, bool) {
	for _, s := range Specs() {
		if s.Name == name {
			return s, true
		}
	}
	for _, st := range steps() {
		if st.spec.Name == name {
			return st.spec, true
		}
	}
	return runner.Spec{}, false
}

// sweepSpec is an experiment that adds nothing to a run of its scenario
// but the sweep's figures: its embedded scenario has its name.
func sweepSpec(name, short, long, example string) runner.Spec {
	return runner.Spec{Name: name, Embedded: name, Short: short, Long: long, Example: example,
		Outputs: analysis.SweepOutputs, Plots: analysis.SweepPlots()}
}

// Names are every experiment's name: the commands', a reproduction's own
// experiments', and the reproduction's.
func Names() []string {
	var names []string
	for _, s := range Specs() {
		names = append(names, s.Name)
	}
	for _, st := range steps() {
		if !slices.Contains(names, st.spec.Name) {
			names = append(names, st.spec.Name)
		}
	}
	return append(names, Name)
}
