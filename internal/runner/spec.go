package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/store"
)

// Spec is one experiment: what it adds to a plain run of its scenario.
// A new experiment is a new Spec, not a copy of a command.
type Spec struct {
	Name     string // the command, and the default experiment column
	Embedded string // the embedded scenario it runs without -f
	Short    string // one line for --help
	Long     string // the command's help
	// Prepare adjusts and checks the plan before anything is written (the
	// router of mape, the windows of burst); an error is bad input.
	Prepare func(plan *experiment.Plan, a Args) error
	// side keeps the experiment's per-run files in step with runs.csv.
	side func(a Args) *sidecar
	// outputs writes the experiment's files from the finished outcomes and
	// prints its table; it returns the paths written.
	outputs func(r *Result) ([]string, error)
}

// Args are an experiment's own flags (those beyond Options).
// They are recorded in a shard's manifest, since merge writes the outputs
// they shape (mape_summary.csv names the router, burst's windows).
type Args struct {
	Router string  `json:"router,omitempty"` // mape: the policy whose decisions the estimators shadow
	Window float64 `json:"window,omitempty"` // burst: time-series window, s
}

// Result is a finished experiment.
type Result struct {
	Plan     *experiment.Plan
	Outcomes []experiment.Outcome
	Args     Args
	Opts     *Options
	Sums     []results.Summary // summary.csv
	Dir      *store.Dir        // the output folder, open while the outputs are written
}

// runFiles are the files that hold the runs themselves, kept by --resume.
func (s Spec) runFiles(side *sidecar) []string {
	names := []string{"runs.csv"}
	if side != nil {
		names = append(names, side.files...)
	}
	return names
}

// writes lists the names the experiment writes, so that the folder is
// refused up front when a file of the user's stands in the way.
func (s Spec) writes(plan *experiment.Plan, side *sidecar, o Options) []string {
	names := append(s.runFiles(side), "summary.csv", "scenario.yaml", "mape_summary.csv", "timeseries.csv", "bursts.csv", frontCSV)
	for _, p := range []string{"mean_latency", "p95_latency", "p99_latency", "p95_large", "mean_latency_stable", "p95_large_stable",
		"shares", "mape", "mae_wait", "burst_latency", "burst_p95", "burst_cloud_share", diffPlot, frontPlot} {
		names = append(names, p+"."+o.Format)
	}
	if o.Trace {
		names = append(names, "traces/")
	}
	if RunsPrograms(plan) {
		names = append(names, policyLogDir)
	}
	return names
}

// Run executes spec's plan into opts.Dir and writes its files. The plan has
// been built from a validated scenario; nothing is written before Prepare
// passes.
func Run(ctx context.Context, spec Spec, plan *experiment.Plan, a Args, opts Options) (*Result, error) {
	if spec.Prepare != nil {
		if err := spec.Prepare(plan, a); err != nil {
			return nil, BadInput(err)
		}
	}
	plan.TimeDecisions = opts.TimeDecisions
	if err := checkMemory(plan, opts.Workers, opts.MaxMemory); err != nil {
		return nil, err
	}
	if err := checkDescriptors(plan, opts.Workers, fdSoftLimit()); err != nil {
		return nil, err
	}
	if opts.Err != nil {
		for _, w := range PlanWarnings(plan, opts.Workers, opts.Shard) {
			fmt.Fprintln(opts.Err, "offload: warning:", w)
		}
	}
	var side *sidecar
	if spec.side != nil {
		side = spec.side(a)
	}
	d, err := openDirExtending(opts.Dir, plan.Scenario.Hash(), fewerSeedsHash(plan, opts), plan.Name, opts.Force, opts.Resume, opts.Trace, opts.TimeDecisions,
		spec.writes(plan, side, opts), spec.runFiles(side))
	if err != nil {
		if resolved, merr := plan.Scenario.Marshal(); merr == nil {
			err = explainRefusal(err, opts.Dir, resolved)
		}
		return nil, err
	}
	defer d.Close()
	if err := checkResumedShard(d, opts); err != nil {
		return nil, err
	}
	outs, err := execute(ctx, &opts, d, spec, a, plan, side)
	if err != nil {
		return nil, err
	}
	r := &Result{Plan: plan, Outcomes: outs, Args: a, Opts: &opts, Dir: d}
	if !opts.Shard.Whole() {
		// A shard's summaries would be of a slice of the replicates:
		// summary.csv and the plots come from merge, over all of them.
		noteShard(opts.Out, d.Path(), spec, side, opts.Shard, len(outs))
		return r, nil
	}
	if err := writeOutputs(spec, r); err != nil {
		return nil, err
	}
	return r, nil
}

// writeOutputs writes the experiment's files from the finished outcomes in
// r (summary.csv, plots, its own files), lists them in the manifest, and
// prints its table and the paths written: what a run does after its last
// run, and what merge does with the shards' runs.
func writeOutputs(spec Spec, r *Result) error {
	out := spec.outputs
	if out == nil {
		out = sweepOutputs
	}
	written, err := out(r)
	if err != nil {
		return err
	}
	// The summary and plots came after the manifest: it lists them too.
	if err := r.Dir.Refresh(); err != nil {
		return err
	}
	NoteWritten(r.Opts.Out, written...)
	return nil
}

