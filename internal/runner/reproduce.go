package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
)

// Scales maps reproduce's --scale to the --set overrides applied to every
// experiment's embedded default ("paper": none). It is a function so that
// no caller can change the table.
func Scales() map[string][]string {
	return map[string][]string{"paper": nil, "ci": {"seeds=5"}}
}

// ciTasks shortens the task-count experiments at --scale ci.
func ciTasks() []string { return []string{"tasks=50000", "warmup=5000"} }

// BurstWindow is the burst experiment's window in reproduce, s.
const BurstWindow = 5.0

// ErrClaimFailed is --strict's runtime failure.
var ErrClaimFailed = errors.New("a claim FAILed (--strict)")

// ReproduceOptions are reproduce's own settings.
type ReproduceOptions struct {
	Scale string   // a key of Scales
	Sets  []string // extra --set overrides for every experiment (e.g. seed=)
	// Extra holds more overrides per experiment (sweep-load, edge-capacity,
	// mape, burst, decision), applied last: a small study or a test narrows
	// one experiment without touching the others.
	Extra  map[string][]string
	Strict bool
	// Baselines also runs the reference baselines (policies.Baselines) in
	// sweep-load, beside the paper's eight. The claims read only the
	// paper's policies, so their verdicts do not change.
	Baselines bool
	// Load parses an embedded scenario with overrides (cmd's loader, which
	// knows the policy registry).
	Load func(embedded string, sets []string) (*scenario.Scenario, error)
	// Emulate, if set, runs the HTTP emulation into dir with the overrides
	// and returns the emulated and simulated runs (claim 6).
	Emulate func(ctx context.Context, dir string, sets []string) (emu, sim []results.Run, err error)
}

