// Package emulate runs a scenario's single cell against real HTTP tier
// servers (internal/testbed) and then the simulator on the same seeds, and
// writes the comparison of the two into a results folder (docs/design.md §7).
package emulate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/testbed"
)

// Name is the emulation's command, its embedded scenario
// (experiments/emulate.yaml) and its folder in a reproduction.
const Name = "emulate"

// ReportFigures re-draw the emulation's figure of its own in the HTML
// report (emulated against simulated, from comparison.csv).
func ReportFigures() analysis.OwnFigures { return analysis.ComparisonFigures }

// Options are the HTTP emulation's own settings (docs/design.md §7).
type Options struct {
	Duration time.Duration // measured arrivals per run, wall clock
	Warmup   time.Duration // unmeasured arrivals first, wall clock
	Timeout  time.Duration // per request
	// TimeScale is wall seconds per model second.
	TimeScale float64
	Spin      time.Duration
	// External maps tier names to running tier servers (--tier).
	External map[string]string
	// MaxFailures is the failure share (failed / sent) above which a run
	// is invalid.
	MaxFailures float64
	// HealthEvery is the period of the external tiers' health checks; ≤ 0:
	// testbed.DefaultHealthEvery.
	HealthEvery time.Duration
	// MaxInFlight overrides the in-flight limit computed from the descriptor
	// limit (tests); 0: from the limit.
	MaxInFlight int
	// Balancers are real load balancers to run in front of the tiers: each
	// selected policy with a counterpart there also runs on each of them
	// (docs/emulation.md, "Real balancers").
	Balancers []Balancer
	// Collect, if set, receives the valid emulated runs and the simulated
	// runs of the same (policy, replicate) pairs (reproduce --emulate judges
	// claim 6 with them). Emulate still returns an error when any run was
	// invalid, so that a claim is never judged on a run that failed.
	Collect func(emu, sim []results.Run)
}

// Run runs the plan's single cell against real HTTP tier servers (local
// ones started per run, or External), then the simulator on the same
// scenario and seeds, and writes runs.csv, summary.csv, comparison.csv and
// the emulated-against-simulated plot into opts.Dir.
func Run(ctx context.Context, plan *experiment.Plan, eo Options, opts runner.Options) error {
	sc := plan.Scenario
	cfg, err := experiment.Config(sc)
	if err != nil {
		return runner.BadInput(err)
	}
	if err := simulatorOnly(cfg); err != nil {
		return runner.BadInput(err)
	}
	if err := checkBalancers(&eo, plan); err != nil {
		return err
	}
	if err := checkExternal(ctx, cfg, eo.External, eo.TimeScale); err != nil {
		return err
	}
	hash := sc.Hash()
	d, err := runner.OpenFolder(opts.Dir, hash, plan.Name, opts.Force, false,
		append([]string{"runs.csv", "summary.csv", "comparison.csv", "scenario.yaml", "emulated_vs_simulated." + opts.Format}, runner.ProgramLogs(plan)...))
	if err != nil {
		return err
	}
	defer d.Close()
	m := runner.NewManifest(opts.Command, plan.Name, sc.Seed, sc.Seeds, hash)
	m.Runs = len(plan.Jobs()) + len(realJobs(plan, eo.Balancers))
	resolved, err := sc.Marshal()
	if err != nil {
		return err
	}
	if err := d.WriteManifest(*m); err != nil {
		return err
	}
	if err := d.WriteFile("scenario.yaml", func(w io.Writer) error { _, err := w.Write(resolved); return err }); err != nil {
		return err
	}
	e := &emulation{eo: &eo, opts: &opts, dir: d, plan: plan, cfg: cfg, tiers: experiment.DispatchTiers(cfg), external: eo.External}
	e.fd, e.inFlight = inFlightLimit(eo.MaxInFlight)
	began := time.Now()
	runErr := e.runAll(ctx)
	wall := time.Since(began)
	if err := d.WriteFile("runs.csv", e.writeRuns); err != nil {
		return err
	}
	m.RunsDone, m.Complete = len(e.runs), runErr == nil
	if runErr != nil {
		_ = d.WriteManifest(*m)
		return runErr
	}
	outs, err := plan.Execute(ctx, experiment.Options{Workers: runtime.NumCPU()})
	if err != nil {
		return err
	}
	simRuns := make([]results.Run, len(outs))
	for i := range outs {
		simRuns[i] = outs[i].Run
	}
	simRuns = append(simRuns, counterparts(realJobs(plan, eo.Balancers), simRuns)...)
	m.Finished = time.Now().UTC()
	if err := d.WriteManifest(*m); err != nil {
		return err
	}
	// The manifest lists the report's files too, even when the report
	// then says some runs were invalid.
	err = e.report(wall, simRuns)
	if rerr := d.Refresh(); err == nil {
		err = rerr
	}
	return err
}

