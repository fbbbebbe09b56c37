package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/store"
)

// Options say where results go and how a run behaves: the flags every
// experiment shares.
type Options struct {
	Dir           string // -o
	Force         bool   // write into a folder holding another scenario's results
	Resume        bool   // run only what runs.csv lacks
	Workers       int    // -j, ≥ 1
	Format        string // plot format: png, svg or pdf
	Trace         bool   // per-task CSVs under traces/
	TimeDecisions bool   // decision_ns
	Command       []string
	// Shard, unless Whole, runs only that slice of the plan's runs, into a
	// folder of its own that `offload merge` combines with the others.
	Shard experiment.Shard
	// MaxMemory bounds the memory the runs may need at once, bytes (0: no
	// bound); a plan over it is refused before anything is written.
	MaxMemory float64
	// FDLimit is the process's descriptor limit (0: unknown, not checked):
	// a plan whose exec programs would need more open files at once is
	// refused before anything is written. cmd raises the soft limit to the
	// hard one first (testbed.RaiseFDLimit), as Go's runtime does at start.
	FDLimit uint64
	// Precision, if set, runs until precise (--precision): each cell's
	// replicates grow from max(seeds, 10) until the rule stops it; the
	// scenario's seeds are then the minimum, not the count.
	Precision *experiment.Precision
	// Batches, if positive, analyses each run's mean latency as this many
	// batch means of consecutive tasks (--batches): runs.csv and
	// summary.csv gain batch_ci95, batch_lag1 and batch_correlated.
	Batches int
	// Memo, if set, holds the runs of the experiments run before with the
	// same options (reproduce): a job whose run it has is taken from it,
	// and the plan's runs are added to it.
	Memo *experiment.Memo
	// Progress, if set, starts a progress display for a named batch of
	// total runs: update is called after each finished run, finish at the
	// end (the bar is cmd's).
	Progress func(name string, total int) (update func(done, total int), finish func())
	// Out receives tables and the paths written; Err the notes on an
	// interrupted run. Neither is a terminal here: cmd owns that.
	Out, Err io.Writer
}

// Sidecar persists what a plan's runs produce beyond their runs.csv rows
// (mape.csv, series_runs.csv), so that --resume can skip them too.
type Sidecar struct {
	Files []string // the files it writes
	// Load returns, per run already on disk, its outcome's extras.
	Load func(src Reader, plan *experiment.Plan) (map[RunKey]experiment.Outcome, error)
	// Write stores the extras of the finished outcomes.
	Write func(d *store.Dir, plan *experiment.Plan, outs []experiment.Outcome) error
}

// execute runs the plan (or opts.Shard's slice of it) into the folder: it
// honours --resume, runs what is missing, and always leaves runs.csv (and
// the sidecar's files), scenario.yaml and manifest.json consistent with what
// finished, even when interrupted. It returns the outcomes in job order.
func execute(ctx context.Context, o *Options, d *store.Dir, spec Spec, a Args, plan *experiment.Plan, side *Sidecar) ([]experiment.Outcome, error) {
	sc := plan.Scenario
	jobs := plan.Jobs()
	sh := o.Shard
	mine := len(jobs)
	if !sh.Whole() {
		mine = len(sh.Jobs(len(jobs)))
	}
	have := map[RunKey]experiment.Outcome{}
	if o.Resume {
		var err error
		if have, err = readHave(dirReader(ctx, d), plan, side); err != nil {
			return nil, err
		}
	}
	key := func(i int) RunKey { return jobKey(plan, jobs[i]) }
	m := NewManifest(o.Command, plan.Name, sc.Seed, sc.Seeds, sc.Hash())
	m.Runs, m.TimeDecisions = mine, o.TimeDecisions
	if !sh.Whole() {
		m.Extra = shardExtra(spec, a, sh, len(jobs))
	}
	if o.Precision != nil {
		m.Extra = map[string]any{extraPrecision: recordOf(o.Precision)}
	}
	// The manifest first: while the folder's manifest names another
	// scenario, the store refuses every other write.
	if err := d.WriteManifest(*m); err != nil {
		return nil, err
	}
	if err := writeScenario(d, plan); err != nil {
		return nil, err
	}
	opt, finish := runOptions(o, d, plan, mine, have, key)
	defer finish()
	var out []experiment.Outcome
	var runErr error
	if o.Precision != nil {
		had := func(j experiment.Job) (experiment.Outcome, bool) { r, ok := have[jobKey(plan, j)]; return r, ok }
		out, runErr = plan.ExecutePrecise(ctx, o.Precision, opt, had, o.Progress)
		jobs = plan.Jobs()
		mine = len(jobs)
		m.Runs = mine
	} else {
		out, runErr = plan.Execute(ctx, opt)
	}
	if o.Memo != nil {
		o.Memo.Add(plan, out)
	}
	done := kept(out, have, key, sh)
	if err := writeRunFiles(d, plan, side, done); err != nil {
		return nil, err
	}
	m.RunsDone, m.Complete = len(done), runErr == nil && len(done) == mine
	if m.Complete {
		m.Finished = time.Now().UTC()
	}
	if err := d.WriteManifest(*m); err != nil {
		return nil, err
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) && o.Err != nil {
			fmt.Fprintf(o.Err, "offload: %d of %d runs finished and were kept in %s; the same command with --resume runs the rest\n",
				len(done), mine, filepath.Join(d.Path(), "runs.csv"))
		}
		return nil, runErr
	}
	return done, nil
}