// Reproduce runs every experiment of the paper into opts.Dir/<experiment>,
// judges the claims and writes claims.md.
func Reproduce(ctx context.Context, ro ReproduceOptions, opts Options) ([]claims.Claim, error) {
	base, ok := Scales()[ro.Scale]
	if !ok {
		return nil, BadInputf("--scale %q: allowed: ci, paper", ro.Scale)
	}
	sets := append(append([]string(nil), base...), ro.Sets...)
	root := opts.Dir
	// The folder is guarded like an experiment's: its manifest's hash names
	// the scale, the overrides and --emulate.
	desc := fmt.Sprintf("reproduce %s %q emulate=%v", ro.Scale, sets, ro.Emulate != nil)
	if ro.Baselines { // only then, so that the folders of earlier runs keep their hash
		desc += " baselines"
	}
	sum := sha256.Sum256([]byte(desc))
	hash := hex.EncodeToString(sum[:])
	// Every experiment's plan is built before anything is written, so that
	// a bad override fails with nothing on disk.
	type sub struct {
		spec Spec
		plan *experiment.Plan
		args Args
		time bool
	}
	var subs []sub
	var loadExtra []string
	if ro.Baselines {
		all := append(policies.Defaults(), policies.Baselines()...)
		loadExtra = []string{"policies=[" + strings.Join(all, ", ") + "]"}
	}
	for _, e := range reproduceExperiments() {
		if e.spec.Name == "sweep-load" {
			e.extra = append(e.extra, loadExtra...)
		}
		s := append(append([]string(nil), sets...), e.extra...)
		if ro.Scale == "ci" && e.spec.Name != "burst" {
			s = append(s, ciTasks()...)
		}
		s = append(s, ro.Extra[e.spec.Name]...)
		sc, err := ro.Load(e.embedded, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.spec.Name, err)
		}
		name := sc.Name
		if name == "" {
			name = e.spec.Name
		}
		plan, err := experiment.NewPlan(name, sc)
		if err != nil {
			return nil, BadInput(fmt.Errorf("%s: %w", e.spec.Name, err))
		}
		subs = append(subs, sub{spec: e.spec, plan: plan, args: Args{Router: policies.NameHybrid, Window: BurstWindow}, time: e.spec.Name == "decision"})
	}
	for _, sub := range subs {
		if err := checkMemory(sub.plan, opts.Workers, opts.MaxMemory); err != nil {
			return nil, fmt.Errorf("%s: %w", sub.spec.Name, err)
		}
	}
	sharded := !opts.Shard.Whole()
	if sharded && ro.Emulate != nil {
		return nil, BadInputf("--shard with --emulate: the HTTP emulation runs on wall-clock timers and cannot be split; run it on one machine")
	}
	d, err := openDir(root, hash, reproduceName, opts.Force, opts.Resume, false, false, []string{"claims.md", ReportFile}, nil)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if err := checkResumedShard(d, opts); err != nil {
		return nil, err
	}
	// Every experiment runs under the same master seed (the embedded
	// scenarios share it, and --seed overrides it in all): record it.
	first := subs[0].plan.Scenario
	m := Manifest{Tool: "offload", Version: Version(), Command: opts.Command, Experiment: reproduceName, Seed: first.Seed,
		Seeds: first.Seeds, ScenarioHash: hash, Started: time.Now().UTC()}
	if sharded {
		// A reproduce shard is the same shard of every experiment, each in
		// its folder; claims.md needs all the runs, so merge writes it.
		m.Extra = map[string]any{extraShard: shardKey{opts.Shard.Index, opts.Shard.Count}, extraSpec: reproduceName, extraScale: ro.Scale}
	}
	if err := d.WriteManifest(m); err != nil {
		return nil, err
	}
	got := map[string]*Result{}
	// A run that an earlier experiment made is not made again: the
	// exploration folder's hybrid and edge-first are sweep-load's runs.
	memo := experiment.NewMemo()
	for _, s := range subs {
		o := opts
		o.Memo = memo
		o.Dir = filepath.Join(root, s.spec.Name)
		o.Out = io.Discard
		o.TimeDecisions = s.time
		r, err := Run(ctx, s.spec, s.plan, s.args, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.spec.Name, err)
		}
		got[s.spec.Name] = r
		fmt.Fprintln(opts.Out, "wrote", o.Dir)
	}
	if sharded {
		m.Complete, m.Finished = true, time.Now().UTC()
		if err := d.WriteManifest(m); err != nil {
			return nil, err
		}
		fmt.Fprintf(opts.Out, "shard %s of reproduce: claims.md comes from `offload merge -o OUT` over the %d shard folders\n", opts.Shard, opts.Shard.Count)
		return nil, nil
	}
	cs := judgeClaims(got)
	if ro.Emulate != nil {
		dir := filepath.Join(root, "emulate")
		emu, sim, err := ro.Emulate(ctx, dir, sets)
		if err != nil {
			return nil, fmt.Errorf("emulate: %w", err)
		}
		cs[5] = claims.Ranking(emu, sim)
		fmt.Fprintln(opts.Out, "wrote", dir)
	}
	failed, err := writeClaims(d, ro.Scale, Version(), cs, staleSection(got), opts.Out)
	if err != nil {
		return nil, err
	}
	m.Complete, m.Finished = true, time.Now().UTC()
	if err := d.WriteManifest(m); err != nil {
		return nil, err
	}
	// The report last, once the manifest it shows says complete; the
	// manifest is written again to record it.
	page, err := renderReport(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if err := d.WriteFile(ReportFile, func(w io.Writer) error { _, err := w.Write(page); return err }); err != nil {
		return nil, err
	}
	if err := d.WriteManifest(m); err != nil {
		return nil, err
	}
	fmt.Fprintln(opts.Out, "wrote", filepath.Join(root, ReportFile))
	if failed && ro.Strict {
		return cs, ErrClaimFailed
	}
	return cs, nil
}

// reproduceName is reproduce's experiment name, and the spec of its shards.
const reproduceName = "reproduce"

// reproduceExperiment is one experiment of reproduce: its spec, embedded
// scenario and own overrides.
type reproduceExperiment struct {
	spec     Spec
	embedded string
	extra    []string
	// optional experiments were added after reproductions had been sharded:
	// merge skips one that no shard folder has, rather than refusing them.
	optional bool
}

// reproduceExperiments are reproduce's experiments, in the order they run
// (and merge).
func reproduceExperiments() []reproduceExperiment {
	return []reproduceExperiment{
		{sweepSpec("sweep-load", "", ""), "sweep-load", nil, false},
		{sweepSpec("edge-capacity", "", ""), "edge-capacity", nil, false},
		{MAPESpec(), "mape", []string{"policies=[" + policies.NameHybrid + "]"}, false},
		{BurstSpec(), "burst", nil, false},
		{StalenessSpec(), "staleness", nil, false},
		{sweepSpec("decision", "", ""), "default", []string{"policies=[" + policies.NameHybrid + "]"}, false},
		// Claim 1's evidence: sweep-load's scenario with an ε = 0 hybrid beside
		// hybrid and edge-first, in a folder of its own so that sweep-load's
		// published summary stays byte-identical (docs/paper/check.sh).
		{sweepSpec(explorationName, "", ""), "sweep-load", []string{"name=" + explorationName,
			"policies=[" + policies.NameHybrid + ", {name: " + policies.NameHybrid + ", as: " + claims.EpsZero + ", epsilon: 0}, " + policies.NameEdgeFirst + "]"}, true},
	}
}

