package cmd

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/spf13/cobra"
)

// estimatorNames are the three estimators the mape experiment compares.
var estimatorNames = []string{policies.NameHybrid, policies.NameModelOnly, policies.NameQueueOnly}

// experimentCommands are the paper's experiments (DESIGN §4).
func experimentCommands(io IO) []*cobra.Command {
	sweep, _ := newExperimentCmd(io, nil, runSweep, "sweep-load", "sweep-load",
		"Latency of every policy against the arrival rate",
		`Run every policy over the arrival rates of the embedded sweep-load scenario
(or -f FILE): mean, P95, P99 and large-task P95 latency and tier shares
against the rate, with 95% confidence intervals across replicates.`)
	capacity, _ := newExperimentCmd(io, nil, runSweep, "edge-capacity", "edge-capacity",
		"Latency of every policy against the number of edge servers",
		`Run every policy over the edge server counts of the embedded edge-capacity
scenario (or -f FILE), at a fixed arrival rate.`)
	mape, mopts := newExperimentCmd(io, nil, runMAPE, "mape", "mape",
		"Prediction error of the three estimators against the arrival rate",
		`Route with one policy (--router, default hybrid) and run the hybrid,
model-only and queue-only estimators in shadow on the same decisions: each
predicts every measured task's latency at the tier it went to. Writes
mape.csv (one row per run and estimator: MAPE in percent and the mean
absolute error of the wait), mape_summary.csv and mape.png.`)
	mape.Flags().StringVar(&mopts.router, "router", policies.NameHybrid, "policy whose decisions the estimators shadow")
	burst, bopts := newExperimentCmd(io, nil, runBurst, "burst", "burst",
		"Latency and cloud share through repeated load bursts",
		`Run every policy through the bursts of the embedded burst scenario (or -f
FILE) and follow it in time windows: timeseries.csv (per window and policy,
averaged over replicates: mean and P95 latency, tier shares, λ̂, β and ρ̂ per
tier), bursts.csv (per burst and policy: baseline, peak windowed mean latency,
recovery time), and plots with the bursts shaded.`)
	burst.Flags().Float64Var(&bopts.window, "window", 5, "time-series window width, s")
	return []*cobra.Command{sweep, capacity, mape, burst}
}

// runMAPE runs the mape experiment.
func runMAPE(ctx context.Context, o *runOptions) error {
	if err := o.of.check(); err != nil {
		return err
	}
	if !slices.Contains(policies.Names(), o.router) {
		return badInputf("--router %q: allowed: %s", o.router, strings.Join(policies.Names(), ", "))
	}
	if len(o.policies) > 0 {
		return badInputf("mape: --policy does not apply: one router decides (--router) and the three estimators predict in shadow")
	}
	o.policies = []string{o.router}
	plan, err := o.loadPlan()
	if err != nil {
		return err
	}
	plan.Shadows = estimatorNames
	outs, err := execute(ctx, o, plan, mapeSidecar)
	if err != nil {
		return err
	}
	dir, tiers := o.of.dir, plan.Tiers()
	sums := results.Summarize(outcomeRuns(outs))
	if err := report.WriteFileAtomic(dir, "summary.csv", func(w io.Writer) error { return report.WriteSummary(w, tiers, sums) }); err != nil {
		return err
	}
	// One pseudo-run per (run, estimator) reuses the summary and plot code:
	// the estimator in Policy, its MAPE and its wait MAE in MeanWait.
	var pseudo []results.Run
	for _, out := range outs {
		for _, sh := range out.Shadows {
			r := nanRun(out.Run)
			r.Policy, r.MAPE, r.MeanWait = sh.Estimator, sh.MAPE, sh.MAEWait
			pseudo = append(pseudo, r)
		}
	}
	esums := results.Summarize(pseudo)
	if err := report.WriteFileAtomic(dir, "mape_summary.csv", func(w io.Writer) error { return report.WriteMAPESummary(w, o.router, esums) }); err != nil {
		return err
	}
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv"), fmtPath(dir, "mape.csv"), fmtPath(dir, "mape_summary.csv")}
	if plan.Scenario.Sweep != nil {
		xlabel := paramLabel(plan.Scenario.Sweep.Param)
		if err := report.PlotMAPE(dir, "mape", o.of.format, esums, "Prediction error vs "+xlabel+" (router: "+o.router+")", xlabel, report.SuggestLogY(nil, esums, "mape")); err != nil {
			return err
		}
		if err := report.PlotMetric(dir, "mae_wait", o.of.format, nil, esums, "mean_wait_s", "Mean absolute error of the predicted wait vs "+xlabel, xlabel, "MAE of the wait (s)", report.SuggestLogY(nil, esums, "mean_wait_s")); err != nil {
			return err
		}
		written = append(written, fmtPath(dir, "mape."+o.of.format), fmtPath(dir, "mae_wait."+o.of.format))
	}
	tw := tabwriter.NewWriter(o.io.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	param := "-"
	if sw := plan.Scenario.Sweep; sw != nil {
		param = sw.Param
	}
	fmt.Fprintf(tw, "%s\testimator\truns\tMAPE (%%)\t± 95%% CI\tMAE wait (s)\t\n", param)
	for _, s := range esums {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t\n", num(s.Value), s.Policy, s.Runs, num(s.Mean.MAPE), num(s.CI95.MAPE), num(s.Mean.MeanWait))
	}
	_ = tw.Flush()
	noteWritten(o.io.Out, written...)
	return nil
}

// nanRun keeps a run's key and blanks its metrics.
func nanRun(r results.Run) results.Run {
	nan := math.NaN()
	return results.Run{Experiment: r.Experiment, Param: r.Param, Value: r.Value, Policy: r.Policy, Seed: r.Seed, Tasks: r.Tasks,
		MeanLatency: nan, P50Latency: nan, P95Latency: nan, P99Latency: nan, MaxLatency: nan, MeanWait: nan,
		MeanLarge: nan, P95Large: nan, MAPE: nan, DecisionNs: nan}
}

// mapeSidecar keeps mape.csv in step with runs.csv.
var mapeSidecar = &sidecar{
	write: func(dir string, plan *experiment.Plan, outs []experiment.Outcome) error {
		var rows []report.MAPERow
		for _, out := range outs {
			for _, sh := range out.Shadows {
				rows = append(rows, report.MAPERow{Key: keyOf(out.Run), Tasks: out.Tasks, ShadowError: sh})
			}
		}
		return report.WriteFileAtomic(dir, "mape.csv", func(w io.Writer) error { return report.WriteMAPE(w, rows) })
	},
	load: func(dir string, plan *experiment.Plan) (map[runKey]experiment.Outcome, error) {
		out := map[runKey]experiment.Outcome{}
		var rows []report.MAPERow
		err := readIfExists(dir, "mape.csv", func(r io.Reader) (err error) {
			rows, err = report.ReadMAPE(r)
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			k := runKey{r.Param, math.Float64bits(r.Value), r.Policy, r.Seed}
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
