// Package reproduce holds the experiments (each one Spec: its command, its
// files, its help, its place in a reproduction) and the reproduction of the
// paper: every experiment run into its folder, the claims judged on their
// runs (claims.md), the staleness report beside them, the HTML report; and
// the merge of a reproduction's shards (docs/design.md §4, §5, §6).
//
// It talks to no terminal: what it wrote goes to the io.Writer it is given.
package reproduce

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/scenario"
)

// Scales maps reproduce's --scale to the --set overrides applied to every
// experiment's embedded default ("paper": none). It is a function so that
// no caller can change the table.
func Scales() map[string][]string {
	return map[string][]string{"paper": nil, "ci": {"seeds=5"}}
}

// ciTasks shortens the task-count experiments at --scale ci.
func ciTasks() []string { return []string{"tasks=50000", "warmup=5000"} }

// errClaimFailed is --strict's runtime failure.
var errClaimFailed = errors.New("a claim FAILed (--strict)")

// Options are reproduce's own settings.
type Options struct {
	Scale string   // a key of Scales
	Sets  []string // extra --set overrides for every experiment (e.g. seed=)
	// Extra holds more overrides per experiment, by its folder's name,
	// applied last: a small study or a test narrows one experiment without
	// touching the others.
	Extra  map[string][]string
	Strict bool
	// Baselines also runs the reference baselines (policies.Baselines) in
	// sweep-load, beside the paper's eight. The claims read only the
	// paper's policies, so their verdicts do not change.
	Baselines bool
	// Load parses an embedded scenario with overrides (cmd's loader, which
	// knows the policy registry).
	Load func(embedded string, sets []string) (*scenario.Scenario, error)
	// Emulate, if set, runs the HTTP emulation into dir, the folder
	// EmulateFolder of the reproduction, with the overrides and returns the
	// emulated and simulated runs (claim 6).
	Emulate       func(ctx context.Context, dir string, sets []string) (emu, sim []results.Run, err error)
	EmulateFolder string
	// EmulateFigures, if set, re-draw the emulation's own figures in the
	// report, after the registry's experiments'.
	EmulateFigures analysis.OwnFigures
}

// Name is reproduce's command and experiment name, and the spec of its
// shards.
const Name = "reproduce"

// step is one experiment of a reproduction: its registry entry, embedded
// scenario and what the reproduction changes in it.
type step struct {
	exp      Experiment
	embedded string
	extra    []string // its own overrides
	// args are its own flags (mape's --router, burst's --window).
	args runner.Args
	// baselines: --baselines adds the reference baselines here.
	baselines bool
	// durationMode: it runs for a duration, so --scale ci does not shorten
	// it by task count.
	durationMode bool
	timed        bool // --time-decisions: its decisions are timed
	// optional experiments were added after reproductions had been sharded:
	// merge skips one that no shard folder has, rather than refusing them.
	optional bool
	// section: the report shows it in the paper's order (docs/design.md
	// §4.5), before the others.
	section bool
}

// steps are reproduce's experiments, in the order they run (and merge).
func steps() []step {
	return []step{sweepLoadStep(), edgeCapacityStep(), mapeStep(), burstStep(), stalenessStep(), decisionStep(), explorationStep()}
}

// stepExperiments are the registry entries of steps.
func stepExperiments() []Experiment {
	var exps []Experiment
	for _, st := range steps() {
		exps = append(exps, st.exp)
	}
	return exps
}

// Reproduced are the experiments of a reproduction that have a command of
// their own, in the order it runs them (reproduce's help lists them).
func Reproduced() []string {
	var names []string
	for _, st := range steps() {
		if slices.ContainsFunc(Specs(), func(e Experiment) bool { return e.Name == st.exp.Name }) {
			names = append(names, st.exp.Name)
		}
	}
	return names
}

// BaselinesIn is the experiment of a reproduction to which --baselines adds
// the reference baselines.
func BaselinesIn() string {
	for _, st := range steps() {
		if st.baselines {
			return st.exp.Name
		}
	}
	return ""
}

// ReportOrder is the order of a reproduction's folders in its report: the
// paper's experiments, then those of after (the emulation's); any other
// folder follows.
func ReportOrder(after ...string) []string {
	var order []string
	for _, st := range steps() {
		if st.section {
			order = append(order, st.exp.Name)
		}
	}
	return append(order, after...)
}

// sub is one experiment of a reproduction, its plan built.
type sub struct {
	spec runner.Spec
	plan *experiment.Plan
	args runner.Args
	time bool
}

// Reproduce runs every experiment of the paper into opts.Dir/<experiment>,
// judges the claims and writes claims.md.
func Reproduce(ctx context.Context, ro Options, opts runner.Options) ([]claims.Claim, error) {
	base, ok := Scales()[ro.Scale]
	if !ok {
		return nil, runner.BadInputf("--scale %q: allowed: ci, paper", ro.Scale)
	}
	sets := append(append([]string(nil), base...), ro.Sets...)
	// Every experiment's plan is built before anything is written, so that
	// a bad override fails with nothing on disk.
	subs, err := plans(ro, sets, opts)
	if err != nil {
		return nil, err
	}
	sharded := !opts.Shard.Whole()
	if sharded && ro.Emulate != nil {
		return nil, runner.BadInputf("--shard with --emulate: the HTTP emulation runs on wall-clock timers and cannot be split; run it on one machine")
	}
	d, m, err := openRoot(ro, sets, subs[0].plan.Scenario, opts)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	got, err := runSubs(ctx, subs, opts)
	if err != nil {
		return nil, err
	}
	if sharded {
		if err := runner.WriteComplete(d, m); err != nil {
			return nil, err
		}
		fmt.Fprintf(opts.Out, "shard %s of %s: claims.md comes from `offload merge -o OUT` over the %d shard folders\n", opts.Shard, Name, opts.Shard.Count)
		return nil, nil
	}
	return finish(ctx, d, m, got, ro, sets, opts)
}

