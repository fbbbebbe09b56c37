package cmd

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
)

// reproduceOptions are the flags of `offload reproduce`.
type reproduceOptions struct {
	io      IO
	of      outputFlags
	scale   string
	seed    uint64
	strict  bool
	emulate bool
	cmd     *cobra.Command
}

// scales maps --scale to the --set overrides applied to every experiment's
// embedded default ("paper": none).
var scales = map[string][]string{
	"paper": nil,
	"ci":    {"seeds=5"},
}

// ciTasks shortens the task-count experiments at --scale ci.
var ciTasks = []string{"tasks=50000", "warmup=5000"}

func newReproduceCmd(io IO) *cobra.Command {
	o := &reproduceOptions{io: io}
	c := &cobra.Command{
		Use:   "reproduce",
		Short: "Run all four experiments and check the paper's claims",
		Long: `Run sweep-load, edge-capacity, mape and burst (and a timed run of hybrid's
decisions) into DIR/<experiment>/, then write DIR/claims.md: each claim of the
paper with its verdict (PASS, FAIL, INCONCLUSIVE, NOT RUN) by the paired rule
and the numbers it rests on. --scale paper uses the embedded defaults (10
seeds × 200,000 tasks); --scale ci uses 5 seeds and 50,000 tasks. The exit
status is 0 whatever the verdicts, unless --strict (1 on a FAIL).`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error { return runReproduce(c.Context(), o) },
	}
	o.cmd = c
	o.of.register(c, "results/reproduce")
	fl := c.Flags()
	fl.StringVar(&o.scale, "scale", "paper", "run length: paper (the embedded defaults) or ci (short)")
	fl.Uint64Var(&o.seed, "seed", 0, "master seed of every experiment (default: the scenarios')")
	fl.BoolVar(&o.strict, "strict", false, "exit 1 if a claim FAILs")
	fl.BoolVar(&o.emulate, "emulate", false, "also run the HTTP emulation for claim 6")
	return c
}

// burstWindow is the burst experiment's window in reproduce, s.
const burstWindow = 5.0

// errClaimFailed is --strict's runtime failure.
var errClaimFailed = errors.New("a claim FAILed (--strict)")

func runReproduce(ctx context.Context, o *reproduceOptions) error {
	if err := o.of.check(); err != nil {
		return err
	}
	base, ok := scales[o.scale]
	sets := append([]string(nil), base...) // never append to the shared table
	if !ok {
		return badInputf("--scale %q: allowed: ci, paper", o.scale)
	}
	if o.cmd.Flags().Changed("seed") {
		sets = append(sets, "seed="+strconv.FormatUint(o.seed, 10))
	}
	root := o.of.dir
	// The folder is guarded like an experiment's: its manifest's hash names
	// the scale, the overrides and --emulate.
	sum := sha256.Sum256([]byte(fmt.Sprintf("reproduce %s %q emulate=%v", o.scale, sets, o.emulate)))
	hash := hex.EncodeToString(sum[:])
	if o.of.resume {
		if err := resumeCheck(root, hash, false); err != nil {
			return err
		}
	}
	if err := prepareDir(root, hash, o.of.force); err != nil {
		return err
	}
	args := cmdArgs(ctx)
	m := manifest{Tool: "offload", Version: version(), Command: args, Experiment: "reproduce", Seed: o.seed,
		ScenarioHash: hash, Started: time.Now().UTC()}
	if err := writeManifest(root, m); err != nil {
		return err
	}
	got := map[string][]experiment.Outcome{}
	plans := map[string]*experiment.Plan{}
	sub := func(name, embedded string, run func(context.Context, *runOptions) error, extra ...string) error {
		s := append(append([]string(nil), sets...), extra...)
		if o.scale == "ci" && name != "burst" {
			s = append(s, ciTasks...)
		}
		ro := &runOptions{io: IO{Out: io.Discard, Err: o.io.Err, ErrTerminal: o.io.ErrTerminal}, embedded: embedded, command: name,
			of: o.of, router: "hybrid", window: burstWindow, args: args}
		ro.of.dir = filepath.Join(root, name)
		ro.sf.sets = s
		ro.collect = func(p *experiment.Plan, outs []experiment.Outcome) { got[name], plans[name] = outs, p }
		if name == "decision" {
			ro.policies = []string{"hybrid"}
			ro.of.timeDecisions = true
		}
		if err := run(ctx, ro); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintln(o.io.Out, "wrote", ro.of.dir)
		return nil
	}
	for _, e := range []struct {
		name, embedded string
		run            func(context.Context, *runOptions) error
	}{
		{"sweep-load", "sweep-load", runSweep},
		{"edge-capacity", "edge-capacity", runSweep},
		{"mape", "mape", runMAPE},
		{"burst", "burst", runBurst},
		{"decision", "default", runSweep},
	} {
		if err := sub(e.name, e.embedded, e.run); err != nil {
			return err
		}
	}
	cs := []claims.Claim{
		claims.MeanLatency(outcomeRuns(got["sweep-load"])),
		claims.LargeTail(outcomeRuns(got["sweep-load"])),
		claims.MAPE(shadowRows(got["mape"])),
		burstClaim(plans["burst"], got["burst"]),
		claims.DecisionCost(decisionNs(got["decision"])),
		claims.NotRunClaim(6, "Not run: pass --emulate to run the HTTP emulation."),
	}
	if o.emulate {
		emu, sim, err := reproduceEmulation(ctx, o, sets, args)
		if err != nil {
			return fmt.Errorf("emulate: %w", err)
		}
		cs[5] = claims.Ranking(emu, sim)
		fmt.Fprintln(o.io.Out, "wrote", filepath.Join(root, "emulate"))
	}
	prov := fmt.Sprintf("Made by `offload reproduce --scale %s` (offload %s); the runs are in the folders beside this file.", o.scale, version())
	md := claims.Markdown("The paper's claims", prov, cs)
	if err := report.WriteFileAtomic(root, "claims.md", func(w io.Writer) error { _, err := io.WriteString(w, md); return err }); err != nil {
		return err
	}
	failed := false
	for _, c := range cs {
		fmt.Fprintf(o.io.Out, "claim %d: %-12s %s\n", c.ID, c.Verdict, c.Text)
		failed = failed || c.Verdict == claims.Fail
	}
	fmt.Fprintln(o.io.Out, "wrote", filepath.Join(root, "claims.md"))
	m.Complete, m.Finished = true, time.Now().UTC()
	if err := writeManifest(root, m); err != nil {
		return err
	}
	if failed && o.strict {
		return errClaimFailed
	}
	return nil
}