// emulation is one invocation's runs, in plan order (policy, then replicate).
type emulation struct {
	eo       *Options
	opts     *runner.Options
	dir      *runner.Folder
	plan     *experiment.Plan
	cfg      *engine.Config
	tiers    []dispatch.Tier
	external map[string]string
	runs     []results.EmulatedRun
	checks   []runCheck       // runs[i]'s validity
	lag      testbed.LagStats // the worst run's figures
	firstErr error
	fd       testbed.FDLimit // the descriptor limit, as raised at the start
	inFlight int             // the bound on requests in flight
	peak     int             // the most requests in flight in any run
}

// runCheck is one emulated run's validity: valid unless its failure share
// exceeds --max-failures.
type runCheck struct {
	valid  bool
	share  float64 // failed / sent
	sent   int
	main   []testbed.ReasonCount // the main failure reasons
	health []string              // what the health checks saw, one sentence per tier marked down
}

// assumedFDLimit stands in for the descriptor limit where it cannot be read
// (no RLIMIT_NOFILE): the usual default soft limit.
const assumedFDLimit = 1024

// inFlightLimit raises the descriptor limit and derives the bound on
// requests in flight from it; override > 0 replaces the bound (tests).
func inFlightLimit(override int) (testbed.FDLimit, int) {
	fd := testbed.RaiseFDLimit()
	soft := fd.Soft
	if soft == 0 {
		soft = assumedFDLimit
	}
	if override > 0 {
		return fd, override
	}
	return fd, testbed.InFlightLimit(soft)
}

func (e *emulation) runAll(ctx context.Context) error {
	jobs, real := e.plan.Jobs(), realJobs(e.plan, e.eo.Balancers)
	total := len(jobs) + len(real)
	var update func(int, int)
	if e.opts.Progress != nil {
		var finish func()
		update, finish = e.opts.Progress(Name, total)
		defer finish()
	}
	for i, j := range jobs {
		run, err := e.runOne(ctx, j)
		if err != nil {
			return fmt.Errorf("policy %s, replicate %d: %w", j.Policy, j.Seed, err)
		}
		e.runs = append(e.runs, run)
		if update != nil {
			update(i+1, total)
		}
	}
	for i, rj := range real {
		run, err := e.runReal(ctx, rj)
		if err != nil {
			return fmt.Errorf("%s, replicate %d: %w", rj.label, rj.job.Seed, err)
		}
		e.runs = append(e.runs, run)
		if update != nil {
			update(len(jobs)+i+1, total)
		}
	}
	return nil
}

// runOne emulates one (policy, replicate) on fresh local servers.
func (e *emulation) runOne(ctx context.Context, j experiment.Job) (results.EmulatedRun, error) {
	urls, stop, err := e.startTiers()
	if err != nil {
		return results.EmulatedRun{}, err
	}
	defer stop()
	tr := testbed.NewLimitedHTTPTransport(urls, e.inFlight)
	defer tr.CloseIdleConnections()
	var checked []int
	for i, t := range e.tiers {
		if _, ok := e.external[t.Name]; ok {
			checked = append(checked, i)
		}
	}
	// The plan's own constructor: the entry of this label, with every Build
	// field the simulator gives it (size law, base rate), so that both run
	// the same rule.
	pol, err := e.plan.NewPolicy(j)
	if err != nil {
		return results.EmulatedRun{}, runner.BadInput(err)
	}
	// An exec policy's program runs here as in the simulator (same start
	// message, same decisions, its done messages as answers arrive).
	var progs experiment.Programs
	var logs experiment.PolicyLog
	if runner.RunsPrograms(e.plan) {
		logs = runner.PolicyLogs(e.dir, e.plan)
	}
	if _, err := progs.Start(ctx, e.plan, j, 0, pol, logs); err != nil {
		return results.EmulatedRun{}, progs.End(ctx, err)
	}
	tc := e.clientConfig(ctx, j.Seed)
	tc.Policy, tc.Transport = pol, tr
	tc.Health = &testbed.Health{Tiers: checked, Every: e.eo.HealthEvery, Check: tr.Check}
	res, err := testbed.Run(ctx, tc)
	if err = progs.End(ctx, err); errors.Is(err, engine.ErrCanceled) {
		err = ctx.Err()
	}
	if err != nil {
		return results.EmulatedRun{}, err
	}
	return e.record(res, j, j.Policy), nil
}

