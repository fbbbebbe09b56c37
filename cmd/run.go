package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/spf13/cobra"
)

// runOptions are the flags of `offload run` and of the sweep experiments.
type runOptions struct {
	io       IO
	sf       scenarioFlags
	of       outputFlags
	policies []string // --policy: narrows the scenario's list
	embedded string   // embedded scenario used without -f
	command  string   // the subcommand, labels default folders
	args     []string // the command line, for the manifest
	router   string   // mape: the policy whose decisions the estimators shadow
	window   float64  // burst: time-series window, s
	// collect, if set, receives the finished plan and its outcomes
	// (reproduce gathers the experiments' runs for the claims with it).
	collect func(*experiment.Plan, []experiment.Outcome)
}

func newRunCmd(io IO, runF func(*runOptions) error) *cobra.Command {
	c, _ := newExperimentCmd(io, runF, runSweep, "run", "default",
		"Run a scenario under its policies",
		`Run a scenario (the embedded default, or -f FILE) under each of its policies
and replicates, expanding its sweep if it has one. Writes runs.csv,
summary.csv, scenario.yaml and manifest.json (and plots for a sweep) into -o.`)
	return c
}

// newExperimentCmd builds a command that runs a scenario (embedded, or -f)
// with the shared experiment flags. runF, if set, replaces run (tests
// capture the parsed options with it).
func newExperimentCmd(io IO, runF func(*runOptions) error, run func(context.Context, *runOptions) error, use, embedded, short, long string) (*cobra.Command, *runOptions) {
	opts := &runOptions{io: io, embedded: embedded, command: use}
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.args = cmdArgs(c.Context())
			if runF != nil {
				return runF(opts)
			}
			return run(c.Context(), opts)
		},
	}
	opts.sf.register(c)
	opts.of.register(c, filepath.Join("results", use))
	c.Flags().StringSliceVar(&opts.policies, "policy", nil, "run only these policies (`a,b`)")
	c.Flags().BoolVar(&opts.of.trace, "trace", false, "also write one per-task CSV per run under traces/")
	return c, opts
}

// noArgs rejects positional arguments as bad input.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		hint := ""
		if c.Flags().Lookup("file") != nil {
			hint = " (a scenario goes after -f)"
		}
		return badInputf("%s takes no arguments, got %q%s", c.CommandPath(), args, hint)
	}
	return nil
}

// loadPlan reads the scenario and expands it; every error is bad input.
func (o *runOptions) loadPlan() (*experiment.Plan, error) {
	if len(o.policies) > 0 {
		o.sf.sets = append(o.sf.sets, "policies=["+strings.Join(o.policies, ",")+"]")
	}
	sc, err := o.sf.load(o.embedded)
	if err != nil {
		return nil, err
	}
	name := sc.Name
	if name == "" {
		name = o.command
	}
	plan, err := experiment.NewPlan(name, sc)
	if err != nil {
		return nil, badInput(err)
	}
	plan.TimeDecisions = o.of.timeDecisions
	return plan, nil
}

func runSweep(ctx context.Context, o *runOptions) error {
	if err := o.of.check(); err != nil {
		return err
	}
	plan, err := o.loadPlan()
	if err != nil {
		return err
	}
	outs, err := execute(ctx, o, plan, nil)
	if err != nil {
		return err
	}
	sums := results.Summarize(outcomeRuns(outs))
	dir := o.of.dir
	tiers := plan.Tiers()
	if err := report.WriteFileAtomic(dir, "summary.csv", func(w io.Writer) error { return report.WriteSummary(w, tiers, sums) }); err != nil {
		return err
	}
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv")}
	if plan.Scenario.Sweep != nil {
		plots, err := sweepPlots(dir, o.of.format, plan, sums)
		if err != nil {
			return err
		}
		written = append(written, plots...)
	}
	printTable(o.io.Out, plan, sums)
	noteWritten(o.io.Out, written...)
	return nil
}

// sidecar persists what a plan's runs produce beyond their runs.csv rows
// (mape.csv, series_runs.csv), so that --resume can skip them too.
type sidecar struct {
	// load returns, per run already on disk, its outcome's extras.
	load func(dir string, plan *experiment.Plan) (map[runKey]experiment.Outcome, error)
	// write stores the extras of the finished outcomes.
	write func(dir string, plan *experiment.Plan, outs []experiment.Outcome) error
}