// emulationSeeds is the replicates of the emulation behind claim 6: each
// (policy, replicate) takes 12 s of wall clock, so three replicates of the
// eight policies take about five minutes.
const emulationSeeds = 3

// reproduceEmulation runs `offload emulate` on its embedded default into
// DIR/emulate and returns the emulated and simulated runs. A run that failed
// more than defaultMaxFailures of its requests makes runEmulate return an
// error, so that claim 6 is never judged on it.
func reproduceEmulation(ctx context.Context, o *reproduceOptions, sets, args []string) (emu, sim []results.Run, err error) {
	eo := &emulateOptions{io: IO{Out: io.Discard, Err: o.io.Err, ErrTerminal: o.io.ErrTerminal},
		dir: filepath.Join(o.of.dir, "emulate"), force: o.of.force, quiet: o.of.quiet, format: o.of.format,
		duration: 10 * time.Second, warmup: 2 * time.Second, timeout: time.Minute, timeScale: 1, spin: time.Millisecond,
		maxFailures: defaultMaxFailures, args: args}
	eo.sf.sets = append(append([]string(nil), sets...), "seeds="+strconv.Itoa(emulationSeeds))
	eo.collect = func(e, s []results.Run) { emu, sim = e, s }
	if err := runEmulate(ctx, eo); err != nil {
		return nil, nil, err
	}
	return emu, sim, nil
}

// shadowRows turns the mape outcomes into one pseudo-run per estimator.
func shadowRows(outs []experiment.Outcome) []results.Run {
	var rows []results.Run
	for _, out := range outs {
		for _, sh := range out.Shadows {
			r := nanRun(out.Run)
			r.Policy, r.MAPE = sh.Estimator, sh.MAPE
			rows = append(rows, r)
		}
	}
	return rows
}

// burstReps condenses each burst replicate for claim 4: mean cloud-share
// rise over bursts, and mean recovery time, a burst never recovered from
// counting as the whole gap until the next burst (or the end of arrivals).
func burstReps(plan *experiment.Plan, outs []experiment.Outcome, width float64) []claims.BurstRep {
	if plan == nil {
		return nil
	}
	horizon := experiment.Horizon(plan.Scenario)
	bursts := experiment.BurstIntervals(plan.Scenario, horizon)
	cloud := firstCloud(plan)
	var reps []claims.BurstRep
	for _, out := range outs {
		var before, during, rec results.MeanAcc
		for k, st := range results.BurstStats(out.Series, width, bursts, horizon, cloud) {
			before.Add(st.CloudBefore)
			during.Add(st.CloudDuring)
			r := st.Recovery
			if math.IsNaN(r) {
				limit := horizon
				if k+1 < len(bursts) {
					limit = bursts[k+1].Start
				}
				r = limit - st.End
			}
			rec.Add(r)
		}
		reps = append(reps, claims.BurstRep{Policy: out.Policy, Seed: out.Seed, CloudBefore: before.Mean(), CloudDuring: during.Mean(), Recovery: rec.Mean()})
	}
	return reps
}

// burstClaim judges claim 4 against the static policies that are stable at
// the burst scenario's base load: a policy whose queue already grows between
// bursts has no level to recover to.
func burstClaim(plan *experiment.Plan, outs []experiment.Outcome) claims.Claim {
	var static, notes []string
	for _, s := range results.Summarize(outcomeRuns(outs)) {
		if s.Policy != "edge-first" && s.Policy != "random" {
			continue
		}
		if s.Unstable {
			notes = append(notes, fmt.Sprintf("%s is left out: a tier's offered load is ≥ 1 even outside the bursts, so its latency has no level to recover to.", s.Policy))
			continue
		}
		static = append(static, s.Policy)
	}
	return claims.Bursts(burstReps(plan, outs, burstWindow), static, notes)
}

// decisionNs lists hybrid's mean decision time per replicate.
func decisionNs(outs []experiment.Outcome) []float64 {
	var ns []float64
	for _, out := range outs {
		if out.Policy == "hybrid" {
			ns = append(ns, out.DecisionNs)
		}
	}
	return ns
}