// record keeps a finished run's checks and figures, and returns its row
// under label.
func (e *emulation) record(res *testbed.Result, j experiment.Job, label string) results.EmulatedRun {
	e.checks = append(e.checks, e.judge(res))
	e.peak = max(e.peak, res.PeakInFlight)
	if e.firstErr == nil && res.FirstError != nil {
		e.firstErr = fmt.Errorf("%s, replicate %d: %w", label, j.Seed, res.FirstError)
	}
	e.lag.Mean, e.lag.P99, e.lag.Max = max(e.lag.Mean, res.Lag.Mean), max(e.lag.P99, res.Lag.P99), max(e.lag.Max, res.Lag.Max)
	run := res.Metrics(e.plan.Columns())
	c := e.plan.Cells[j.Cell]
	run.Experiment, run.Param, run.Value, run.Policy, run.Seed = e.plan.Name, c.Param, c.Value, label, j.Seed
	return results.EmulatedRun{Run: run, Sent: res.Sent, Completed: res.Completed, Rejected: res.Rejected, Failed: res.Failed}
}

// startTiers serves every tier not given with --tier on 127.0.0.1; stop
// shuts them down and waits for them. Each follows its tier's episodes
// in the replicate each request names, on that run's clock, and serves
// its queue by priority if its discipline says so.
func (e *emulation) startTiers() (urls []string, stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, s := range stops {
			s()
		}
	}
	for i, t := range e.tiers {
		if u, ok := e.external[t.Name]; ok {
			urls = append(urls, u)
			continue
		}
		s, err := testbed.NewServer(testbed.ServerConfig{Name: t.Name, Index: i, Servers: t.Servers, Speed: t.Speed, TimeScale: e.eo.TimeScale,
			QueueLimit: QueueLimit(&e.cfg.Tiers[i]), Runs: Runs(e.cfg, i), Priority: e.cfg.Tiers[i].Discipline == engine.Priority})
		if err != nil {
			stop()
			return nil, nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			stop()
			return nil, nil, err
		}
		srv := testbed.NewHTTPServer(s)
		done := make(chan struct{})
		go func() { _ = srv.Serve(ln); close(done) }()
		stops = append(stops, func() { _ = testbed.Shutdown(srv, 5*time.Second); <-done })
		urls = append(urls, "http://"+ln.Addr().String())
	}
	return urls, stop, nil
}

// checkExternal asks each --tier server for its /state and refuses one whose
// servers, speed or time-scale differ from the scenario's tier.
func checkExternal(ctx context.Context, cfg *engine.Config, external map[string]string, scale float64) error {
	for _, t := range cfg.Tiers {
		u, ok := external[t.Name]
		if !ok {
			continue
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"/state", nil)
		if err != nil {
			return runner.BadInputf("--tier %s=%s: %w", t.Name, u, err)
		}
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
		if err != nil {
			return runner.BadInputf("--tier %s=%s: %w", t.Name, u, err)
		}
		var st testbed.State
		err = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&st)
		resp.Body.Close()
		if err != nil {
			return runner.BadInputf("--tier %s=%s: GET /state: %w", t.Name, u, err)
		}
		if st.Servers != t.Servers || st.Speed != t.Speed || st.TimeScale != scale {
			return runner.BadInputf("--tier %s=%s serves %d servers at speed %g, time-scale %g; the scenario needs %d at %g, time-scale %g",
				t.Name, u, st.Servers, st.Speed, st.TimeScale, t.Servers, t.Speed, scale)
		}
		if t.Capacity.Dynamic() && !st.Episodes {
			return runner.BadInputf("--tier %s=%s does not follow the tier's episodes: start it with serve-tier --scenario FILE --tier %s", t.Name, u, t.Name)
		}
		if (t.Discipline == engine.Priority) != st.Priority {
			return runner.BadInputf("--tier %s=%s: its queue by priority is %v, the scenario's discipline is %s: start it with serve-tier --scenario FILE --tier %s", t.Name, u, st.Priority, t.Discipline, t.Name)
		}
	}
	return nil
}

