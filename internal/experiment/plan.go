package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/quantile"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// Job is one run: a sweep cell, a policy entry and a replicate.
type Job struct {
	Cell   int
	Policy string // the entry's label
	Seed   int    // replicate number
}

// entry is the cell's entry with this label: a sweep may vary an entry's
// options, so each cell has its own.
func (p *Plan) entry(sc *scenario.Scenario, label string) policies.Entry {
	for _, e := range entries(sc) {
		if e.Label == label {
			return e
		}
	}
	return policies.Entry{Name: label, Label: label}
}

// NewPolicy builds the policy of job j, as its run uses it: the entry of
// its label in its cell, built from the cell's configuration with the
// replicate's policy stream (PolicyBuild). The HTTP emulation builds its
// policies here too.
func (p *Plan) NewPolicy(j Job) (dispatch.Policy, error) { return p.NewDevicePolicy(j, 0) }

// NewDevicePolicy builds the policy of device d of a job: its own stream,
// and the arrival rate of its own stream (the scenario's over the devices).
func (p *Plan) NewDevicePolicy(j Job, d int) (dispatch.Policy, error) {
	sc := p.Cells[j.Cell].Scenario
	b := PolicyBuild(sc, p.configs[j.Cell], p.Scenario.Seed, j.Seed)
	b.Rand = DevicePolicyRand(p.Scenario.Seed, j.Seed, d)
	b.Device, b.Devices = d, sc.DeviceCount()
	b.Rate /= float64(sc.DeviceCount())
	return policies.Make(p.entry(sc, j.Policy), b)
}

// Plan is a scenario expanded into its jobs.
type Plan struct {
	Name     string // the experiment column of the CSVs
	Scenario *scenario.Scenario
	Cells    []scenario.Cell
	Policies []policies.Entry // the scenario's entries; Job.Policy is a label
	// TimeDecisions measures each decision's wall-clock cost (decision_ns).
	TimeDecisions bool
	// Shadows names estimators (hybrid, model-only, queue-only) that predict
	// every measured task's latency at the tier its policy chose (mape).
	Shadows []string
	// SeriesWidth, if positive, records each run's time series in windows of
	// this many seconds (burst).
	SeriesWidth float64
	// Batches, if positive, analyses each run's measured latencies, in
	// arrival order, as this many batch means (--batches): the
	// batch_ columns.
	Batches int
	// Dir is the folder the programs of exec policies run in, so that
	// their relative paths resolve against the scenario file's folder ("":
	// the current folder, for an embedded scenario).
	Dir string
	// Replicates, if set, is each cell's number of replicates, in Cells
	// order: a run until precise (--precision) grows them cell by cell.
	// Nil: the scenario's seeds in every cell.
	Replicates []int
	configs    []*engine.Config
	sketch     bool // Layout.Sketch: a run may pass the exact limit
}

// Outcome is one finished job: its runs.csv row and, when the plan asks for
// them, its shadow estimators' errors and its time series.
type Outcome struct {
	results.Run
	Shadows []results.ShadowError // in Plan.Shadows order
	Series  []results.Window
}

// NewPlan expands sc's sweep and checks that every cell builds.
func NewPlan(name string, sc *scenario.Scenario) (*Plan, error) {
	cells, err := sc.Cells()
	if err != nil {
		return nil, err
	}
	p := &Plan{Name: name, Scenario: sc, Cells: cells, Policies: entries(sc)}
	// A run of the plan may measure more than quantile.ExactLimit tasks when
	// its arrivals per run, warmup included, as the memory check bounds
	// them, exceed it. Computed once here: Estimate walks the sweep, and
	// Layout is read by every run, concurrently.
	p.sketch = sc.Estimate().ArrivalsPerRun > quantile.ExactLimit
	for _, c := range cells {
		cfg, err := Config(c.Scenario)
		if err != nil {
			return nil, err
		}
		for _, e := range entries(c.Scenario) {
			// Build each policy once now, so that a bad option or an
			// edge-first without an edge tier fails before any run starts.
			pol, err := policies.Make(e, PolicyBuild(c.Scenario, cfg, 0, 0))
			if err != nil {
				return nil, err
			}
			if err := clairvoyantFCFS(cfg, pol, e.Label); err != nil {
				return nil, err
			}
		}
		p.configs = append(p.configs, cfg)
	}
	return p, nil
}

