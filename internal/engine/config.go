package engine

import (
	"errors"
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/capacity"
	"github.com/offload-sim/offload/internal/discipline"
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// TierConfig is one tier: what a dispatcher knows of it, plus its delay
// distribution, which only the engine samples.
type TierConfig struct {
	dispatch.Tier
	Delay workload.Dist // communication delay, s; the zero Dist is no delay
	// Bandwidth is the link's bandwidth, bit/s: a task's data adds
	// data/Bandwidth to its delay. 0: no limit (the data takes no time).
	Bandwidth float64
	// Capacity is the tier's speed over time: slow-downs and failures
	// (the zero value: its speed, always).
	Capacity Capacity
	// Buffer is the most tasks the tier holds, in service included (≥
	// Servers); a task that reaches it full is dropped, or sent again with
	// Config.Retries. 0: no limit.
	Buffer int
	// Discipline is the order the tier serves its tasks in (the zero
	// value: FCFS); Preemptive makes Priority preempt-resume.
	Discipline Discipline
	Preemptive bool
}

// A tier's capacity over time and its discipline are leaf packages'
// (internal/capacity, internal/discipline), named here as well, so that
// a run is configured through this package alone.
type (
	Capacity   = capacity.Capacity
	Episode    = capacity.Episode
	Recurring  = capacity.Recurring
	Schedule   = capacity.Timeline
	Discipline = discipline.Discipline
)

// The disciplines (discipline.Discipline).
const (
	FCFS     = discipline.FCFS
	PS       = discipline.PS
	SRPT     = discipline.SRPT
	Priority = discipline.Priority
)

// NewSchedule is physical tier p's capacity c over time under a run's
// episode seed (Config.EpisodeSeed), the same pieces from the same streams
// as the run's: for a testbed server to follow what the simulator simulates.
func NewSchedule(c *Capacity, seed [2]uint64, p int) *Schedule { return capacity.New(c, seed, p) }

// ParseDiscipline reads a discipline's scenario spelling; "" is FCFS.
func ParseDiscipline(s string) (Discipline, error) { return discipline.Parse(s) }

// Config describes one run. Exactly one of Tasks and Duration is positive.
type Config struct {
	Tiers    []TierConfig
	Arrivals workload.Schedule
	// Process is the arrival process over Arrivals, relative to its rate
	// (the zero value: Poisson).
	Process workload.ProcessSpec
	Size    workload.Dist // task size, work units
	// Data and Reply are the laws of a task's input data and of its reply,
	// bits (the zero laws: none; docs/design.md §1.5).
	Data, Reply workload.DataLaw
	// Trace, if set, is replayed in place of Arrivals and Size (which then
	// describe it to the policies: its mean rate and size law).
	Trace *workload.Trace
	// Large is the size above which a task counts as large (docs/design.md §4).
	Large float64

	// Tasks mode: Warmup tasks arrive unmeasured, then Tasks measured ones.
	Tasks, Warmup int
	// Duration mode: arrivals in [0, WarmupTime) are unmeasured, those in
	// [WarmupTime, WarmupTime+Duration) measured; then arrivals stop.
	Duration, WarmupTime float64

	// ExactLimit is how many measured latencies a run keeps whole, for exact
	// percentiles; beyond it they go to a quantile sketch of bounded size
	// (internal/quantile). 0: quantile.ExactLimit.
	ExactLimit int

	// Observe is what the dispatchers see of the tiers (the zero value:
	// the true state, fresh).
	Observe Observation

	// Shadows predict the waiting time at the chosen tier without routing
	// (the mape experiment); each is also told of every dispatch if it is a
	// dispatch.Observer.
	Shadows []dispatch.Predictor

	// Cancel, if set, is polled every 256 arrivals, and while one arrival's
	// time is sampled across many burst edges: once it is closed, Run stops
	// and returns ErrCanceled, so that a run ends within a fraction of a
	// second of an interrupt, whatever the scenario.
	Cancel <-chan struct{}

	// Timeout, if > 0, is how long a dispatcher waits for an attempt's
	// completion from its send, s; Retries how many times a task that
	// timed out or was refused by a down tier is sent again, each time to
	// the policy's choice without the tier that failed; CancelOnTimeout
	// removes a timed-out attempt from its tier (else it runs on, wasted).
	Timeout         float64
	Retries         int
	CancelOnTimeout bool
	// EpisodeSeed seeds the random slow-downs and failures (PCG's two
	// words; each physical tier and kind derives its own stream), so that
	// every policy of a replicate sees the same episodes.
	EpisodeSeed [2]uint64

	// Classes, if any, split the tasks (discipline.go); Patience is the
	// patience law of a class without its own (the zero Dist: none).
	Classes  []Class
	Patience workload.Dist

	// OnTask, if set, receives every task's record when its latency is known
	// (at the moment it joins its tier). The record is reused: copy it to keep it.
	OnTask func(*TaskRecord)
}

// ErrCanceled is returned by Run when Config.Cancel is closed.
var ErrCanceled = errors.New("run canceled")

// Workload is the run's workload as the Source draws it.
func (c *Config) Workload() workload.Spec {
	delays := make([]workload.Dist, len(c.Tiers))
	var bw []float64
	for i := range c.Tiers {
		delays[i] = c.Tiers[i].Delay
		if c.Tiers[i].Bandwidth > 0 {
			if bw == nil {
				bw = make([]float64, len(c.Tiers))
			}
			bw[i] = c.Tiers[i].Bandwidth
		}
	}
	var classes []workload.Class
	for _, k := range c.Classes {
		classes = append(classes, workload.Class{Share: k.Share, Size: k.Size})
	}
	return workload.Spec{Arrivals: c.Arrivals, Process: c.Process, Size: c.Size, Delays: delays, Trace: c.Trace,
		Data: c.Data, Reply: c.Reply, Bandwidth: bw, Classes: classes}
}

func (c *Config) validate() error {
	var errs []error
	if len(c.Tiers) == 0 {
		errs = append(errs, errors.New("no tiers"))
	}
	for i, t := range c.Tiers {
		if t.Servers < 1 || !(t.Speed > 0) || !(t.Mu > 0) {
			errs = append(errs, fmt.Errorf("tier %d (%s): servers %d, speed %v, mu %v: need ≥ 1, > 0, > 0", i, t.Name, t.Servers, t.Speed, t.Mu))
		}
		if !(t.Bandwidth >= 0) || math.IsInf(t.Bandwidth, 1) {
			errs = append(errs, fmt.Errorf("tier %d (%s): bandwidth %v: need a finite number ≥ 0 (bit/s; 0 is no limit)", i, t.Name, t.Bandwidth))
		}
	}
	if !(c.Arrivals.Rate > 0) {
		errs = append(errs, fmt.Errorf("arrival rate %v: must be > 0", c.Arrivals.Rate))
	}
	for i, b := range c.Arrivals.Bursts {
		if !(b.Factor > 0) || !(b.Length > 0) || b.Every < 0 || (b.Every > 0 && b.Length > b.Every) {
			errs = append(errs, fmt.Errorf("burst %d: %+v: need factor > 0, 0 < length ≤ every (or every 0)", i, b))
		}
	}
	switch {
	case c.Tasks > 0 && c.Duration > 0:
		errs = append(errs, errors.New("both tasks and duration set"))
	case c.Tasks <= 0 && !(c.Duration > 0):
		errs = append(errs, errors.New("neither tasks nor duration set"))
	}
	if c.Warmup < 0 || c.WarmupTime < 0 {
		errs = append(errs, fmt.Errorf("warmup %d / warmup_time %v: must be ≥ 0", c.Warmup, c.WarmupTime))
	}
	if !(c.Size.Mean() > 0) {
		errs = append(errs, errors.New("size distribution has no positive mean"))
	}
	if o := c.Observe; o.Model != Fresh && o.Model != Delayed && !(o.Period > 0) || !(o.Noise >= 0) {
		errs = append(errs, fmt.Errorf("observation %s: period %v, noise %v: need period > 0, noise ≥ 0", o.Model, o.Period, o.Noise))
	}
	errs = append(errs, c.validateDynamic()...)
	errs = append(errs, c.validateDisciplines()...)
	errs = append(errs, c.validateClasses()...)
	return errors.Join(errs...)
}
