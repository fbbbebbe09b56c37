package cmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/testbed"
	"github.com/spf13/cobra"
)

// emulateOptions are the flags of `offload emulate`.
type emulateOptions struct {
	io        IO
	sf        scenarioFlags
	dir       string
	force     bool
	quiet     bool
	format    string
	policies  []string
	duration  time.Duration // measured arrivals, wall clock
	warmup    time.Duration // unmeasured arrivals first, wall clock
	timeout   time.Duration // per request
	timeScale float64
	spin      time.Duration
	tiers     []string // --tier name=URL
	rate      float64
	// maxFailures is the failure share (failed / sent) above which a run is
	// invalid (--max-failures; reproduce sets defaultMaxFailures).
	maxFailures float64
	// healthEvery is the period of the external tiers' health checks; ≤ 0:
	// testbed.DefaultHealthEvery.
	healthEvery time.Duration
	// maxInFlight overrides the in-flight limit computed from the
	// descriptor limit (tests); 0: from the limit.
	maxInFlight int
	args        []string
	// collect, if set, receives the valid emulated runs and the simulated
	// runs of the same (policy, replicate) pairs (reproduce --emulate judges
	// claim 6 with them). runEmulate still returns an error when any run was
	// invalid, so that a claim is never judged on a run that failed.
	collect func(emu, sim []results.Run)
}

// defaultMaxFailures is --max-failures' default: at 1% of failed requests
// the latencies still describe the run; beyond it, what failed (a dead tier,
// the client's own limit) is shaping the result more than the policy.
const defaultMaxFailures = 0.01

const emulateLong = `Emulate a scenario over HTTP: start one tier server per tier on
127.0.0.1 (or use running ones given with --tier name=URL, started by
'offload serve-tier' with the same --time-scale), then drive an open-loop
Poisson client that dispatches each task with the same policy code as the
simulator, sending it after the tier's delay. Each (policy, replicate) runs
alone, on fresh servers, for --warmup then --duration of wall-clock
arrivals, with the same arrival times, sizes and delays as the simulator's
replicate. The simulator then runs the same scenario and seeds, and a table
sets emulated against simulated latency.

Requests in flight are bounded by the file-descriptor limit (the soft
limit is raised to the hard one first): a task beyond the bound is not sent
and counts as failed ("concurrency limit"). Tiers given with --tier are
health-checked (GET /state every --health-every); a tier that fails a check
or a request (refused, reset, timed out, a 5xx other than queue-full) is
down until a check succeeds, and the policies see it saturated meanwhile.
A run whose failed / sent exceeds --max-failures is invalid: it is marked
in runs.csv (valid = 0), counted in comparison.csv's invalid_runs, left out
of summary.csv, the comparison's means and the ranking, and the command
exits 1 naming it and why.

Writes runs.csv (the simulator's columns plus sent, completed, rejected,
failed, valid), summary.csv, comparison.csv, emulated_vs_simulated.<format>,
scenario.yaml and manifest.json into -o.`