// judge decides whether a run is valid: its failure share must not exceed
// --max-failures. A failed request measured nothing, and the failures are
// not random: a dead tier's or the client's limit's failures fall on the
// tasks of one tier or one busy moment, so the completed tasks' latencies
// are a biased sample, and a ranking over them would be misleading.
func (e *emulation) judge(res *testbed.Result) runCheck {
	ch := runCheck{share: res.FailureShare(), sent: res.Sent, main: res.MainFailures(3)}
	ch.valid = !(ch.share > e.eo.MaxFailures)
	for i, h := range res.Health {
		if h.Downs > 0 {
			ch.health = append(ch.health, fmt.Sprintf("tier %s down (%d×, first at %.3g s of model time: %s); chosen for %d of the %d tasks decided while it was down",
				e.tiers[i].Name, h.Downs, h.DownAt, h.Why, h.ChosenWhileDown, h.WhileDown))
		}
	}
	return ch
}

// why says why run i is invalid, for the error and the table's notes.
func (e *emulation) why(i int) string {
	r, ch := e.runs[i], e.checks[i]
	var rs []string
	for _, m := range ch.main {
		rs = append(rs, fmt.Sprintf("%s %d", m.Reason, m.Count))
	}
	msg := fmt.Sprintf("%s, replicate %d: %.1f%% of %d requests failed (%s)", r.Policy, r.Seed, 100*ch.share, ch.sent, strings.Join(rs, ", "))
	if len(ch.main) > 0 && ch.main[0].Reason == testbed.ReasonConcurrency {
		msg += fmt.Sprintf("; more than %d requests were in flight at once: raise the descriptor limit (ulimit -n), or lower the load", e.inFlight)
	}
	for _, h := range ch.health {
		msg += "; " + h
	}
	return msg
}

// writeRuns writes runs.csv: report's emulation schema, each run marked
// valid or not.
func (e *emulation) writeRuns(w io.Writer) error {
	for i := range e.runs {
		e.runs[i].Valid = e.checks[i].valid
	}
	return results.WriteEmulationRuns(w, e.plan.Columns(), e.runs)
}

// valid returns the valid emulated runs and the simulated runs of the same
// (policy, replicate) pairs, so that the two sides of the comparison
// average over the same replicates.
func (e *emulation) valid(simRuns []results.Run) (emu, sim []results.Run) {
	type key struct {
		policy string
		seed   int
	}
	ok := map[key]bool{}
	for i, r := range e.runs {
		if e.checks[i].valid {
			emu = append(emu, r.Run)
			ok[key{r.Policy, r.Seed}] = true
		}
	}
	for _, r := range simRuns {
		if ok[key{r.Policy, r.Seed}] {
			sim = append(sim, r)
		}
	}
	return emu, sim
}

// invalidRuns counts each policy's invalid runs.
func (e *emulation) invalidRuns() map[string]int {
	n := map[string]int{}
	for i, r := range e.runs {
		if !e.checks[i].valid {
			n[r.Policy]++
		}
	}
	return n
}