// Columns are the runs.csv columns of the plan's runs (docs/design.md §5):
// the tiers', and the SLO and per-tier breakdown columns when the scenario
// asks for them.
func (p *Plan) Columns() []results.Column { return results.RunColumns(p.Layout()) }

// Layout is what shapes the plan's runs.csv: its tiers, SLO thresholds,
// breakdown and energy models. Sweeps cannot vary them, so every cell shares it.
func (p *Plan) Layout() results.Layout {
	return results.Layout{Tiers: p.Tiers(), SLO: p.Scenario.SLO.Latency, Breakdown: p.Scenario.Breakdown, Energy: p.Scenario.HasEnergy(), Sketch: p.sketch,
		Dynamic: p.Scenario.HasDynamics(), WarmupAuto: p.Scenario.Warmup.Auto(), Buffer: p.Scenario.HasBuffers(),
		Patience: p.Scenario.HasPatience(), Classes: p.Scenario.ClassNames(),
		Batches: p.Batches > 0}
}

// measured hands a run's raw measurements to the metrics schema. The
// samples are shared, not copied: the result is not used afterwards.
func measured(cfg *engine.Config, res *engine.Result) *results.Measured {
	m := &results.Measured{Tasks: res.Tasks, Latencies: res.Latencies, LargeLatencies: res.LargeLatencies,
		SumWait: res.SumWait, SumAPE: res.SumAPE, Predicted: res.Predicted, Span: res.Span, DecisionNs: math.NaN(),
		TierCount: make([]int, len(res.Tier)), TierWork: make([]float64, len(res.Tier)), TierCapacity: make([]float64, len(res.Tier)),
		TierSumLatency: make([]float64, len(res.Tier)), TierSumWait: make([]float64, len(res.Tier))}
	for i, t := range res.Tier {
		m.TierCount[i], m.TierWork[i] = t.Count, t.Work
		m.TierSumLatency[i], m.TierSumWait[i] = t.SumLatency, t.SumWait
		m.TierCapacity[i] = float64(cfg.Tiers[i].Servers) * cfg.Tiers[i].Speed * float64(max(t.Copies, 1))
	}
	return m
}

// Labels are the policy entries' labels, in the scenario's order: the
// policy column of every CSV.
func (p *Plan) Labels() []string {
	labels := make([]string, len(p.Policies))
	for i, e := range p.Policies {
		labels[i] = e.Label
	}
	return labels
}

// Programs counts the plan's exec entries (programs of the user's).
func (p *Plan) Programs() int {
	n := 0
	for _, name := range p.PolicyNames() {
		if s, ok := policies.Lookup(name); ok && s.Program {
			n++
		}
	}
	return n
}

// PolicyNames are the registry policies the entries run, in Labels order.
func (p *Plan) PolicyNames() []string {
	names := make([]string, len(p.Policies))
	for i, e := range p.Policies {
		names[i] = e.Name
	}
	return names
}

// Tiers names the tiers, in order (the same in every cell).
func (p *Plan) Tiers() []string {
	names := make([]string, len(p.Scenario.Tiers))
	for i, t := range p.Scenario.Tiers {
		names[i] = t.Name
	}
	return names
}

// ReplicatesOf returns cell c's number of replicates.
func (p *Plan) ReplicatesOf(c int) int {
	if p.Replicates != nil {
		return p.Replicates[c]
	}
	return p.Scenario.Seeds
}

// Jobs lists every run in output order: cell, then policy, then replicate.
func (p *Plan) Jobs() []Job {
	var jobs []Job
	for c := range p.Cells {
		for _, e := range p.Policies {
			for r := range p.ReplicatesOf(c) {
				jobs = append(jobs, Job{Cell: c, Policy: e.Label, Seed: r})
			}
		}
	}
	return jobs
}

// Options tune Execute.
type Options struct {
	Workers int // ≤ 0: one
	// Progress, if set, is called after each finished run (serialised).
	Progress func(done, total int)
	// Have, if set, reports jobs already done (--resume): they are skipped and
	// their slot in the result is left for the caller to fill.
	Have func(i int) bool
	// Only, if set, restricts the execution to the jobs it accepts (a
	// shard's): the others are neither run nor counted in the progress, and
	// their slots stay empty.
	Only func(i int) bool
	// Trace, if set, opens a per-task sink for a job; close is called after
	// the run with its error, so that a failed run's trace can be discarded.
	Trace func(j Job) (sink func(*engine.TaskRecord), close func(runErr error) error, err error)
	// PolicyLog, if set, keeps the stderr of each exec policy's program;
	// nil discards it (its first bytes still reach the error messages).
	PolicyLog PolicyLog
	// Reuse, if set, returns a job's outcome when an earlier plan already
	// made its run (Memo.Lookup): the job is not run again.
	Reuse func(j Job) (Outcome, bool)
}