// explorationName is the folder of claim 1's ε = 0 comparison.
const explorationName = "exploration"

// staleSection is what claims.md adds beyond the paper: the staleness
// experiment's "Where the hybrid earns its keep" (not one of the paper's
// claims); "" without that experiment.
func staleSection(got map[string]*Result) string {
	r, ok := got["staleness"]
	if !ok || r == nil {
		return ""
	}
	return "\n" + StaleReport(r.Plan, outcomeRuns(r.Outcomes))
}

// judgeClaims judges claims 1–5 on the experiments' results, by spec name;
// claim 6 is not run (the caller fills it from the emulation).
func judgeClaims(got map[string]*Result) []claims.Claim {
	c1 := claims.MeanLatency(outcomeRuns(got["sweep-load"].Outcomes))
	if r := got[explorationName]; r != nil {
		c1.Evidence = claims.Exploration(outcomeRuns(r.Outcomes))
	}
	if len(c1.Evidence) > 0 {
		c1.Notes = append(c1.Notes, "The exploration runs (folder "+explorationName+", sweep-load's scenario under the same seeds) add "+claims.EpsZero+
			", hybrid with ε = 0: hybrid − "+claims.EpsZero+" is what ε-exploration costs or gains at each load, and "+claims.EpsZero+
			" − edge-first what the estimator does without exploring (paired, 95%). They explain the verdict and do not count toward it.")
		if why := claims.ExplainByExploration(c1); why != "" {
			c1.Notes = append(c1.Notes, why)
		}
	}
	return []claims.Claim{
		c1,
		claims.LargeTail(outcomeRuns(got["sweep-load"].Outcomes)),
		claims.MAPE(ShadowRuns(got["mape"].Outcomes)),
		burstClaim(got["burst"].Plan, got["burst"].Outcomes),
		claims.DecisionCost(decisionNs(got["decision"].Outcomes)),
		claims.NotRunClaim(6, "Not run: pass --emulate to run the HTTP emulation."),
	}
}

// writeClaims writes claims.md and prints the verdicts; failed says whether
// a claim FAILed.
func writeClaims(d *store.Dir, scale, version string, cs []claims.Claim, extra string, out io.Writer) (failed bool, err error) {
	prov := fmt.Sprintf("Made by `offload reproduce --scale %s` (offload %s); the runs are in the folders beside this file.", scale, version)
	md := claims.Markdown("The paper's claims", prov, cs) + extra
	if err := d.WriteFile("claims.md", func(w io.Writer) error { _, err := io.WriteString(w, md); return err }); err != nil {
		return false, err
	}
	for _, c := range cs {
		fmt.Fprintf(out, "claim %d: %-12s %s\n", c.ID, c.Verdict, c.Text)
		failed = failed || c.Verdict == claims.Fail
	}
	fmt.Fprintln(out, "wrote", filepath.Join(d.Path(), "claims.md"))
	return failed, nil
}

// EmbeddedScenario returns the bytes of an embedded experiment scenario.
func EmbeddedScenario(name string) ([]byte, error) { return experiments.Get(name) }

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
		if !slices.Contains(staticPolicies(), s.Policy) {
			continue
		}
		if s.Unstable {
			notes = append(notes, fmt.Sprintf("%s is left out: a tier's offered load is above 1 even outside the bursts, so its latency has no level to recover to.", s.Policy))
			continue
		}
		static = append(static, s.Policy)
	}
	res := fmt.Sprintf("Recovery time is measured in windows of %g s: a recovery is known to within one window, so differences under %g s are below the resolution.", BurstWindow, BurstWindow)
	if len(static) > 0 {
		res += " Hybrid is compared with every static policy that is stable at the base load: " + strings.Join(static, ", ") + "."
	}
	notes = append([]string{res}, notes...)
	return claims.Bursts(burstReps(plan, outs, BurstWindow), static, notes)
}

// staticPolicies are the policies whose routing ignores the system's state
// (claim 4's "static policies"), in the order claims.md lists them.
func staticPolicies() []string {
	return []string{policies.NameEdgeFirst, policies.NameRandom, policies.NameStaticOpt}
}

// decisionNs lists hybrid's mean decision time per replicate.
func decisionNs(outs []experiment.Outcome) []float64 {
	var ns []float64
	for _, out := range outs {
		if out.Policy == policies.NameHybrid {
			ns = append(ns, out.Run.Get(results.ColDecisionNs))
		}
	}
	return ns
}