// plans builds every experiment's plan and checks that each fits in memory.
func plans(ro Options, sets []string, opts runner.Options) ([]sub, error) {
	var loadExtra []string
	if ro.Baselines {
		all := append(policies.Defaults(), policies.Baselines()...)
		loadExtra = []string{"policies=[" + strings.Join(all, ", ") + "]"}
	}
	var subs []sub
	for _, st := range steps() {
		s := append(append([]string(nil), sets...), st.extra...)
		if st.baselines {
			s = append(s, loadExtra...)
		}
		if ro.Scale == "ci" && !st.durationMode {
			s = append(s, ciTasks()...)
		}
		s = append(s, ro.Extra[st.exp.Name]...)
		sc, err := ro.Load(st.embedded, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", st.exp.Name, err)
		}
		name := sc.Name
		if name == "" {
			name = st.exp.Name
		}
		plan, err := experiment.NewPlan(name, sc)
		if err != nil {
			return nil, runner.BadInput(fmt.Errorf("%s: %w", st.exp.Name, err))
		}
		subs = append(subs, sub{spec: st.exp.Spec, plan: plan, args: st.args, time: st.timed})
	}
	for _, sub := range subs {
		if err := runner.CheckMemory(sub.plan, opts.Workers, opts.MaxMemory); err != nil {
			return nil, fmt.Errorf("%s: %w", sub.spec.Name, err)
		}
	}
	return subs, nil
}

// openRoot opens the reproduction's folder, guarded like an experiment's:
// its manifest's hash names the scale, the overrides and --emulate; it
// records the master seed, which every experiment runs under (the embedded
// scenarios share it, and --seed overrides it in all).
func openRoot(ro Options, sets []string, first *scenario.Scenario, opts runner.Options) (*runner.Folder, *runner.Manifest, error) {
	desc := fmt.Sprintf("%s %s %q emulate=%v", Name, ro.Scale, sets, ro.Emulate != nil)
	if ro.Baselines { // only then, so that the folders of earlier runs keep their hash
		desc += " baselines"
	}
	sum := sha256.Sum256([]byte(desc))
	hash := hex.EncodeToString(sum[:])
	d, err := runner.OpenFolder(opts.Dir, hash, Name, opts.Force, opts.Resume, []string{"claims.md", analysis.ReportFile})
	if err != nil {
		return nil, nil, err
	}
	if err := runner.CheckResumedShard(d, opts); err != nil {
		d.Close()
		return nil, nil, err
	}
	m := runner.NewManifest(opts.Command, Name, first.Seed, first.Seeds, hash)
	if !opts.Shard.Whole() {
		// A reproduce shard is the same shard of every experiment, each in
		// its folder; claims.md needs all the runs, so merge writes it.
		m.Extra = runner.GroupShardExtra(opts.Shard, Name, ro.Scale)
	}
	if err := d.WriteManifest(*m); err != nil {
		d.Close()
		return nil, nil, err
	}
	return d, m, nil
}

// runSubs runs every experiment into its folder. A run that an earlier
// experiment made is not made again: the exploration folder's hybrid and
// edge-first are sweep-load's runs.
func runSubs(ctx context.Context, subs []sub, opts runner.Options) (map[string]*runner.Result, error) {
	got := map[string]*runner.Result{}
	memo := experiment.NewMemo()
	for _, s := range subs {
		o := opts
		o.Memo = memo
		o.Dir = filepath.Join(opts.Dir, s.spec.Name)
		o.Out = io.Discard
		o.TimeDecisions = s.time
		r, err := runner.Run(ctx, s.spec, s.plan, s.args, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.spec.Name, err)
		}
		got[s.spec.Name] = r
		fmt.Fprintln(opts.Out, "wrote", o.Dir)
	}
	return got, nil
}

// finish judges the claims (claim 6 on the emulation, when asked), writes
// claims.md, completes the manifest, and writes the report last, once the
// manifest it shows says complete (the manifest is written again to record
// it).
func finish(ctx context.Context, d *runner.Folder, m *runner.Manifest, got map[string]*runner.Result, ro Options, sets []string, opts runner.Options) ([]claims.Claim, error) {
	cs := judgeClaims(got)
	if ro.Emulate != nil {
		dir := filepath.Join(opts.Dir, ro.EmulateFolder)
		emu, sim, err := ro.Emulate(ctx, dir, sets)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ro.EmulateFolder, err)
		}
		cs[5] = claims.Ranking(emu, sim)
		fmt.Fprintln(opts.Out, "wrote", dir)
	}
	failed, err := writeClaims(d, ro.Scale, runner.Version(), cs, staleSection(got), opts.Out)
	if err != nil {
		return nil, err
	}
	if err := runner.WriteComplete(d, m); err != nil {
		return nil, err
	}
	figs := ReportFigures()
	if ro.EmulateFigures != nil {
		figs = append(figs, ro.EmulateFigures)
	}
	page, err := analysis.RenderReport(ctx, opts.Dir, analysis.ReportOptions{Order: ReportOrder(ro.EmulateFolder), Figures: figs})
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if err := d.WriteFile(analysis.ReportFile, func(w io.Writer) error { _, err := w.Write(page); return err }); err != nil {
		return nil, err
	}
	if err := d.WriteManifest(*m); err != nil {
		return nil, err
	}
	fmt.Fprintln(opts.Out, "wrote", filepath.Join(opts.Dir, analysis.ReportFile))
	if failed && ro.Strict {
		return cs, errClaimFailed
	}
	return cs, nil
}
