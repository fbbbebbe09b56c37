package runner

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/store"
)

// MAPESpec is the mape experiment: one router decides, and the estimator
// policies' predictors run in shadow on its decisions (docs/design.md §4).
func MAPESpec() Spec {
	return Spec{Name: "mape", Embedded: "mape",
		Short: "Prediction error of the three estimators against the arrival rate",
		Long: `Route with one policy (--router, default hybrid) and run the hybrid,
model-only and queue-only estimators in shadow on the same decisions: each
predicts every measured task's latency at the tier it went to. Writes
mape.csv (one row per run and estimator: MAPE in percent and the mean
absolute error of the wait), mape_summary.csv and mape.png.`,
		Prepare: func(plan *experiment.Plan, a Args) error {
			plan.Shadows = policies.Estimators()
			return nil
		},
		side:    func(Args) *sidecar { return mapeSidecar },
		outputs: mapeOutputs,
	}
}

func mapeOutputs(r *Result) ([]string, error) {
	dir, plan := r.Opts.Dir, r.Plan
	runs := outcomeRuns(r.Outcomes)
	sums, err := writeSummary(r.Dir, plan, r.Opts, runs)
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	esums := results.Summarize(ShadowRuns(r.Outcomes))
	router := r.Args.Router
	if err := r.Dir.WriteFile("mape_summary.csv", func(w io.Writer) error { return report.WriteMAPESummary(w, router, esums) }); err != nil {
		return nil, err
	}
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv"), fmtPath(dir, "mape.csv"), fmtPath(dir, "mape_summary.csv")}
	format := r.Opts.Format
	if plan.Scenario.Sweep != nil {
		xlabel := report.ParamLabel(plan.Scenario.Sweep.Param)
		if err := report.PlotMAPE(r.Dir, "mape", format, esums, estimatorLegend(), "Prediction error vs "+report.ParamName(plan.Scenario.Sweep.Param)+", router "+router, xlabel, report.SuggestLogY(esums, results.ColMAPE)); err != nil {
			return nil, err
		}
		if err := report.PlotMetric(r.Dir, "mae_wait", format, esums, estimatorLegend(), results.ColMAEWait, "Mean absolute error of the predicted wait vs "+report.ParamName(plan.Scenario.Sweep.Param), xlabel, "MAE of the wait (s)", report.SuggestLogY(esums, results.ColMAEWait)); err != nil {
			return nil, err
		}
		written = append(written, fmtPath(dir, "mape."+format), fmtPath(dir, "mae_wait."+format))
	}
	tw := tabwriter.NewWriter(r.Opts.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	param := "-"
	if sw := plan.Scenario.Sweep; sw != nil {
		param = sw.Param
	}
	fmt.Fprintf(tw, "%s\testimator\truns\tMAPE (%%)\t± 95%% CI\tMAE wait (s)\t\n", param)
	for _, s := range esums {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t\n", Num(s.Value), s.Policy, s.Runs, Num(s.Get(results.ColMAPE)), Num(s.CI(results.ColMAPE)), Num(s.Get(results.ColMAEWait)))
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
	return results.ShadowRuns(outcomeRuns(outs), shadows)
}

// mapeSidecar keeps mape.csv in step with runs.csv.
var mapeSidecar = &sidecar{
	files: []string{"mape.csv"},
	write: func(d *store.Dir, plan *experiment.Plan, outs []experiment.Outcome) error {
		var rows []report.MAPERow
		for _, out := range outs {
			for _, sh := range out.Shadows {
				rows = append(rows, report.MAPERow{Key: keyOf(out.Run), Tasks: out.Run.Tasks(), ShadowError: sh})
			}
		}
		return d.WriteFile("mape.csv", func(w io.Writer) error { return report.WriteMAPE(w, rows) })
	},
	load: func(src reader, plan *experiment.Plan) (map[runKey]experiment.Outcome, error) {
		out := map[runKey]experiment.Outcome{}
		var rows []report.MAPERow
		err := src("mape.csv", func(r io.Reader) (err error) {
			rows, err = report.ReadMAPE(r)
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			k := runKey{r.Param, float64Bits(r.Value), r.Policy, r.Seed}
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

func keyOf(r results.Run) report.Key {
	return report.Key{Experiment: r.Experiment, Param: r.Param, Value: r.Value, Policy: r.Policy, Seed: r.Seed}
}