// Specs are the experiments with a command of their own, in help order.
func Specs() []Spec {
	return []Spec{RunSpec(), sweepSpec("sweep-load", "Latency of every policy against the arrival rate",
		`Run every policy over the arrival rates of the embedded sweep-load scenario
(or -f FILE): mean, P95, P99 and large-task P95 latency and tier shares
against the rate, with 95% confidence intervals across replicates.`),
		sweepSpec("edge-capacity", "Latency of every policy against the number of edge servers",
			`Run every policy over the edge server counts of the embedded edge-capacity
scenario (or -f FILE), at a fixed arrival rate.`),
		MAPESpec(), BurstSpec(), StalenessSpec(),
		sweepSpec("trace-azure", "Every policy replaying the Azure LLM code trace, against its rate",
			`Replay the Azure LLM inference trace 2023 (code; CC-BY 4.0) on the default
continuum under every policy, its time rescaled to each swept trace.rate and its
sizes to mean 1 (the embedded trace-azure scenario, or -f FILE with a trace block).`),
		EnergySpec(), BalancersSpec()}
}

// RunSpec is `offload run`: a scenario under its policies, its sweep
// expanded if it has one.
func RunSpec() Spec {
	s := sweepSpec("run", "Run a scenario under its policies",
		`Run a scenario (the embedded default, or -f FILE) under each of its policies
and replicates, expanding its sweep if it has one. Writes runs.csv,
summary.csv, scenario.yaml and manifest.json (and plots for a sweep) into -o.`)
	s.Embedded = "default"
	return s
}

func sweepSpec(name, short, long string) Spec {
	return Spec{Name: name, Embedded: name, Short: short, Long: long}
}

// sweepOutputs writes summary.csv and, for a sweep, the plots, and prints
// the headline table.
func sweepOutputs(r *Result) ([]string, error) {
	dir, plan := r.Opts.Dir, r.Plan
	sums, err := writeSummary(r.Dir, plan.Columns(), outcomeRuns(r.Outcomes))
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv")}
	if plan.Scenario.Sweep != nil {
		plots, err := sweepPlots(r.Dir, r.Opts.Format, plan, sums, r.Opts.Err)
		if err != nil {
			return nil, err
		}
		written = append(written, plots...)
		p, err := sweepDiff(r.Dir, r.Opts.Format, plan, outcomeRuns(r.Outcomes))
		if err != nil {
			return nil, err
		}
		written = append(written, p...)
	}
	printTable(r.Opts.Out, plan, sums)
	return written, nil
}

// sweepPlots draws the sweep's figures (report.SweepFigures) into the
// folder, each with its title in the image and its caption left to the
// report. A figure without data (no stable point, say) is left out; one
// that cannot show everything (too many tiers for a band each) says so on
// warn, a warning, not a failure.
func sweepPlots(d *store.Dir, format string, plan *experiment.Plan, sums []results.Summary, warn io.Writer) ([]string, error) {
	var paths []string
	for _, f := range report.SweepFigures(sums, legendOf(plan), plan.Scenario.Sweep.Param, plan.Tiers()) {
		if f.Note != "" && warn != nil {
			fmt.Fprintf(warn, "offload: warning: %s: %s\n", fmtPath(d.Path(), f.File+"."+format), f.Note)
		}
		err := f.Draw(d, f.File, format, true, false)
		if errors.Is(err, report.ErrNoData) {
			continue
		}
		if err != nil {
			return paths, err
		}
		paths = append(paths, fmtPath(d.Path(), f.File+"."+format))
	}
	return paths, nil
}

// diffPlot is the file stem of a sweep's difference plot.
const diffPlot = "diff_mean_latency"

// sweepDiff draws, when jsq-s runs in the sweep, every policy's paired
// mean-latency difference against it: jsq-s, with no estimator at all, has
// the lowest mean latency of the deployable policies in the paper-scale run
// (docs/experiments.md), so the gap to it is what a policy has to explain.
func sweepDiff(d *store.Dir, format string, plan *experiment.Plan, runs []results.Run) ([]string, error) {
	if !slices.Contains(plan.Labels(), policies.NameJSQS) {
		return nil, nil
	}
	ds, err := results.CompareTo(runs, policies.NameJSQS, results.ColMeanLatency)
	if err != nil {
		return nil, err
	}
	err = report.PlotDiffs(d, diffPlot, format, ds, legendOf(plan), diffFigure(results.ColMeanLatency, policies.NameJSQS, plan.Scenario.Sweep.Param, ds))
	if errors.Is(err, report.ErrNoData) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []string{fmtPath(d.Path(), diffPlot+"."+format)}, nil
}

// printTable writes the headline numbers of each (cell, policy) to w.
func printTable(w io.Writer, plan *experiment.Plan, sums []results.Summary) {
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
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Policy, s.Runs, Num(s.Get(results.ColMeanLatency)), Num(s.CI(results.ColMeanLatency)),
			Num(s.Get(results.ColP95Latency)), Num(s.Get(results.ColP95Large)), Num(s.Get(results.ColMAPE)), unstable)
	}
	_ = tw.Flush()
}

// Num formats a table cell: four significant digits, "-" when missing.
func Num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%.4g", x)
}

// legendOf lists the plan's policy entries for the plots: their labels in
// the scenario's order, each drawn as the registry policy it runs.
func legendOf(plan *experiment.Plan) report.Legend {
	return report.Legend{Labels: plan.Labels(), Policies: plan.PolicyNames()}
}

// estimatorLegend lists the shadow estimators in registry order.
func estimatorLegend() report.Legend {
	return report.Legend{Labels: policies.Estimators(), Policies: policies.Estimators()}
}