// execute runs the plan into o.of.dir: it prepares the folder, honours
// --resume, runs what is missing, and always leaves runs.csv (and the
// sidecar's files), scenario.yaml and manifest.json consistent with what
// finished, even when interrupted. It returns the outcomes in job order.
func execute(ctx context.Context, o *runOptions, plan *experiment.Plan, side *sidecar) ([]experiment.Outcome, error) {
	dir := o.of.dir
	sc := plan.Scenario
	hash := sc.Hash()
	if o.of.resume {
		if err := resumeCheck(dir, hash, o.of.timeDecisions); err != nil {
			return nil, err
		}
	}
	if err := prepareDir(dir, hash, o.of.force); err != nil {
		return nil, err
	}
	// Files derived from runs.csv go first, so that an interruption never
	// leaves a summary or a plot of other runs beside it; without --resume
	// the runs themselves go too, so that a hard crash cannot leave another
	// scenario's runs under this scenario's manifest.
	if err := clearOutputs(dir, !o.of.resume); err != nil {
		return nil, err
	}
	jobs := plan.Jobs()
	have := map[runKey]experiment.Outcome{}
	if o.of.resume {
		var err error
		if have, err = readHave(dir, plan, side); err != nil {
			return nil, err
		}
	}
	key := func(i int) runKey {
		c := plan.Cells[jobs[i].Cell]
		return runKey{c.Param, math.Float64bits(c.Value), jobs[i].Policy, jobs[i].Seed}
	}
	m := manifest{Tool: "offload", Version: version(), Command: o.args, Experiment: plan.Name,
		Seed: sc.Seed, Seeds: sc.Seeds, ScenarioHash: hash, Started: time.Now().UTC(), Runs: len(jobs),
		TimeDecisions: o.of.timeDecisions}
	resolved, err := sc.Marshal()
	if err != nil {
		return nil, err
	}
	if err := report.WriteFileAtomic(dir, "scenario.yaml", func(w io.Writer) error { _, err := w.Write(resolved); return err }); err != nil {
		return nil, err
	}
	if err := writeManifest(dir, m); err != nil {
		return nil, err
	}
	update, finish := newProgress(o.io, o.of.quiet, o.command, len(jobs))
	opt := experiment.Options{Workers: o.of.jobs, Progress: update,
		Have: func(i int) bool { _, ok := have[key(i)]; return ok }}
	if o.of.trace {
		opt.Trace = traceSink(dir, plan)
	}
	out, runErr := plan.Execute(ctx, opt)
	finish()
	var done []experiment.Outcome
	for i := range out {
		if r, ok := have[key(i)]; ok {
			done = append(done, r)
		} else if out[i].Policy != "" {
			done = append(done, out[i])
		}
	}
	runs := outcomeRuns(done)
	tiers := plan.Tiers()
	if err := report.WriteFileAtomic(dir, "runs.csv", func(w io.Writer) error { return report.WriteRuns(w, tiers, runs) }); err != nil {
		return nil, err
	}
	if side != nil {
		if err := side.write(dir, plan, done); err != nil {
			return nil, err
		}
	}
	m.RunsDone, m.Complete = len(done), runErr == nil && len(done) == len(jobs)
	if m.Complete {
		m.Finished = time.Now().UTC()
	}
	if err := writeManifest(dir, m); err != nil {
		return nil, err
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			fmt.Fprintf(o.io.Err, "offload: %d of %d runs finished and were kept in %s; the same command with --resume runs the rest\n",
				len(done), len(jobs), filepath.Join(dir, "runs.csv"))
		}
		return nil, runErr
	}
	if o.collect != nil {
		o.collect(plan, done)
	}
	return done, nil
}

// runKey identifies a run across invocations, for --resume.
type runKey struct {
	param  string
	value  uint64 // float64 bits: runs.csv round-trips floats exactly
	policy string
	seed   int
}

// readHave collects the runs of a previous invocation: those in runs.csv
// and, with a sidecar, only those whose extras are on disk too.
func readHave(dir string, plan *experiment.Plan, side *sidecar) (map[runKey]experiment.Outcome, error) {
	have := map[runKey]experiment.Outcome{}
	var runs []results.Run
	err := readIfExists(dir, "runs.csv", func(r io.Reader) (err error) {
		_, runs, err = report.ReadRuns(r)
		return err
	})
	if err != nil {
		return nil, badInputf("--resume: %w", err)
	}
	var extras map[runKey]experiment.Outcome
	if side != nil && len(runs) > 0 {
		if extras, err = side.load(dir, plan); err != nil {
			return nil, badInputf("--resume: %w", err)
		}
	}
	for _, r := range runs {
		k := runKey{r.Param, math.Float64bits(r.Value), r.Policy, r.Seed}
		out := experiment.Outcome{Run: r}
		if side != nil {
			x, ok := extras[k]
			if !ok {
				continue
			}
			out.Shadows, out.Series = x.Shadows, x.Series
		}
		have[k] = out
	}
	return have, nil
}

