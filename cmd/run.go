package cmd

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/testbed"
)

// runOptions are the flags of `offload run` and of every experiment.
type runOptions struct {
	io       IO
	spec     runner.Spec
	sf       scenarioFlags
	of       outputFlags
	policies []string // --policy: narrows the scenario's entries, by label
	prec     precisionFlags
	args     runner.Args
	command  []string // the command line, for the manifest
}

// outputFlags say where results go and how a run behaves.
type outputFlags struct {
	dir           string
	force, resume bool
	quiet         bool
	jobs          int
	format        string
	trace         bool
	timeDecisions bool
	maxMemory     string // --max-memory, e.g. 8GiB; "" = half this machine's memory
	shardFlag     string // --shard k/K or auto
	shards        int    // --shards K, for --shard auto
	shard         experiment.Shard
}

func (o *outputFlags) register(c *cobra.Command, defaultDir string) {
	fl := c.Flags()
	fl.StringVarP(&o.dir, "out", "o", defaultDir, "output `folder`")
	fl.BoolVar(&o.force, "force", false, "write into a folder that holds another scenario's results")
	fl.BoolVar(&o.resume, "resume", false, "keep the runs already in the folder's runs.csv and run only the missing ones")
	fl.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fl.IntVarP(&o.jobs, "jobs", "j", 0, "parallel runs (0: all cores)")
	fl.StringVar(&o.format, "format", "png", "plot format: png, svg or pdf")
	fl.BoolVar(&o.timeDecisions, "time-decisions", false, "measure each decision's wall-clock cost (decision_ns; not reproducible)")
	fl.StringVar(&o.shardFlag, "shard", "", "run only shard `k/K` of the plan (the runs whose index mod K is k), for offload merge; auto: from a Slurm job array or a Kubernetes Indexed Job")
	fl.IntVar(&o.shards, "shards", 0, "with --shard auto: the shard count `K` (needed on Kubernetes, which does not export it)")
	fl.StringVar(&o.maxMemory, "max-memory", "", "refuse a plan whose parallel runs need more memory than this (`SIZE`, e.g. 8GiB; default: half this machine's memory)")
}

// check validates the flags before anything is written; env is the
// environment --shard auto reads.
func (o *outputFlags) check(env func(string) string) error {
	sh, err := experiment.ParseShard(o.shardFlag, o.shards, env)
	if err != nil {
		return badInput(err)
	}
	o.shard = sh
	if o.jobs < 0 {
		return badInputf("-j %d: must be ≥ 0 (0 means all %d cores)", o.jobs, runtime.NumCPU())
	}
	if o.jobs == 0 {
		o.jobs = runtime.NumCPU()
	}
	if !slices.Contains(chart.Formats, o.format) {
		return badInputf("--format %q: allowed: %s", o.format, strings.Join(chart.Formats, ", "))
	}
	if o.dir == "" {
		return badInputf("-o: empty folder name")
	}
	if o.maxMemory != "" {
		if _, err := runner.ParseBytes(o.maxMemory); err != nil {
			return badInputf("--max-memory %q: %v", o.maxMemory, err)
		}
	}
	return nil
}

// options turns the flags into the runner's options.
func (o *outputFlags) options(io IO, command []string) runner.Options {
	limit := runner.MachineMemory() / 2
	if o.maxMemory != "" {
		limit, _ = runner.ParseBytes(o.maxMemory)
	}
	return runner.Options{Dir: o.dir, Force: o.force, Resume: o.resume, Workers: o.jobs, Format: o.format, MaxMemory: limit, FDLimit: testbed.RaiseFDLimit().Soft,
		Trace: o.trace, TimeDecisions: o.timeDecisions, Shard: o.shard, Command: command, Out: io.Out, Err: io.Err,
		Progress: func(name string, total int) (func(int, int), func()) { return newProgress(io, o.quiet, name, total) }}
}

// newExperimentCmd builds the command of one experiment spec. runF, if set,
// replaces the run (tests capture the parsed options with it).
func newExperimentCmd(io IO, spec runner.Spec, runF func(*runOptions) error) *cobra.Command {
	o := &runOptions{io: io, spec: spec}
	c := &cobra.Command{
		Use:     spec.Name,
		Short:   spec.Short,
		Example: spec.Example,
		Long:    spec.Long + "\n\nPolicies (--policy selects the scenario's entries by label, any other by name):\n" + policies.Help(),
		Args:    noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.command = cmdArgs(c.Context())
			if runF != nil {
				return runF(o)
			}
			return runExperiment(c.Context(), o)
		},
	}
	o.sf.register(c)
	o.of.register(c, filepath.Join("results", spec.Name))
	o.prec.register(c, spec.Precise())
	if spec.DurationMode { // --tasks is refused, so --help does not offer it
		_ = c.Flags().MarkHidden("tasks")
	}
	fl := c.Flags()
	fl.BoolVar(&o.of.trace, "trace", false, "also write one per-task CSV per run under traces/")
	if spec.Router {
		fl.StringVar(&o.args.Router, "router", policies.NameHybrid, "policy whose decisions the estimators shadow")
	}
	if spec.Window {
		secondsVar(fl, &o.args.Window, "window", 5, "time-series window width, model seconds")
	}
	if !spec.Router {
		fl.StringSliceVar(&o.policies, "policy", nil, "run only these policies: the scenario's entries by label, any registered one by name (`a,b`)")
	}
	return c
}

// loadPlan reads the scenario and expands it; every error is bad input.
func (o *runOptions) loadPlan() (*experiment.Plan, error) {
	sets := slices.Clone(o.sf.sets)
	if o.spec.Router {
		if !slices.Contains(policies.Names(), o.args.Router) {
			return nil, badInputf("--router %q: allowed: %s", o.args.Router, strings.Join(policies.Names(), ", "))
		}
		sets = append(sets, "policies=["+o.args.Router+"]")
	}
	sc, err := o.sf.load(o.spec.Embedded, sets)
	if err != nil {
		return nil, err
	}
	if len(o.policies) > 0 {
		if err := sc.SelectPolicies(o.policies); err != nil {
			return nil, badInputf("--policy %s: %w", strings.Join(o.policies, ","), err)
		}
	}
	name := sc.Name
	if name == "" {
		name = o.spec.Name
	}
	plan, err := experiment.NewPlan(name, sc)
	if err != nil {
		return nil, badInput(err)
	}
	plan.Dir = o.sf.dir()
	return plan, nil
}

func runExperiment(ctx context.Context, o *runOptions) error {
	if err := o.of.check(o.io.getenv); err != nil {
		return err
	}
	plan, err := o.loadPlan()
	if err != nil {
		return err
	}
	opts := o.of.options(o.io, o.command)
	if opts.Precision, err = o.prec.precision(plan.Scenario.Seeds); err != nil {
		return err
	}
	opts.Batches = o.prec.batches
	_, err = runner.Run(ctx, o.spec, plan, o.args, opts)
	return err
}