// Execute runs every job of the shard that is neither had (Options.Have)
// nor taken from an earlier run (Options.Reuse): groups of one cell and
// replicate in parallel, a group's policies one after another on one
// worker, sharing its tapes. The result has one entry per job, in Jobs
// order, taken runs included; an entry not run has an empty Policy. On
// cancellation it returns what finished and ctx's error.
func (p *Plan) Execute(ctx context.Context, opt Options) ([]Outcome, error) {
	jobs := p.Jobs()
	out := make([]Outcome, len(jobs))
	// The jobs to run, in groups that share their workload (groups); the
	// progress counts every job of the shard, had and taken ones done.
	var run []int
	total, done := 0, 0
	for i := range jobs {
		if opt.Only != nil && !opt.Only(i) {
			continue
		}
		total++
		if opt.Have != nil && opt.Have(i) {
			done++
			continue
		}
		if opt.Reuse != nil {
			if o, ok := opt.Reuse(jobs[i]); ok {
				out[i] = o
				done++
				continue
			}
		}
		run = append(run, i)
	}
	workers := max(opt.Workers, 1)
	todo := make(chan []int)
	var (
		mu       sync.Mutex
		firstErr error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for g := range todo {
				tapes := p.tapes(ctx, jobs, g)
				for _, i := range g {
					if ctx.Err() != nil {
						break
					}
					r, err := p.runJob(ctx, jobs[i], opt, tapes)
					mu.Lock()
					if errors.Is(err, engine.ErrCanceled) {
						mu.Unlock()
						continue // the context says why
					}
					if err != nil && firstErr == nil {
						firstErr = fmt.Errorf("%s, policy %s, replicate %d: %w", p.cellName(jobs[i].Cell), jobs[i].Policy, jobs[i].Seed, err)
						cancel()
					}
					if err == nil {
						out[i] = r
						done++
						if opt.Progress != nil {
							opt.Progress(done, total)
						}
					}
					mu.Unlock()
				}
			}
		})
	}
	for _, g := range groups(jobs, run, workers) {
		select {
		case todo <- g:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(todo)
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	return out, ctx.Err()
}

// TapeBudget bounds the memory of one replicate's tapes, bytes: the runs
// of a group record their tasks once, up to this much (per worker), and a
// longer run draws the rest again (workload.Tape).
const TapeBudget = 32 << 20

// TapeBytes is the most memory one worker's tapes take for this plan,
// bytes, with arrivals tasks per run (Estimate's bound): none for a plan of
// one policy, whose runs share nothing.
func (p *Plan) TapeBytes(arrivals float64) float64 {
	if len(p.Policies) < 2 {
		return 0
	}
	most := 0.0
	for _, cfg := range p.configs {
		most = max(most, min(TapeBudget, engine.TapeBytes(cfg)*arrivals))
	}
	return most
}

// groups splits the jobs to run (indices into jobs, in job order) into
// groups of one cell and replicate, in order of their first job: the
// policies of a group see the same tasks, which a worker draws once for
// all of them (tapes). When there are fewer groups than workers, each is
// split into parts of consecutive policies, so that a plan of few
// replicates still keeps every worker busy.
func groups(jobs []Job, run []int, workers int) [][]int {
	type key struct{ cell, seed int }
	at := map[key]int{}
	var gs [][]int
	for _, i := range run {
		k := key{jobs[i].Cell, jobs[i].Seed}
		g, ok := at[k]
		if !ok {
			g = len(gs)
			at[k] = g
			gs = append(gs, nil)
		}
		gs[g] = append(gs[g], i)
	}
	if len(gs) == 0 || len(gs) >= workers {
		return gs
	}
	parts := (workers + len(gs) - 1) / len(gs)
	var split [][]int
	for _, g := range gs {
		n := min(parts, len(g))
		for k := range n {
			split = append(split, g[k*len(g)/n:(k+1)*len(g)/n])
		}
	}
	return split
}

// tapes records the workload of group g's replicate for its runs, one
// tape per device; nil for a lone run, which has nothing to share, and for
// runs longer than the tapes may keep.
func (p *Plan) tapes(ctx context.Context, jobs []Job, g []int) []*workload.Tape {
	if len(g) < 2 {
		return nil
	}
	j := jobs[g[0]]
	cfg := p.configs[j.Cell]
	k := p.Cells[j.Cell].Scenario.DeviceCount()
	seed := p.Scenario.Seed
	streams := make([]func() workload.Streams, k)
	for d := range streams {
		streams[d] = func() workload.Streams { return workload.DeviceStreams(seed, j.Seed, d) }
	}
	limit := int(TapeBudget / (float64(k) * engine.TapeBytes(cfg))) // per device
	if cfg.Tasks > 0 && (cfg.Warmup+cfg.Tasks)/k > limit {
		// The tape would stop before the run does, and every run after
		// the first would then draw the recorded tasks again to go on
		// past it: more work than each run drawing its own.
		return nil
	}
	c := *cfg
	c.Cancel = ctx.Done()
	return engine.NewTapes(&c, streams, max(limit, 1))
}

// CellName names cell c in messages: "run", or the swept path=value.
func (p *Plan) CellName(c int) string { return p.cellName(c) }

func (p *Plan) cellName(c int) string {
	cell := p.Cells[c]
	if cell.Param == "" {
		return "run"
	}
	return fmt.Sprintf("%s=%g", cell.Param, cell.Value)
}

// runOnce runs one job and condenses its result; tapes, if set, replay its
// replicate's tasks (one per device). warm, if positive, is the run's own
// warm-up, taken from its tasks (warmup: auto); first, if set, is the only
// listener of a first pass, whose outcome is not kept.
func (p *Plan) runOnce(ctx context.Context, j Job, opt Options, tapes []*workload.Tape, warm int, first func(*engine.TaskRecord)) (Outcome, error) {
	var progs Programs
	defer progs.End(ctx, nil) // an early return's programs end too
	cfg := *p.configs[j.Cell] // a copy: OnTask and Shadows are per run
	if warm > 0 {
		cfg.Warmup, cfg.Tasks = warm, cfg.Tasks-warm
	}
	r := &jobRun{}
	devs, err := p.devices(ctx, j, &cfg, opt, tapes, &progs, r)
	if err != nil {
		return Outcome{}, err
	}
	var sinks []func(*engine.TaskRecord)
	if first != nil {
		sinks = append(sinks, first)
	}
	if p.SeriesWidth > 0 {
		r.coll = &collector{}
		sinks = append(sinks, r.coll.add)
	}
	if p.Batches > 0 && first == nil {
		r.lat = &latencies{}
		sinks = append(sinks, r.lat.add)
	}
	var closeTrace func(error) error
	if opt.Trace != nil {
		sink, cl, err := opt.Trace(j)
		if err != nil {
			return Outcome{}, err
		}
		sinks, closeTrace = append(sinks, sink), cl
	}
	cfg.OnTask = fanOut(sinks)
	cfg.Cancel = ctx.Done()
	cfg.EpisodeSeed = episodeSeed(p.Scenario.Seed, j.Seed)
	res, err := engine.RunDevices(&cfg, devs, workload.Stream(p.Scenario.Seed, j.Seed, workload.BoardStream))
	err = progs.End(ctx, err)
	if closeTrace != nil {
		if cerr := closeTrace(err); err == nil {
			err = cerr
		}
	}
	if err != nil || first != nil {
		return Outcome{}, err
	}
	return p.outcome(j, &cfg, res, r), nil
}

// jobRun is what a run's devices leave to its outcome: the decision
// clocks (--time-decisions), the series probe and collector.
type jobRun struct {
	clocks []*timer
	pr     *probe
	coll   *collector
	lat    *latencies // --batches
}

// devices builds the job's devices: each its policy (its program started,
// timed, probed for the series), shadow predictors and random streams.
func (p *Plan) devices(ctx context.Context, j Job, cfg *engine.Config, opt Options, tapes []*workload.Tape, progs *Programs, r *jobRun) ([]engine.Device, error) {
	sc := p.Cells[j.Cell].Scenario
	seed := p.Scenario.Seed
	tiers := DispatchTiers(cfg)
	devs := make([]engine.Device, sc.DeviceCount())
	for d := range devs {
		pol, err := p.NewDevicePolicy(j, d)
		if err != nil {
			return nil, err
		}
		if devs[d].Feedback, err = progs.Start(ctx, p, j, d, pol, opt.PolicyLog); err != nil {
			return nil, progs.End(ctx, err)
		}
		if p.TimeDecisions {
			var clock *timer
			pol, clock = timed(pol)
			r.clocks = append(r.clocks, clock)
		}
		for _, name := range p.Shadows {
			sh, err := policies.NewPredictor(name, tiers, Params(sc))
			if err != nil {
				return nil, err
			}
			devs[d].Shadows = append(devs[d].Shadows, sh)
		}
		if p.SeriesWidth > 0 && d == 0 { // the series follows device 0's estimator
			insp, err := policies.NewPredictor(policies.NameHybrid, tiers, Params(sc))
			if err != nil {
				return nil, err
			}
			pol = newProbe(pol, insp, p.SeriesWidth, len(tiers))
			r.pr = probeOf(pol)
		}
		devs[d].Policy = pol
		devs[d].Streams = workload.DeviceStreams(seed, j.Seed, d)
		if tapes != nil {
			devs[d].Tape = tapes[d]
		}
		devs[d].Observe = workload.Stream(seed, j.Seed, workload.ObserveStream+uint64(d)*workload.DeviceStride)
	}
	return devs, nil
}

// outcome condenses a finished run: its runs.csv row, its shadow
// estimators' errors, its series.
func (p *Plan) outcome(j Job, cfg *engine.Config, res *engine.Result, r *jobRun) Outcome {
	m := measured(cfg, res)
	m.WarmupTasks = cfg.Warmup // read only under warmup: auto, where the run chose it
	measuredEnergy(m, cfg, res, p.Layout().Energy)
	measuredOutcomes(m, res, p.Layout())
	measuredClasses(m, res)
	if r.lat != nil {
		m.BatchCI95, m.BatchLag1, m.BatchCorrelated = r.lat.batches(p.Batches)
	}
	if len(r.clocks) > 0 {
		m.DecisionNs = meanNs(r.clocks)
	}
	c := p.Cells[j.Cell]
	cols := p.Columns()
	run := results.Run{Experiment: p.Name, Param: c.Param, Value: c.Value, Policy: j.Policy, Seed: j.Seed,
		Cols: cols, Values: results.Row(cols, m)}
	out := Outcome{Run: run}
	for k, name := range p.Shadows {
		sh := res.Shadow[k]
		n := float64(max(res.Tasks, 1))
		out.Shadows = append(out.Shadows, results.ShadowError{Estimator: name, MAPE: 100 * sh.SumAPE / n, MAEWait: sh.SumAbsWait / n,
			MAPEIdle: pctOf(sh.SumAPEIdle, sh.IdleTasks), MAPEBusy: pctOf(sh.SumAPE-sh.SumAPEIdle, res.Tasks-sh.IdleTasks),
			IdleShare: float64(sh.IdleTasks) / n})
	}
	if r.coll != nil {
		out.Series = r.coll.windows(p.SeriesWidth, seriesEnd(cfg, r.coll), len(cfg.Tiers), r.pr.sample)
	}
	return out
}

// pctOf is 100·sum/n, NaN without tasks (a missing value, not 0).
func pctOf(sum float64, n int) float64 {
	if n <= 0 {
		return math.NaN()
	}
	return 100 * sum / float64(n)
}

// seriesEnd is where a run's series stops: the end of arrivals in duration
// mode, else the last arrival seen.
func seriesEnd(cfg *engine.Config, c *collector) float64 {
	if cfg.Duration > 0 {
		return cfg.WarmupTime + cfg.Duration
	}
	end := 0.0
	for _, p := range c.pts {
		end = max(end, p.arrival)
	}
	return end
}

// fanOut calls every sink; nil when there are none, so that the engine's
// per-task hook costs nothing in a plain run.
func fanOut(sinks []func(*engine.TaskRecord)) func(*engine.TaskRecord) {
	switch len(sinks) {
	case 0:
		return nil
	case 1:
		return sinks[0]
	}
	return func(r *engine.TaskRecord) {
		for _, s := range sinks {
			s(r)
		}
	}
}