// outcomeRuns extracts the runs.csv rows.
func outcomeRuns(outs []experiment.Outcome) []results.Run {
	runs := make([]results.Run, len(outs))
	for i := range outs {
		runs[i] = outs[i].Run
	}
	return runs
}

// sweepPlots draws the latency metrics against the swept parameter.
func sweepPlots(dir, format string, plan *experiment.Plan, sums []results.Summary) ([]string, error) {
	param := plan.Scenario.Sweep.Param
	xlabel := paramLabel(param)
	tiers := plan.Tiers()
	var paths []string
	for _, p := range []struct{ file, metric, title string }{
		{"mean_latency", "mean_latency_s", "Mean latency"},
		{"p95_latency", "p95_latency_s", "P95 latency"},
		{"p99_latency", "p99_latency_s", "P99 latency"},
		{"p95_large", "p95_large_s", "P95 latency of large tasks"},
	} {
		logY := report.SuggestLogY(tiers, sums, p.metric)
		if err := report.PlotMetric(dir, p.file, format, tiers, sums, p.metric, p.title+" vs "+xlabel, xlabel, p.title+" (s)", logY); err != nil {
			return paths, err
		}
		paths = append(paths, fmtPath(dir, p.file+"."+format))
	}
	// The unstable points of a sweep (latencies of hundreds of seconds)
	// squash the others on one axis; a second plot leaves them out.
	var stable []results.Summary
	for _, s := range sums {
		if !s.Unstable {
			stable = append(stable, s)
		}
	}
	for _, p := range []struct{ file, metric, title string }{
		{"mean_latency_stable", "mean_latency_s", "Mean latency"},
		{"p95_large_stable", "p95_large_s", "P95 latency of large tasks"},
	} {
		err := report.PlotMetric(dir, p.file, format, tiers, stable, p.metric, p.title+" vs "+xlabel+" (stable points only)", xlabel, p.title+" (s)", report.SuggestLogY(tiers, stable, p.metric))
		if errors.Is(err, report.ErrNoData) {
			continue
		}
		if err != nil {
			return paths, err
		}
		paths = append(paths, fmtPath(dir, p.file+"."+format))
	}
	for _, t := range tiers {
		file := "share_" + t
		if err := report.PlotMetric(dir, file, format, tiers, sums, file, "Share of tasks sent to "+t+" vs "+xlabel, xlabel, "share of tasks", false); err != nil {
			return paths, err
		}
		paths = append(paths, fmtPath(dir, file+"."+format))
	}
	return paths, nil
}

// paramLabel names a sweep parameter with its unit for axis titles.
func paramLabel(param string) string {
	switch {
	case param == "arrivals.rate":
		return "arrival rate (tasks/s)"
	case strings.HasPrefix(param, "tiers.") && strings.HasSuffix(param, ".servers"):
		return strings.TrimSuffix(strings.TrimPrefix(param, "tiers."), ".servers") + " servers"
	}
	return param
}

// printTable writes the headline numbers of each (cell, policy) to w.
func printTable(w io.Writer, plan *experiment.Plan, sums []results.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	param := ""
	if plan.Scenario.Sweep != nil {
		param = plan.Scenario.Sweep.Param + "\t"
	}
	fmt.Fprintf(tw, "%spolicy\truns\tmean latency (s)\t± 95%% CI\tP95 (s)\tP95 large (s)\tMAPE (%%)\t\n", param)
	for _, s := range sums {
		if param != "" {
			fmt.Fprintf(tw, "%g\t", s.Value)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", s.Policy, s.Runs, num(s.Mean.MeanLatency), num(s.CI95.MeanLatency),
			num(s.Mean.P95Latency), num(s.Mean.P95Large), num(s.Mean.MAPE))
	}
	_ = tw.Flush()
}

// num formats a table cell: four significant digits, "-" when missing.
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%.4g", x)
}