func newEmulateCmd(io IO, runF func(*emulateOptions) error) *cobra.Command {
	o := &emulateOptions{io: io}
	c := &cobra.Command{
		Use:   "emulate",
		Short: "Run the policies against real HTTP tier servers and compare with the simulator",
		Long:  emulateLong,
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.args = cmdArgs(c.Context())
			if runF != nil {
				return runF(o)
			}
			return runEmulate(c.Context(), o)
		},
	}
	o.sf.register(c)
	fl := c.Flags()
	fl.StringVarP(&o.dir, "out", "o", filepath.Join("results", "emulate"), "output `folder`")
	fl.BoolVar(&o.force, "force", false, "write into a folder that holds another scenario's results")
	fl.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fl.StringVar(&o.format, "format", "png", "plot format: png, svg or pdf")
	fl.StringSliceVar(&o.policies, "policy", nil, "run only these policies (`a,b`)")
	fl.DurationVar(&o.duration, "duration", 10*time.Second, "measured arrivals per run, wall clock")
	fl.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured arrivals before them, wall clock")
	fl.DurationVar(&o.timeout, "timeout", time.Minute, "client timeout per request, wall clock; a timed-out request counts as failed")
	fl.Float64Var(&o.timeScale, "time-scale", 1, "wall seconds per model second (0.5: twice real time)")
	fl.DurationVar(&o.spin, "spin", time.Millisecond, "wait the last stretch before each arrival by spinning, not on a timer (Go timers fire up to ~1 ms late); 0 to save CPU")
	fl.StringArrayVar(&o.tiers, "tier", nil, "use a running tier server: `name=URL` (repeatable)")
	fl.Float64Var(&o.rate, "rate", 0, "arrival rate, tasks/s: overrides the scenario's, and picks one from an arrivals.rate sweep")
	fl.Float64Var(&o.maxFailures, "max-failures", defaultMaxFailures, "a run whose failed / sent requests exceed this `share` is invalid (exit 1)")
	fl.DurationVar(&o.healthEvery, "health-every", testbed.DefaultHealthEvery, "health-check period of the --tier servers, wall clock")
	return c
}

func (o *emulateOptions) check() error {
	switch {
	case o.duration <= 0:
		return badInputf("--duration %v: must be > 0", o.duration)
	case o.warmup < 0 || o.timeout <= 0 || o.spin < 0:
		return badInputf("--warmup %v, --timeout %v, --spin %v: must be ≥ 0, > 0, ≥ 0", o.warmup, o.timeout, o.spin)
	case !slices.Contains(report.Formats, o.format):
		return badInputf("--format %q: allowed: png, svg, pdf", o.format)
	case o.dir == "":
		return badInputf("-o: empty folder name")
	case !(o.maxFailures >= 0 && o.maxFailures <= 1):
		return badInputf("--max-failures %v: must be a share in [0, 1]", o.maxFailures)
	case o.healthEvery < 0 || o.maxInFlight < 0:
		return badInputf("--health-every %v: must be ≥ 0 (0: every %v)", o.healthEvery, testbed.DefaultHealthEvery)
	}
	return checkTimeScale(o.timeScale)
}

// loadScenario reads the scenario and fits it to one emulated cell: the
// rate picked, the run length replaced by the wall-clock flags in model
// seconds, so that the simulator runs exactly what is emulated.
func (o *emulateOptions) loadScenario() (*scenario.Scenario, error) {
	if len(o.policies) > 0 {
		o.sf.sets = append(o.sf.sets, "policies=["+strings.Join(o.policies, ",")+"]")
	}
	if o.sf.cmd != nil && o.sf.cmd.Flags().Changed("tasks") {
		return nil, badInputf("emulate: --tasks does not apply: a run lasts --warmup then --duration of wall clock")
	}
	sc, err := o.sf.load("emulate")
	if err != nil {
		return nil, err
	}
	rateSet := o.sf.cmd != nil && o.sf.cmd.Flags().Changed("rate")
	if sw := sc.Sweep; sw != nil {
		if sw.Param != "arrivals.rate" {
			return nil, badInputf("emulate runs one cell, and the scenario sweeps %s; emulate picks only a rate, from an arrivals.rate sweep", sw.Param)
		}
		if !rateSet {
			return nil, badInputf("the scenario sweeps arrivals.rate over %v: pick one with --rate", sw.Values)
		}
		sc.Sweep = nil
	}
	if rateSet {
		if !(o.rate > 0) || math.IsInf(o.rate, 0) {
			return nil, badInputf("--rate %v: must be > 0", o.rate)
		}
		sc.Arrivals.Rate = o.rate
	}
	sc.Tasks, sc.Warmup = 0, 0
	sc.Duration = o.duration.Seconds() / o.timeScale
	sc.WarmupTime = o.warmup.Seconds() / o.timeScale
	if err := sc.Validate(); err != nil {
		return nil, badInput(err)
	}
	return sc, nil
}