// report writes the summaries, the comparison and its plot, and prints them.
// Only valid runs enter the summaries, the comparison and the ranking; a
// policy with no valid run keeps its row, with the emulated side empty. It
// returns an error naming the invalid runs, if any, after writing and
// printing everything.
func (e *emulation) report(wall time.Duration, simRuns []results.Run) error {
	dir, cols := e.opts.Dir, e.plan.Columns()
	emuRuns, pairedSim := e.valid(simRuns)
	if e.eo.Collect != nil {
		e.eo.Collect(emuRuns, pairedSim)
	}
	invalid := e.invalidRuns()
	emuSums := results.Summarize(emuRuns)
	cs := e.compare(results.Compare(emuSums, results.Summarize(pairedSim), e.accounting), results.Summarize(simRuns), invalid)
	if err := e.dir.WriteFile("summary.csv", func(w io.Writer) error { return results.WriteSummary(w, cols, emuSums) }); err != nil {
		return err
	}
	for i := range cs {
		cs[i].InvalidRuns = invalid[cs[i].Policy]
	}
	if err := e.dir.WriteFile("comparison.csv", func(w io.Writer) error { return results.WriteComparison(w, cs) }); err != nil {
		return err
	}
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv"), filepath.Join(dir, "comparison.csv")}
	plot, err := analysis.ComparisonPlot(e.dir, e.opts.Format, e.plan, cs)
	if err != nil {
		return err
	}
	if plot != "" { // "": every run invalid, nothing to plot
		written = append(written, filepath.Join(dir, plot))
	}
	e.print(wall, cs, invalid)
	runner.NoteWritten(e.opts.Out, written...)
	var whys []string
	for i := range e.runs {
		if !e.checks[i].valid {
			whys = append(whys, e.why(i))
		}
	}
	if len(whys) > 0 {
		return fmt.Errorf("%d of %d emulated runs are invalid (more than --max-failures %g%% of their requests failed) and were left out of the comparison:\n  %s",
			len(whys), len(e.runs), 100*e.eo.MaxFailures, strings.Join(whys, "\n  "))
	}
	return nil
}

// compare orders the comparisons as the plan's policies and adds a row for
// each policy whose every run was invalid: NaN on the emulated side (so the
// ranking skips it), the simulator's figures over all its replicates.
func (e *emulation) compare(cs []results.Comparison, simAll []results.Summary, invalid map[string]int) []results.Comparison {
	byPolicy := map[string]results.Comparison{}
	for _, c := range cs {
		byPolicy[c.Policy] = c
	}
	var out []results.Comparison
	for _, p := range e.plan.Labels() {
		if c, ok := byPolicy[p]; ok {
			out = append(out, c)
			delete(byPolicy, p)
			continue
		}
		if invalid[p] == 0 {
			continue
		}
		all := results.Compare([]results.Summary{{Policy: p}}, simAll, e.accounting) // no columns: every emulated figure NaN
		out = append(out, all[0])
	}
	for _, c := range cs { // none expected: every policy is in the plan
		if _, left := byPolicy[c.Policy]; left {
			out = append(out, c)
		}
	}
	return out
}

// accounting sums a policy's rejection rate and failed requests.
func (e *emulation) accounting(policy string) (float64, int) {
	var sent, rejected, failed int
	for _, r := range e.runs {
		if r.Policy == policy {
			sent, rejected, failed = sent+r.Sent, rejected+r.Rejected, failed+r.Failed
		}
	}
	if sent == 0 {
		return math.NaN(), failed
	}
	return float64(rejected) / float64(sent), failed
}

