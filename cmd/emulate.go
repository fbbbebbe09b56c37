package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/store"
	"github.com/offload-sim/offload/internal/testbed"
	"github.com/offload-sim/offload/internal/workload"
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
	args      []string
	// collect, if set, receives the emulated and the simulated runs
	// (reproduce --emulate judges claim 6 with them).
	collect func(emu, sim []results.Run)
}

const emulateLong = `Emulate a scenario over HTTP: start one tier server per tier on
127.0.0.1 (or use running ones given with --tier name=URL, started by
'offload serve-tier' with the same --time-scale), then drive an open-loop
Poisson client that dispatches each task with the same policy code as the
simulator, sending it after the tier's delay. Each (policy, replicate) runs
alone, on fresh servers, for --warmup then --duration of wall-clock
arrivals, with the same arrival times, sizes and delays as the simulator's
replicate. The simulator then runs the same scenario and seeds, and a table
sets emulated against simulated latency.

Writes runs.csv (the simulator's columns plus sent, completed, rejected,
failed), summary.csv, comparison.csv, emulated_vs_simulated.<format>,
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
	sc, err := o.sf.load("emulate", o.sf.sets)
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
	d, err := runner.OpenFolder(o.dir, hash, name, o.force, []string{"runs.csv", "summary.csv", "comparison.csv", "scenario.yaml", "emulated_vs_simulated." + o.format})
	if err != nil {
		return err
	}
	defer d.Close()
	m := runner.Manifest{Tool: "offload", Version: runner.Version(), Command: o.args, Experiment: name,
		Seed: sc.Seed, Seeds: sc.Seeds, ScenarioHash: hash, Started: time.Now().UTC(), Runs: len(plan.Jobs())}
	resolved, err := sc.Marshal()
	if err != nil {
		return err
	}
	if err := d.WriteManifest(m); err != nil {
		return err
	}
	if err := d.WriteFile("scenario.yaml", func(w io.Writer) error { _, err := w.Write(resolved); return err }); err != nil {
		return err
	}
	e := &emulation{o: o, dir: d, plan: plan, cfg: cfg, tiers: experiment.DispatchTiers(cfg), external: external}
	began := time.Now()
	runErr := e.runAll(ctx)
	wall := time.Since(began)
	if err := d.WriteFile("runs.csv", func(w io.Writer) error { return report.WriteEmulationRuns(w, e.plan.Columns(), e.runs) }); err != nil {
		return err
	}
	m.RunsDone, m.Complete = len(e.runs), runErr == nil
	if runErr != nil {
		_ = d.WriteManifest(m)
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
	if err := d.WriteManifest(m); err != nil {
		return err
	}
	return e.report(wall, simRuns)
}

// emulation is one invocation's runs, in plan order (policy, then replicate).
type emulation struct {
	o        *emulateOptions
	dir      *store.Dir
	plan     *experiment.Plan
	cfg      *engine.Config
	tiers    []dispatch.Tier
	external map[string]string
	runs     []report.EmulatedRun
	lag      testbed.LagStats // the worst run's figures
	firstErr error
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
	tr := testbed.NewHTTPTransport(urls)
	defer tr.CloseIdleConnections()
	sc := e.plan.Scenario
	pol, err := policies.New(j.Policy, e.tiers, experiment.Params(sc), experiment.PolicyRand(sc.Seed, j.Seed))
	if err != nil {
		return report.EmulatedRun{}, badInput(err)
	}
	res, err := testbed.Run(ctx, testbed.Config{Tiers: e.tiers, Policy: pol, Transport: tr,
		Workload: workloadOf(e.cfg, workload.NewStreams(sc.Seed, j.Seed)), TimeScale: e.o.timeScale,
		Warmup: e.o.warmup, Duration: e.o.duration, Timeout: e.o.timeout, Large: e.cfg.Large, Spin: e.o.spin})
	if err != nil {
		return report.EmulatedRun{}, err
	}
	if e.firstErr == nil && res.FirstError != nil {
		e.firstErr = fmt.Errorf("%s, replicate %d: %w", j.Policy, j.Seed, res.FirstError)
	}
	e.lag.Mean, e.lag.P99, e.lag.Max = max(e.lag.Mean, res.Lag.Mean), max(e.lag.P99, res.Lag.P99), max(e.lag.Max, res.Lag.Max)
	run := res.Metrics(e.plan.Columns())
	c := e.plan.Cells[j.Cell]
	run.Experiment, run.Param, run.Value, run.Policy, run.Seed = e.plan.Name, c.Param, c.Value, j.Policy, j.Seed
	return report.EmulatedRun{Run: run, Sent: res.Sent, Completed: res.Completed, Rejected: res.Rejected, Failed: res.Failed}, nil
}

// workloadOf draws the emulated workload from the simulator's own source,
// so that replicate r of the emulation sends exactly the tasks of replicate
// r of the simulator. The client calls Next, then Size and Delays, per task.
func workloadOf(cfg *engine.Config, st workload.Streams) testbed.Workload {
	src := workload.NewSource(cfg.Workload(), st)
	var task workload.Task
	return testbed.Workload{
		Next:   func(float64) float64 { src.Next(&task); return task.Arrival },
		Size:   func() float64 { return task.Size },
		Delays: func(dst []float64) { copy(dst, task.Delays) },
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

// report writes the summaries, the comparison and its plot, and prints them.
func (e *emulation) report(wall time.Duration, simRuns []results.Run) error {
	dir := e.o.dir
	emuRuns := make([]results.Run, len(e.runs))
	for i, r := range e.runs {
		emuRuns[i] = r.Run
	}
	if e.o.collect != nil {
		e.o.collect(emuRuns, simRuns)
	}
	emuSums, simSums := results.Summarize(emuRuns), results.Summarize(simRuns)
	cs := report.Compare(emuSums, simSums, e.accounting)
	if err := e.dir.WriteFile("summary.csv", func(w io.Writer) error { return report.WriteSummary(w, e.plan.Columns(), emuSums) }); err != nil {
		return err
	}
	if err := e.dir.WriteFile("comparison.csv", func(w io.Writer) error { return report.WriteComparison(w, cs) }); err != nil {
		return err
	}
	plot := "emulated_vs_simulated." + e.o.format
	if err := report.PlotComparison(e.dir, plot, e.o.format, cs); err != nil {
		return err
	}
	e.print(wall, cs)
	noteWritten(e.o.io.Out, fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv"), fmtPath(dir, "comparison.csv"), fmtPath(dir, plot))
	return nil
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