func runEmulate(ctx context.Context, o *emulateOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	sc, err := o.loadScenario()
	if err != nil {
		return err
	}
	name := sc.Name
	if name == "" {
		name = "emulate"
	}
	plan, err := experiment.NewPlan(name, sc)
	if err != nil {
		return badInput(err)
	}
	external, err := parseTierURLs(o.tiers, plan.Tiers())
	if err != nil {
		return err
	}
	cfg, err := experiment.Config(sc)
	if err != nil {
		return badInput(err)
	}
	if err := checkExternal(ctx, cfg, external, o.timeScale); err != nil {
		return err
	}
	hash := sc.Hash()
	if err := prepareDir(o.dir, hash, o.force); err != nil {
		return err
	}
	m := manifest{Tool: "offload", Version: version(), Command: o.args, Experiment: name,
		Seed: sc.Seed, Seeds: sc.Seeds, ScenarioHash: hash, Started: time.Now().UTC(), Runs: len(plan.Jobs())}
	resolved, err := sc.Marshal()
	if err != nil {
		return err
	}
	if err := report.WriteFileAtomic(o.dir, "scenario.yaml", func(w io.Writer) error { _, err := w.Write(resolved); return err }); err != nil {
		return err
	}
	if err := writeManifest(o.dir, m); err != nil {
		return err
	}
	e := &emulation{o: o, plan: plan, cfg: cfg, tiers: experiment.DispatchTiers(cfg), external: external}
	e.fd, e.inFlight = inFlightLimit(o.maxInFlight)
	began := time.Now()
	runErr := e.runAll(ctx)
	wall := time.Since(began)
	if err := report.WriteFileAtomic(o.dir, "runs.csv", e.writeRuns); err != nil {
		return err
	}
	m.RunsDone, m.Complete = len(e.runs), runErr == nil
	if runErr != nil {
		_ = writeManifest(o.dir, m)
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
	m.Finished = time.Now().UTC()
	if err := writeManifest(o.dir, m); err != nil {
		return err
	}
	return e.report(wall, simRuns)
}

// emulation is one invocation's runs, in plan order (policy, then replicate).
type emulation struct {
	o        *emulateOptions
	plan     *experiment.Plan
	cfg      *engine.Config
	tiers    []dispatch.Tier
	external map[string]string
	runs     []report.EmulatedRun
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
	jobs := e.plan.Jobs()
	update, finish := newProgress(e.o.io, e.o.quiet, "emulate", len(jobs))
	defer finish()
	for i, j := range jobs {
		run, err := e.runOne(ctx, j)
		if err != nil {
			return fmt.Errorf("policy %s, replicate %d: %w", j.Policy, j.Seed, err)
		}
		e.runs = append(e.runs, run)
		if update != nil {
			update(i+1, len(jobs))
		}
	}
	return nil
}

// runOne emulates one (policy, replicate) on fresh local servers.
func (e *emulation) runOne(ctx context.Context, j experiment.Job) (report.EmulatedRun, error) {
	urls, stop, err := e.startTiers()
	if err != nil {
		return report.EmulatedRun{}, err
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
	sc := e.plan.Scenario
	pol, err := policies.New(j.Policy, e.tiers, experiment.Params(sc), experiment.PolicyRand(sc.Seed, j.Seed))
	if err != nil {
		return report.EmulatedRun{}, badInput(err)
	}
	res, err := testbed.Run(ctx, testbed.Config{Tiers: e.tiers, Policy: pol, Transport: tr,
		Workload: workloadOf(e.cfg, engine.NewStreams(sc.Seed, j.Seed)), TimeScale: e.o.timeScale,
		Warmup: e.o.warmup, Duration: e.o.duration, Timeout: e.o.timeout, Large: e.cfg.Large, Spin: e.o.spin,
		MaxInFlight: e.inFlight, Health: &testbed.Health{Tiers: checked, Every: e.o.healthEvery, Check: tr.Check}})
	if err != nil {
		return report.EmulatedRun{}, err
	}
	e.checks = append(e.checks, e.judge(res))
	e.peak = max(e.peak, res.PeakInFlight)
	if e.firstErr == nil && res.FirstError != nil {
		e.firstErr = fmt.Errorf("%s, replicate %d: %w", j.Policy, j.Seed, res.FirstError)
	}
	e.lag.Mean, e.lag.P99, e.lag.Max = max(e.lag.Mean, res.Lag.Mean), max(e.lag.P99, res.Lag.P99), max(e.lag.Max, res.Lag.Max)
	run := res.Metrics()
	c := e.plan.Cells[j.Cell]
	run.Experiment, run.Param, run.Value, run.Policy, run.Seed = e.plan.Name, c.Param, c.Value, j.Policy, j.Seed
	return report.EmulatedRun{Run: run, Sent: res.Sent, Completed: res.Completed, Rejected: res.Rejected, Failed: res.Failed}, nil
}

// workloadOf draws the emulated workload from the simulator's streams in the
// engine's order (arrival, size, then one delay per tier), so that replicate
// r of the emulation sends exactly the tasks of replicate r of the simulator.
func workloadOf(cfg *engine.Config, st engine.Streams) testbed.Workload {
	return testbed.Workload{
		Next: func(t float64) float64 { return cfg.Arrivals.Next(t, st.Arrivals) },
		Size: func() float64 { return cfg.Size.Sample(st.Sizes) },
		Delays: func(dst []float64) {
			for i := range cfg.Tiers {
				if d := &cfg.Tiers[i].Delay; d.Random() {
					dst[i] = d.Sample(st.Delays)
				} else {
					dst[i] = d.Mean()
				}
			}
		},
	}
}

// startTiers serves every tier not given with --tier on 127.0.0.1; stop
// shuts them down and waits for them.
func (e *emulation) startTiers() (urls []string, stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, s := range stops {
			s()
		}
	}
	for _, t := range e.tiers {
		if u, ok := e.external[t.Name]; ok {
			urls = append(urls, u)
			continue
		}
		s, err := testbed.NewServer(testbed.ServerConfig{Name: t.Name, Servers: t.Servers, Speed: t.Speed, TimeScale: e.o.timeScale})
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
		stops = append(stops, func() { _ = shutdown(srv, 5*time.Second); <-done })
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
			return badInputf("--tier %s=%s: %w", t.Name, u, err)
		}
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
		if err != nil {
			return badInputf("--tier %s=%s: %w", t.Name, u, err)
		}
		var st testbed.State
		err = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&st)
		resp.Body.Close()
		if err != nil {
			return badInputf("--tier %s=%s: GET /state: %w", t.Name, u, err)
		}
		if st.Servers != t.Servers || st.Speed != t.Speed || st.TimeScale != scale {
			return badInputf("--tier %s=%s serves %d servers at speed %g, time-scale %g; the scenario needs %d at %g, time-scale %g",
				t.Name, u, st.Servers, st.Speed, st.TimeScale, t.Servers, t.Speed, scale)
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
	ch.valid = !(ch.share > e.o.maxFailures)
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

// writeRuns writes runs.csv: report's emulation schema plus a last column,
// valid (1/0). The column is added here, by rewriting report's rows, so
// that report's schema stays the one other commands share.
func (e *emulation) writeRuns(w io.Writer) error {
	var buf bytes.Buffer
	if err := report.WriteEmulationRuns(&buf, e.plan.Tiers(), e.runs); err != nil {
		return err
	}
	valid := make([]string, len(e.runs))
	for i, ch := range e.checks {
		valid[i] = "0"
		if ch.valid {
			valid[i] = "1"
		}
	}
	return appendColumn(w, buf.Bytes(), "valid", valid)
}

// appendColumn copies the CSV in data to w with one more column, name, whose
// cells are vals (one per row after the header).
func appendColumn(w io.Writer, data []byte, name string, vals []string) error {
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return err
	}
	if len(recs) != len(vals)+1 {
		return fmt.Errorf("column %s: %d values for %d rows", name, len(vals), len(recs)-1)
	}
	cw := csv.NewWriter(w)
	for i, r := range recs {
		cell := name
		if i > 0 {
			cell = vals[i-1]
		}
		if err := cw.Write(append(r, cell)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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
	dir, tiers := e.o.dir, e.plan.Tiers()
	emuRuns, pairedSim := e.valid(simRuns)
	if e.o.collect != nil {
		e.o.collect(emuRuns, pairedSim)
	}
	invalid := e.invalidRuns()
	emuSums := results.Summarize(emuRuns)
	cs := e.compare(report.Compare(emuSums, results.Summarize(pairedSim), e.accounting), results.Summarize(simRuns), invalid)
	if err := report.WriteFileAtomic(dir, "summary.csv", func(w io.Writer) error { return report.WriteSummary(w, tiers, emuSums) }); err != nil {
		return err
	}
	if err := report.WriteFileAtomic(dir, "comparison.csv", func(w io.Writer) error {
		var buf bytes.Buffer
		if err := report.WriteComparison(&buf, cs); err != nil {
			return err
		}
		n := make([]string, len(cs))
		for i, c := range cs {
			n[i] = strconv.Itoa(invalid[c.Policy])
		}
		return appendColumn(w, buf.Bytes(), "invalid_runs", n)
	}); err != nil {
		return err
	}
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv"), fmtPath(dir, "comparison.csv")}
	plot := "emulated_vs_simulated." + e.o.format
	switch err := report.PlotComparison(dir, plot, e.o.format, cs); {
	case errors.Is(err, report.ErrNoData): // every run invalid: nothing to plot
	case err != nil:
		return err
	default:
		written = append(written, fmtPath(dir, plot))
	}
	e.print(wall, cs, invalid)
	noteWritten(e.o.io.Out, written...)
	var whys []string
	for i := range e.runs {
		if !e.checks[i].valid {
			whys = append(whys, e.why(i))
		}
	}
	if len(whys) > 0 {
		return fmt.Errorf("%d of %d emulated runs are invalid (more than --max-failures %g%% of their requests failed) and were left out of the comparison:\n  %s",
			len(whys), len(e.runs), 100*e.o.maxFailures, strings.Join(whys, "\n  "))
	}
	return nil
}

// compare orders the comparisons as the plan's policies and adds a row for
// each policy whose every run was invalid: NaN on the emulated side (so the
// ranking skips it), the simulator's figures over all its replicates.
func (e *emulation) compare(cs []report.Comparison, simAll []results.Summary, invalid map[string]int) []report.Comparison {
	byPolicy := map[string]report.Comparison{}
	for _, c := range cs {
		byPolicy[c.Policy] = c
	}
	var out []report.Comparison
	for _, p := range e.plan.Policies {
		if c, ok := byPolicy[p]; ok {
			out = append(out, c)
			delete(byPolicy, p)
			continue
		}
		if invalid[p] == 0 {
			continue
		}
		all := report.Compare([]results.Summary{{Policy: p, Mean: nanMetrics(), CI95: nanMetrics()}}, simAll, e.accounting)
		out = append(out, all[0])
	}
	for _, c := range cs { // none expected: every policy is in the plan
		if _, left := byPolicy[c.Policy]; left {
			out = append(out, c)
		}
	}
	return out
}

func nanMetrics() results.Metrics {
	n := math.NaN()
	return results.Metrics{MeanLatency: n, P95Latency: n}
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