// print writes the accounting, the emulated-vs-simulated table and what it
// means to stdout. invalid counts each policy's invalid runs, which the
// table marks and the ranking leaves out.
func (e *emulation) print(wall time.Duration, cs []results.Comparison, invalid map[string]int) {
	w := e.opts.Out
	var sent, completed, rejected, failed int
	for _, r := range e.runs {
		sent, completed, rejected, failed = sent+r.Sent, completed+r.Completed, rejected+r.Rejected, failed+r.Failed
	}
	real := ""
	if n := len(realJobs(e.plan, e.eo.Balancers)); n > 0 {
		real = fmt.Sprintf(", and %d on real balancers", n)
	}
	fmt.Fprintf(w, "emulated %d runs (%d policies × %d replicates%s, %v + %v warmup of arrivals each, time-scale %g) in %v\n",
		len(e.runs), len(e.plan.Policies), e.plan.Scenario.Seeds, real, e.eo.Duration, e.eo.Warmup, e.eo.TimeScale, wall.Round(time.Second))
	fmt.Fprintf(w, "requests: sent %d = completed %d + rejected %d + failed %d\n", sent, completed, rejected, failed)
	fmt.Fprintf(w, "requests in flight: at most %d (%s), peak %d\n", e.inFlight, fdNote(e.fd), e.peak)
	if e.firstErr != nil {
		fmt.Fprintf(w, "first rejection or failure: %v\n", e.firstErr)
	}
	for i, ch := range e.checks {
		for _, h := range ch.health {
			fmt.Fprintf(w, "%s, replicate %d: %s\n", e.runs[i].Policy, e.runs[i].Seed, h)
		}
	}
	fmt.Fprintf(w, "client schedule lag (worst run): mean %v, p99 %v, max %v\n\n", e.lag.Mean, e.lag.P99, e.lag.Max)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\truns\temulated mean (s)\tsimulated mean (s)\tΔ mean\temulated P95 (s)\tsimulated P95 (s)\tΔ P95\trejected\tfailed\tinvalid\t")
	nInvalid := 0
	for _, c := range cs {
		mark := "-"
		if n := invalid[c.Policy]; n > 0 {
			mark, nInvalid = fmt.Sprintf("%d INVALID", n), nInvalid+n
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n", c.Policy, c.Runs,
			withCI(c.EmuMean, c.EmuMeanCI95), withCI(c.SimMean, c.SimMeanCI95), pct(c.MeanDiffPct),
			runner.Num(c.EmuP95), runner.Num(c.SimP95), pct(c.P95DiffPct), rate(c.RejectionRate), c.Failed, mark)
	}
	_ = tw.Flush()
	agree, pairs := rankAgreement(cs)
	fmt.Fprintf(w, "\nranking by mean latency: emulation and simulation order %d of %d policy pairs alike.\n", agree, pairs)
	if nInvalid > 0 {
		fmt.Fprintf(w, "INVALID: %d of %d runs failed more than --max-failures %g%% of their requests; they are left out of the table's means (runs counts the valid ones) and of the ranking, which is therefore not a verdict on all policies.\n",
			nInvalid, len(e.runs), 100*e.eo.MaxFailures)
	}
	fmt.Fprintln(w, whyTheyDiffer)
}

// fdNote describes the descriptor limit the in-flight bound came from.
func fdNote(fd testbed.FDLimit) string {
	switch {
	case fd.Soft == 0:
		return fmt.Sprintf("descriptor limit unknown (%v), %d assumed", fd.Err, assumedFDLimit)
	case fd.Raised():
		return fmt.Sprintf("descriptor soft limit raised from %d to the hard limit %d", fd.Before, fd.Hard)
	case fd.Err != nil:
		return fmt.Sprintf("descriptor soft limit %d, hard %d; raising it failed: %v", fd.Soft, fd.Hard, fd.Err)
	}
	return fmt.Sprintf("descriptor soft limit %d, hard %d", fd.Soft, fd.Hard)
}

// whyTheyDiffer is the sentence the table needs (docs/design.md §7).
const whyTheyDiffer = `Why they differ: both see the same arrival times, sizes and delays, but in
the emulation every delay and service is a Go timer that fires late by up
to about a millisecond, each task pays an HTTP round trip on loopback and
the client's own dispatch cost, and the policy's view changes when a
request is sent or answered rather than at the exact model instant; these
add a few ms of wall time per task (divided by --time-scale in model
seconds). Where a tier is saturated the overshoot compounds: each service
runs a little long, so the real server is slower than the model's and its
queue grows faster.`

// rankAgreement counts the policy pairs whose order by mean latency is the
// same emulated and simulated.
func rankAgreement(cs []results.Comparison) (agree, pairs int) {
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			a, b := cs[i], cs[j]
			if math.IsNaN(a.EmuMean + b.EmuMean + a.SimMean + b.SimMean) {
				continue
			}
			pairs++
			if (a.EmuMean < b.EmuMean) == (a.SimMean < b.SimMean) {
				agree++
			}
		}
	}
	return agree, pairs
}

// withCI formats a mean with its 95% half-width, when there is one.
func withCI(mean, ci float64) string {
	if math.IsNaN(ci) || math.IsInf(ci, 0) {
		return runner.Num(mean)
	}
	return runner.Num(mean) + " ± " + runner.Num(ci)
}

func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", x)
}

func rate(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
