package analysis

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// SweepPlots are the figures SweepOutputs may draw (runner.Spec's Plots).
func SweepPlots() []string {
	return append(append(report.SweepFiles(), diffPlot), report.ClassFigures()...)
}

// SweepOutputs writes summary.csv and, for a sweep, the plots, and prints
// the headline table.
func SweepOutputs(r *runner.Result) ([]string, error) {
	dir, plan := r.Opts.Dir, r.Plan
	sums, err := runner.WriteSummary(r.Dir, plan, r.Opts, runner.OutcomeRuns(r.Outcomes))
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv")}
	if plan.Scenario.Sweep != nil {
		plots, err := sweepPlots(r.Dir, r.Opts.Format, plan, sums, r.Opts.Err)
		if err != nil {
			return nil, err
		}
		written = append(written, plots...)
		p, err := sweepDiff(r.Dir, r.Opts.Format, plan, runner.OutcomeRuns(r.Outcomes))
		if err != nil {
			return nil, err
		}
		written = append(written, p...)
	}
	PrintTable(r.Opts.Out, plan, sums)
	return written, nil
}

// sweepPlots draws the sweep's figures (report.SweepFigures) into the
// folder, each with its title in the image and its caption left to the
// report. A figure without data (no stable point, say) is left out; one
// that cannot show everything (too many tiers for a band each) says so on
// warn, a warning, not a failure.
func sweepPlots(d *runner.Folder, format string, plan *experiment.Plan, sums []results.Summary, warn io.Writer) ([]string, error) {
	var paths []string
	var deadlines []string
	for _, c := range plan.Scenario.Classes {
		if c.Deadline > 0 {
			deadlines = append(deadlines, c.Name)
		}
	}
	classes := report.ClassesOf(sums, deadlines)
	for _, f := range report.SweepFigures(sums, Legend(plan), plan.Scenario.Sweep.Param, plan.Tiers(), classes) {
		if f.Note != "" && warn != nil {
			fmt.Fprintf(warn, "offload: warning: %s: %s\n", filepath.Join(d.Path(), f.File+"."+format), f.Note)
		}
		err := f.Draw(d, f.File, format, true, false)
		if errors.Is(err, chart.ErrNoData) {
			continue
		}
		if err != nil {
			return paths, err
		}
		paths = append(paths, filepath.Join(d.Path(), f.File+"."+format))
	}
	return paths, nil
}

// diffPlot is the file stem of a sweep's difference plot.
const diffPlot = "diff_mean_latency"

// sweepDiff draws, when jsq-s runs in the sweep, every policy's paired
// mean-latency difference against it: jsq-s, with no estimator at all, has
// the lowest mean latency of the deployable policies in the paper-scale run
// (docs/experiments.md), so the gap to it is what a policy has to explain.
func sweepDiff(d *runner.Folder, format string, plan *experiment.Plan, runs []results.Run) ([]string, error) {
	if !slices.Contains(plan.Labels(), policies.NameJSQS) {
		return nil, nil
	}
	ds, err := results.CompareTo(runs, policies.NameJSQS, results.ColMeanLatency)
	if err != nil {
		return nil, err
	}
	err = report.PlotDiffs(d, diffPlot, format, ds, Legend(plan), diffFigure(results.ColMeanLatency, policies.NameJSQS, plan.Scenario.Sweep.Param, ds))
	if errors.Is(err, chart.ErrNoData) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []string{filepath.Join(d.Path(), diffPlot+"."+format)}, nil
}

// PrintTable writes the headline numbers of each (cell, policy) to w.
func PrintTable(w io.Writer, plan *experiment.Plan, sums []results.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	param := ""
	if plan.Scenario.Sweep != nil {
		param = plan.Scenario.Sweep.Param + "\t"
	}
	// The last column marks a row whose policy overloads some tier (its
	// offered load shown above 1): its latency grows with the run length, so the
	// number is not a steady state and must not be read as one.
	fmt.Fprintf(tw, "%spolicy\truns\tmean latency (s)\t± 95%% CI\tP95 (s)\tP95 large (s)\tMAPE (%%)\t  unstable\n", param)
	for _, s := range sums {
		if param != "" {
			fmt.Fprintf(tw, "%g\t", s.Value)
		}
		unstable := "" // unterminated, so that a stable row ends without padding
		if s.Unstable {
			unstable = "  yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Policy, s.Runs, runner.Num(s.Get(results.ColMeanLatency)), runner.Num(s.CI(results.ColMeanLatency)),
			runner.Num(s.Get(results.ColP95Latency)), runner.Num(s.Get(results.ColP95Large)), runner.Num(s.Get(results.ColMAPE)), unstable)
	}
	_ = tw.Flush()
}

// Legend lists the plan's policy entries for the plots: their labels in
// the scenario's order, each drawn as the registry policy it runs.
func Legend(plan *experiment.Plan) chart.Legend {
	return chart.Legend{Labels: plan.Labels(), Policies: plan.PolicyNames()}
}

// estimatorLegend lists the shadow estimators in registry order.
func estimatorLegend() chart.Legend {
	return chart.Legend{Labels: policies.Estimators(), Policies: policies.Estimators()}
}
