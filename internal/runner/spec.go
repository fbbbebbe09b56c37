package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/offload-sim/offload/internal/experiment"
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
	Example  string // the command's --help examples
	// Router says that the experiment reads Args.Router: its command has
	// --router, the one policy it runs, instead of --policy.
	Router bool
	// Window says that it reads Args.Window: its command has --window.
	Window bool
	// DurationMode says that it runs in duration mode only: its command
	// does not offer --tasks.
	DurationMode bool
	// Prepare adjusts and checks the plan before anything is written (the
	// router of mape, the windows of burst); an error is bad input.
	Prepare func(plan *experiment.Plan, a Args) error
	// Side, if set, keeps the experiment's per-run files in step with
	// runs.csv.
	Side func(a Args) *Sidecar
	// Outputs writes the experiment's files from the finished outcomes and
	// prints its table; it returns the paths written.
	Outputs func(r *Result) ([]string, error)
	// Files and Plots are the names Outputs may write beside runs.csv,
	// summary.csv, scenario.yaml and the sidecar's files: Plots are figure
	// stems, written in Options.Format.
	Files, Plots []string
	// FixedSeeds: the outputs read every cell's replicates as the
	// scenario's seeds, so --precision, which varies them by cell, is
	// refused.
	FixedSeeds bool
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
func (s Spec) runFiles(side *Sidecar) []string {
	names := []string{"runs.csv"}
	if side != nil {
		names = append(names, side.Files...)
	}
	return names
}

// writes lists the names the experiment writes, so that the folder is
// refused up front when a file of the user's stands in the way.
func (s Spec) writes(plan *experiment.Plan, side *Sidecar, o Options) []string {
	names := append(s.runFiles(side), "summary.csv", "scenario.yaml")
	names = append(names, s.Files...)
	for _, p := range s.Plots {
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
	if err := checkPrecision(spec, opts); err != nil {
		return nil, err
	}
	if err := checkBatches(opts); err != nil {
		return nil, err
	}
	plan.Batches = opts.Batches
	if err := CheckMemory(plan, opts.Workers, opts.MaxMemory); err != nil {
		return nil, err
	}
	if err := checkDescriptors(plan, opts.Workers, opts.FDLimit); err != nil {
		return nil, err
	}
	if opts.Err != nil {
		for _, w := range planWarnings(plan, opts.Workers, opts.Shard) {
			fmt.Fprintln(opts.Err, "offload: warning:", w)
		}
	}
	var side *Sidecar
	if spec.Side != nil {
		side = spec.Side(a)
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
	if err := CheckResumedShard(d, opts); err != nil {
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
	written, err := spec.Outputs(r)
	if err != nil {
		return err
	}
	// The summary and plots came after the manifest: it lists them too.
	if err := r.Dir.Refresh(); err != nil {
		return err
	}
	NoteWritten(r.Opts.Out, written...)
	noteGone(r.Opts.Out, r.Dir)
	return nil
}

// noteGone says which of an earlier command's files in d the opening
// removed without writing them again (a report, a comparison, a re-plot:
// made from results this run replaced), a folder's files in one line.
func noteGone(w io.Writer, d *store.Dir) {
	var names []string
	files := map[string]int{}
	for _, n := range d.Gone() {
		if top, _, sub := strings.Cut(n, "/"); sub {
			n = top + "/"
		}
		if files[n]++; files[n] == 1 {
			names = append(names, n)
		}
	}
	for _, n := range names {
		what := "an earlier command's file, which this one does not write"
		if strings.HasSuffix(n, "/") {
			what = fmt.Sprintf("%d files of an earlier command, which this one does not write", files[n])
		}
		fmt.Fprintf(w, "removed %s (%s)\n", filepath.Join(d.Path(), n), what)
	}
}

// Num formats a table cell: four significant digits, "-" when missing.
func Num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%.4g", x)
}
