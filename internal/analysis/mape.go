package analysis

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// The mape experiment's own files: mape.csv is its sidecar.
const (
	mapeCSV        = "mape.csv"
	mapeSummaryCSV = "mape_summary.csv"
	mapePlot       = "mape"
	maeWaitPlot    = "mae_wait"
)

// MAPEFiles and MAPEPlots are the names MAPEOutputs writes (runner.Spec's
// Files and Plots).
func MAPEFiles() []string { return []string{mapeSummaryCSV} }

// MAPEPlots: see MAPEFiles.
func MAPEPlots() []string { return []string{mapePlot, maeWaitPlot} }

// MAPEOutputs writes the mape experiment's summaries (summary.csv,
// mape_summary.csv of the shadow estimators) and, over a sweep, their
// figures, and prints the estimators' table.
func MAPEOutputs(r *runner.Result) ([]string, error) {
	dir, plan := r.Opts.Dir, r.Plan
	runs := runner.OutcomeRuns(r.Outcomes)
	sums, err := runner.WriteSummary(r.Dir, plan, r.Opts, runs)
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	esums := results.Summarize(ShadowRuns(r.Outcomes))
	router := r.Args.Router
	if err := r.Dir.WriteFile(mapeSummaryCSV, func(w io.Writer) error { return results.WriteMAPESummary(w, router, esums) }); err != nil {
		return nil, err
	}
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv"), filepath.Join(dir, mapeCSV), filepath.Join(dir, mapeSummaryCSV)}
	format := r.Opts.Format
	if plan.Scenario.Sweep != nil {
		xlabel := report.ParamLabel(plan.Scenario.Sweep.Param)
		if err := report.PlotMetricWith(r.Dir, mapePlot, format, esums, estimatorLegend(), results.ColMAPE, chart.FigureOptions{
			Title: "Prediction error vs " + report.ParamName(plan.Scenario.Sweep.Param) + ", router " + router, XLabel: xlabel, YLabel: "MAPE (%)",
			LogY: report.SuggestLogY(esums, results.ColMAPE)}); err != nil {
			return nil, err
		}
		if err := report.PlotMetric(r.Dir, maeWaitPlot, format, esums, estimatorLegend(), results.ColMAEWait, "Mean absolute error of the predicted wait vs "+report.ParamName(plan.Scenario.Sweep.Param), xlabel, "MAE of the wait (s)", report.SuggestLogY(esums, results.ColMAEWait)); err != nil {
			return nil, err
		}
		written = append(written, filepath.Join(dir, mapePlot+"."+format), filepath.Join(dir, maeWaitPlot+"."+format))
	}
	tw := tabwriter.NewWriter(r.Opts.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	param := "-"
	if sw := plan.Scenario.Sweep; sw != nil {
		param = sw.Param
	}
	fmt.Fprintf(tw, "%s\testimator\truns\tMAPE (%%)\t± 95%% CI\tMAE wait (s)\t\n", param)
	for _, s := range esums {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t\n", runner.Num(s.Value), s.Policy, s.Runs, runner.Num(s.Get(results.ColMAPE)), runner.Num(s.CI(results.ColMAPE)), runner.Num(s.Get(results.ColMAEWait)))
	}
	_ = tw.Flush()
	return written, nil
}

// ShadowRuns turns the mape outcomes into one row per (run, estimator).
func ShadowRuns(outs []experiment.Outcome) []results.Run {
	shadows := make([][]results.ShadowError, len(outs))
	for i := range outs {
		shadows[i] = outs[i].Shadows
	}
	return results.ShadowRuns(runner.OutcomeRuns(outs), shadows)
}

// MAPESidecar keeps mape.csv in step with runs.csv.
func MAPESidecar(runner.Args) *runner.Sidecar { return mapeSidecar }

var mapeSidecar = &runner.Sidecar{
	Files: []string{mapeCSV},
	Write: func(d *runner.Folder, plan *experiment.Plan, outs []experiment.Outcome) error {
		var rows []results.MAPERow
		for _, out := range outs {
			for _, sh := range out.Shadows {
				rows = append(rows, results.MAPERow{Key: keyOf(out.Run), Tasks: out.Run.Tasks(), ShadowError: sh})
			}
		}
		return d.WriteFile(mapeCSV, func(w io.Writer) error { return results.WriteMAPE(w, rows) })
	},
	Load: func(src runner.Reader, plan *experiment.Plan) (map[runner.RunKey]experiment.Outcome, error) {
		out := map[runner.RunKey]experiment.Outcome{}
		var rows []results.MAPERow
		err := src(mapeCSV, func(r io.Reader) (err error) {
			rows, err = results.ReadMAPE(r)
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			k := runner.NewRunKey(r.Param, r.Value, r.Policy, r.Seed)
			o := out[k]
			o.Shadows = append(o.Shadows, r.ShadowError)
			out[k] = o
		}
		for k, o := range out { // a run counts only with all its estimators
			if len(o.Shadows) != len(plan.Shadows) {
				delete(out, k)
			}
		}
		return out, nil
	},
}

func keyOf(r results.Run) results.Key {
	return results.Key{Experiment: r.Experiment, Param: r.Param, Value: r.Value, Policy: r.Policy, Seed: r.Seed}
}