// runOptions are the experiment options of a run into d: the runs
// already in have are skipped, and only the shard's (mine of them) are
// run; finish ends the progress display.
func runOptions(o *Options, d *store.Dir, plan *experiment.Plan, mine int, have map[RunKey]experiment.Outcome, key func(int) RunKey) (experiment.Options, func()) {
	sh := o.Shard
	opt := experiment.Options{Workers: o.Workers,
		Have: func(i int) bool { _, ok := have[key(i)]; return ok }}
	if !sh.Whole() {
		opt.Only = sh.Holds
	}
	finish := func() {}
	if o.Progress != nil && o.Precision == nil { // a precise run shows a bar per look
		var update func(done, total int)
		update, finish = o.Progress(plan.Name, mine)
		opt.Progress = update
	}
	if o.Trace {
		opt.Trace = traceSink(d, plan)
	}
	if RunsPrograms(plan) {
		opt.PolicyLog = PolicyLogs(d, plan)
	}
	if o.Memo != nil && !o.Trace { // a taken run would have no per-task trace
		opt.Reuse = func(j experiment.Job) (experiment.Outcome, bool) { return o.Memo.Lookup(plan, j) }
	}
	return opt, finish
}

// kept are the shard's outcomes in job order: those a --resume found on
// disk, and those that finished now.
func kept(out []experiment.Outcome, have map[RunKey]experiment.Outcome, key func(int) RunKey, sh experiment.Shard) []experiment.Outcome {
	var done []experiment.Outcome
	for i := range out {
		if !sh.Holds(i) {
			continue // another shard's, even if a --resume found it here
		}
		if r, ok := have[key(i)]; ok {
			done = append(done, r)
		} else if out[i].Policy != "" {
			done = append(done, out[i])
		}
	}
	return done
}

// writeScenario writes the resolved scenario, whose hash is the folder's.
func writeScenario(d *store.Dir, plan *experiment.Plan) error {
	resolved, err := plan.Scenario.Marshal()
	if err != nil {
		return err
	}
	return d.WriteFile("scenario.yaml", func(w io.Writer) error { _, err := w.Write(resolved); return err })
}

// writeRunFiles writes runs.csv and the sidecar's files for the outcomes,
// in the order given (job order).
func writeRunFiles(d *store.Dir, plan *experiment.Plan, side *Sidecar, done []experiment.Outcome) error {
	runs := OutcomeRuns(done)
	if err := d.WriteFile("runs.csv", func(w io.Writer) error { return results.WriteRuns(w, plan.Columns(), runs) }); err != nil {
		return err
	}
	if side != nil {
		return side.Write(d, plan, done)
	}
	return nil
}

// jobKey is the RunKey of a job of the plan.
func jobKey(plan *experiment.Plan, j experiment.Job) RunKey {
	c := plan.Cells[j.Cell]
	return RunKey{c.Param, math.Float64bits(c.Value), j.Policy, j.Seed}
}

// RunKey identifies a run across invocations, for --resume.
type RunKey struct {
	param  string
	value  uint64 // float64 bits: runs.csv round-trips floats exactly
	policy string
	seed   int
}

// keyOfRun is the RunKey of a runs.csv row.
func keyOfRun(r results.Run) RunKey {
	return NewRunKey(r.Param, r.Value, r.Policy, r.Seed)
}

// NewRunKey is the RunKey of a run named by its cell, policy and replicate
// (a sidecar's row).
func NewRunKey(param string, value float64, policy string, seed int) RunKey {
	return RunKey{param, math.Float64bits(value), policy, seed}
}

// readHave collects the runs of a previous invocation: those in runs.csv
// and, with a sidecar, only those whose extras are on disk too.
func readHave(src Reader, plan *experiment.Plan, side *Sidecar) (map[RunKey]experiment.Outcome, error) {
	have := map[RunKey]experiment.Outcome{}
	runs, extras, err := readRunFiles(src, plan, side)
	if err != nil {
		return nil, BadInputf("--resume: %w", err)
	}
	for _, r := range runs {
		k := keyOfRun(r)
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

// readRunFiles reads runs.csv and the sidecar's files of a folder.
func readRunFiles(src Reader, plan *experiment.Plan, side *Sidecar) ([]results.Run, map[RunKey]experiment.Outcome, error) {
	var runs []results.Run
	err := src("runs.csv", func(r io.Reader) (err error) {
		runs, err = results.ReadRuns(r, plan.Columns())
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var extras map[RunKey]experiment.Outcome
	if side != nil && len(runs) > 0 {
		if extras, err = side.Load(src, plan); err != nil {
			return nil, nil, err
		}
	}
	return runs, extras, nil
}

// OutcomeRuns extracts the runs.csv rows.
func OutcomeRuns(outs []experiment.Outcome) []results.Run {
	runs := make([]results.Run, len(outs))
	for i := range outs {
		runs[i] = outs[i].Run
	}
	return runs
}

func fmtPath(dir, name string) string { return filepath.Join(dir, name) }

func NoteWritten(w io.Writer, paths ...string) {
	for _, p := range paths {
		fmt.Fprintln(w, "wrote", p)
	}
}

// WriteSummary writes summary.csv for the runs and returns the summaries;
// for a run until precise, with the precision each cell reached, and the
// cells that hit the cap noted on o.Err.
func WriteSummary(d *store.Dir, plan *experiment.Plan, o *Options, runs []results.Run) ([]results.Summary, error) {
	cols := plan.Columns()
	sums := results.Summarize(runs)
	if o.Precision != nil {
		if note := plan.PrecisionOf(o.Precision, runs, sums); note != "" && o.Err != nil {
			fmt.Fprintf(o.Err, "offload: warning: %s\n", note)
		}
	}
	if note := batchNote(o.Batches, runs); note != "" && o.Err != nil {
		fmt.Fprintf(o.Err, "offload: warning: %s\n", note)
	}
	err := d.WriteFile("summary.csv", func(w io.Writer) error { return results.WriteSummary(w, cols, sums) })
	return sums, err
}
