package experiment

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// Job is one run: a sweep cell, a policy and a replicate.
type Job struct {
	Cell   int
	Policy string
	Seed   int // replicate number
}

// Plan is a scenario expanded into its jobs.
type Plan struct {
	Name     string // the experiment column of the CSVs
	Scenario *scenario.Scenario
	Cells    []scenario.Cell
	Policies []string
	// TimeDecisions measures each decision's wall-clock cost (decision_ns).
	TimeDecisions bool
	configs       []*engine.Config
}

// NewPlan expands sc's sweep and checks that every cell builds.
func NewPlan(name string, sc *scenario.Scenario) (*Plan, error) {
	cells, err := sc.Cells()
	if err != nil {
		return nil, err
	}
	p := &Plan{Name: name, Scenario: sc, Cells: cells, Policies: sc.Policies}
	for _, c := range cells {
		cfg, err := Config(c.Scenario)
		if err != nil {
			return nil, err
		}
		tiers := DispatchTiers(cfg)
		for _, name := range p.Policies {
			// Build each policy once now, so that a bad name or an edge-first
			// without an edge tier fails before any run starts.
			if _, err := policies.New(name, tiers, Params(c.Scenario), PolicyRand(0, 0)); err != nil {
				return nil, fmt.Errorf("policy %s: %w", name, err)
			}
		}
		p.configs = append(p.configs, cfg)
	}
	return p, nil
}

// Tiers names the tiers, in order (the same in every cell).
func (p *Plan) Tiers() []string {
	names := make([]string, len(p.Scenario.Tiers))
	for i, t := range p.Scenario.Tiers {
		names[i] = t.Name
	}
	return names
}

// Jobs lists every run in output order: cell, then policy, then replicate.
func (p *Plan) Jobs() []Job {
	var jobs []Job
	for c := range p.Cells {
		for _, pol := range p.Policies {
			for r := range p.Scenario.Seeds {
				jobs = append(jobs, Job{Cell: c, Policy: pol, Seed: r})
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
	// Trace, if set, opens a per-task sink for a job; close is called after it.
	Trace func(j Job) (sink func(*engine.TaskRecord), close func() error, err error)
}

// Execute runs every job not already had, in parallel. The result has one
// entry per job, in Jobs order; an entry not run has an empty Policy. On
// cancellation it returns what finished and ctx's error.
func (p *Plan) Execute(ctx context.Context, opt Options) ([]results.Run, error) {
	jobs := p.Jobs()
	out := make([]results.Run, len(jobs))
	todo := make(chan int)
	var (
		mu       sync.Mutex
		done     int
		firstErr error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := max(opt.Workers, 1)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range todo {
				r, err := p.runJob(jobs[i], opt.Trace)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s, policy %s, replicate %d: %w", p.cellName(jobs[i].Cell), jobs[i].Policy, jobs[i].Seed, err)
					cancel()
				}
				if err == nil {
					out[i] = r
					done++
					if opt.Progress != nil {
						opt.Progress(done, len(jobs))
					}
				}
				mu.Unlock()
			}
		})
	}
	for i := range jobs {
		if opt.Have != nil && opt.Have(i) {
			mu.Lock()
			done++
			mu.Unlock()
			continue
		}
		select {
		case todo <- i:
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

func (p *Plan) cellName(c int) string {
	cell := p.Cells[c]
	if cell.Param == "" {
		return "run"
	}
	return fmt.Sprintf("%s=%g", cell.Param, cell.Value)
}

// runJob runs one job and condenses its result.
func (p *Plan) runJob(j Job, trace func(Job) (func(*engine.TaskRecord), func() error, error)) (results.Run, error) {
	sc := p.Cells[j.Cell].Scenario
	cfg := *p.configs[j.Cell] // a copy: OnTask is per run
	seed := p.Scenario.Seed
	pol, err := policies.New(j.Policy, DispatchTiers(&cfg), Params(sc), PolicyRand(seed, j.Seed))
	if err != nil {
		return results.Run{}, err
	}
	var clock *timer
	if p.TimeDecisions {
		pol, clock = timed(pol)
	}
	var closeTrace func() error
	if trace != nil {
		sink, cl, err := trace(j)
		if err != nil {
			return results.Run{}, err
		}
		cfg.OnTask, closeTrace = sink, cl
	}
	res, err := engine.Run(&cfg, pol, engine.NewStreams(seed, j.Seed))
	if closeTrace != nil {
		if cerr := closeTrace(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return results.Run{}, err
	}
	s := res.Summarize(&cfg)
	run := results.Run{
		Experiment: p.Name, Param: p.Cells[j.Cell].Param, Value: p.Cells[j.Cell].Value,
		Policy: j.Policy, Seed: j.Seed, Tasks: res.Tasks,
		MeanLatency: s.Mean, P50Latency: s.P50, P95Latency: s.P95, P99Latency: s.P99, MaxLatency: s.Max,
		MeanWait: s.MeanWait, MeanLarge: s.MeanLarge, P95Large: s.P95Large, MAPE: s.MAPE,
		DecisionNs: math.NaN(), Share: s.Share, Util: s.Util,
	}
	if clock != nil {
		run.DecisionNs = clock.meanNs()
	}
	return run, nil
}
