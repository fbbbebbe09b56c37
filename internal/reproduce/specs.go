package reproduce

import (
	"slices"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/runner"
)

// Experiment is an entry of the registry: the runner's Spec (its command,
// help, files and outputs) and its figures of its own in the HTML report,
// which a runner.Spec cannot hold: runner draws nothing (it imports neither
// chart nor htmlreport), so the report's callers (reproduce, cmd's report)
// hand them to analysis.
type Experiment struct {
	runner.Spec
	// Figures, if set, re-draw the experiment's own figures from the files
	// it kept, for a folder that has them.
	Figures analysis.OwnFigures
}

// Specs are the experiments with a command of their own, in help order.
func Specs() []Experiment {
	return []Experiment{runSpec(), sweepLoadSpec(), edgeCapacitySpec(), mapeSpec(), burstSpec(), failuresSpec(), stalenessSpec(), traceAzureSpec(), energySpec(), balancersSpec()}
}

// specNamed finds the Spec a shard's manifest names: a command's, or one of
// reproduce's experiments.
func specNamed(name string) (runner.Spec, bool) {
	for _, s := range Specs() {
		if s.Name == name {
			return s.Spec, true
		}
	}
	for _, st := range steps() {
		if st.exp.Name == name {
			return st.exp.Spec, true
		}
	}
	return runner.Spec{}, false
}

// sweepSpec is an experiment that adds nothing to a run of its scenario
// but the sweep's figures: its embedded scenario has its name.
func sweepSpec(name, short, long, example string) Experiment {
	return Experiment{Spec: runner.Spec{Name: name, Embedded: name, Short: short, Long: long, Example: example,
		Outputs: analysis.SweepOutputs, Plots: analysis.SweepPlots()}}
}

// Names are every experiment's name: the commands', a reproduction's own
// experiments', and the reproduction's.
func Names() []string {
	var names []string
	for _, s := range Specs() {
		names = append(names, s.Name)
	}
	for _, st := range steps() {
		if !slices.Contains(names, st.exp.Name) {
			names = append(names, st.exp.Name)
		}
	}
	return append(names, Name)
}

// ReportFigures are the experiments' own figures in the HTML report, in
// the registry's order.
func ReportFigures() []analysis.OwnFigures {
	var figs []analysis.OwnFigures
	var seen []string
	for _, e := range append(Specs(), stepExperiments()...) {
		if e.Figures != nil && !slices.Contains(seen, e.Name) {
			figs = append(figs, e.Figures)
			seen = append(seen, e.Name)
		}
	}
	return figs
}
