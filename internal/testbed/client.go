package testbed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
)

// Workload is the client's source of work, in model seconds and work units.
// The three functions are called from Run's loop only, in the simulator's
// order per task (arrival, size, delays), so that a workload built on the
// simulator's streams reproduces its replicate exactly.
type Workload struct {
	// Next returns the first arrival after t (model s).
	Next func(t float64) float64
	// Size draws the next task's size (work units).
	Size func() float64
	// Delays draws the task's communication delay to every tier (model s)
	// into dst, one per tier.
	Delays func(dst []float64)
	// Data, if set, is the task's data in bits, shown to the policy
	// (dispatch.View.Data); nil: none.
	Data func() float64
	// Class, if set, is the task's class, an index into Config.Classes;
	// nil: none.
	Class func() int
}

// Class is one task class as the client treats it: the priority its
// requests carry, and the deadline its latency is judged against (s; 0:
// none).
type Class struct {
	Priority int
	Deadline float64
}

// Config is one emulated run.
type Config struct {
	Tiers     []dispatch.Tier
	Policy    dispatch.Policy
	Workload  Workload
	Transport Transport
	// TimeScale is wall seconds per model second (> 0): 0.5 runs the model
	// twice as fast as real time.
	TimeScale float64
	// Warmup and Duration are wall-clock spans of arrivals: those in the
	// first Warmup are sent but not measured, then Duration's are measured.
	Warmup, Duration time.Duration
	// MaxTasks, if > 0, stops arrivals after that many tasks.
	MaxTasks int
	// Timeout bounds each request (wall clock); a request that times out is
	// counted as failed. 0: no timeout.
	Timeout time.Duration
	// Large is the size above which a task is large (docs/design.md §4).
	Large float64
	// Spin is the last stretch before each arrival that the loop waits by
	// yielding (runtime.Gosched) instead of on a timer: Go's timers can fire
	// up to about a millisecond late on Linux, which at 2,000 requests per
	// second is two arrivals. It costs CPU while spinning; 0 sleeps only.
	Spin time.Duration
	// MaxInFlight, if > 0, bounds the requests in flight (inside
	// Transport.Send) at once: a task whose delay ends with MaxInFlight
	// requests in flight is not sent and counts as failed, with the reason
	// ReasonConcurrency. An open-loop client cannot wait instead — that
	// would shift its schedule — and one that opens sockets without bound
	// runs out of descriptors, failing requests at random. cmd sets it from
	// the descriptor limit (InFlightLimit). 0: no limit.
	MaxInFlight int
	// Health, if set, checks the tiers it lists during the run, and marks
	// them down (see Health for the rule). nil: no checks, no tier is ever
	// marked down.
	Health *Health
	// TaskTimeout is the dispatcher's timeout, model s (the scenario's
	// timeout): an attempt not answered TaskTimeout after it was sent ends
	// timed out, and is sent again while Retries last, to the policy's
	// choice with the failed tier left out (View.Retry), the task keeping
	// its arrival. A refusal of a down tier or a full queue ends the
	// attempt too, learned after the answer's way back (the delay
	// again). 0: no timeout. The request itself is left to run, as the
	// tier does not know (its answer then counts for nothing but the
	// request account), unless CancelOnTimeout.
	TaskTimeout     float64
	Retries         int
	CancelOnTimeout bool
	// Stamped sends each request with its run (Task.Stamped): Seed, the
	// scenario's, Rep, the replicate, and its model instant, so that tiers
	// that follow the scenario's episodes follow this run's
	// (ServerConfig.Runs).
	Stamped bool
	Seed    uint64
	Rep     int
	// Classes are the task classes (Workload.Class indexes them): each
	// request carries its class's priority, and the result keeps an
	// account per class. nil: none.
	Classes []Class
	// Balanced says that the transport's tier 0 is a real load balancer in
	// front of Tiers, which chooses each task's tier: no Policy decides
	// (it must be nil), each task is sent at its arrival with its delay to
	// every tier (Task.Delays), which the tier that gets it waits, and it
	// is counted at the tier its answer names (Reply.Tier). No health
	// checks.
	Balanced bool
}

func (c *Config) check() error {
	var errs []error
	if len(c.Tiers) == 0 {
		errs = append(errs, errors.New("no tiers"))
	}
	if (c.Policy == nil) != c.Balanced || c.Transport == nil || c.Workload.Next == nil || c.Workload.Size == nil || c.Workload.Delays == nil {
		errs = append(errs, errors.New("a policy (none behind a balancer), the transport and every workload function are required"))
	}
	if c.Balanced && c.Health != nil && len(c.Health.Tiers) > 0 {
		errs = append(errs, errors.New("health checks of tiers behind a balancer"))
	}
	if !(c.TimeScale > 0) || math.IsInf(c.TimeScale, 0) {
		errs = append(errs, fmt.Errorf("time scale %v: must be finite and > 0", c.TimeScale))
	}
	if c.Duration <= 0 || c.Warmup < 0 || c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("duration %v, warmup %v, timeout %v: need > 0, ≥ 0, ≥ 0", c.Duration, c.Warmup, c.Timeout))
	}
	if c.MaxInFlight < 0 {
		errs = append(errs, fmt.Errorf("max in flight %d: need ≥ 0", c.MaxInFlight))
	}
	if !(c.TaskTimeout >= 0) || math.IsInf(c.TaskTimeout, 1) || c.Retries < 0 || c.Rep < 0 {
		errs = append(errs, fmt.Errorf("task timeout %v, retries %d, replicate %d: need finite ≥ 0, ≥ 0, ≥ 0", c.TaskTimeout, c.Retries, c.Rep))
	}
	if c.Balanced && (c.TaskTimeout > 0 || c.Retries > 0) {
		errs = append(errs, errors.New("a timeout or retries behind a balancer: the balancer's choice is final"))
	}
	if (len(c.Classes) > 0) != (c.Workload.Class != nil) {
		errs = append(errs, errors.New("classes need the workload's Class, and it needs them"))
	}
	if h := c.Health; h != nil {
		if h.Check == nil && len(h.Tiers) > 0 {
			errs = append(errs, errors.New("health: tiers to check, but no Check function"))
		}
		for _, i := range h.Tiers {
			if i < 0 || i >= len(c.Tiers) {
				errs = append(errs, fmt.Errorf("health: tier %d of %d", i, len(c.Tiers)))
			}
		}
	}
	return errors.Join(errs...)
}

// client is one run's state. The loop goroutine owns the policy and the
// workload; mu guards what request goroutines also touch.
type client struct {
	cfg   *Config
	ctx   context.Context
	start time.Time
	obs   dispatch.Observer
	fb    dispatch.Feedback // the policy's, if it learns from completions
	done  dispatch.Completion
	view  dispatch.View
	delay []float64
	wg    sync.WaitGroup

	mu       sync.Mutex
	n        []int  // per tier: sent, not yet answered
	inflight int    // Σ n: requests inside Transport.Send
	checked  []bool // per tier: in Health.Tiers
	down     []bool // per tier: marked down by the health rule
	slow     []int  // per tier: health checks timed out in a row
	orc      *shadow
	res      *Result
	firstE   error
	err      error          // a retry's policy chose a tier that does not exist
	retry    dispatch.Retry // the retry being decided (View.Retry)
	moved    dispatch.Completion
}

// Run emulates one run: it dispatches the workload's tasks in open loop
// until Warmup+Duration of arrivals have passed (or MaxTasks), waits for
// every request to end, and returns what happened. When ctx is cancelled it
// stops dispatching, cancels the requests in flight (they count as failed),
// and returns the partial result with ctx's error. No goroutine it started
// outlives it.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("emulation config: %w", err)
	}
	nt := len(cfg.Tiers)
	c := &client{cfg: &cfg, ctx: ctx, delay: make([]float64, nt), n: make([]int, nt), res: newResult(&cfg),
		checked: make([]bool, nt), down: make([]bool, nt), slow: make([]int, nt)}
	c.view.Tiers = cfg.Tiers
	c.view.States = make([]dispatch.State, nt)
	caps := dispatch.CapabilitiesOf(cfg.Policy) // a wrapper states its inner policy's
	c.obs, c.fb = caps.Observer, caps.Feedback
	if caps.Clairvoyant && !cfg.Balanced {
		c.orc = newShadow(cfg.Tiers)
		c.orc.down = c.down
		c.view.Oracle = c.orc
	}
	stopHealth := c.startHealth()
	err := c.loop()
	stopHealth()
	c.wg.Wait()
	if err == nil {
		err = c.err
	}
	for i := range c.res.Health {
		c.res.Health[i].Down = c.down[i]
	}
	c.res.FirstError = c.firstE
	c.res.finish()
	if err == nil {
		err = ctx.Err()
	}
	return c.res, err
}

// wall converts model seconds to a wall-clock span.
func (c *client) wall(model float64) time.Duration {
	return time.Duration(model * c.cfg.TimeScale * float64(time.Second))
}

// loop is the open-loop schedule: sleep until each arrival is due, decide,
// dispatch; never wait for an answer.
func (c *client) loop() error {
	cfg := c.cfg
	warm := cfg.Warmup.Seconds() / cfg.TimeScale
	end := (cfg.Warmup + cfg.Duration).Seconds() / cfg.TimeScale
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	t := 0.0
	for k := 0; cfg.MaxTasks <= 0 || k < cfg.MaxTasks; k++ {
		if t = cfg.Workload.Next(t); t >= end {
			break
		}
		due := c.start.Add(c.wall(t))
		if err := c.waitUntil(due, timer); err != nil {
			return err
		}
		c.res.lags = append(c.res.lags, max(0, time.Since(due)))
		if err := c.dispatch(k, t, due, t >= warm); err != nil {
			return err
		}
	}
	return nil
}

// waitUntil sleeps until due, spinning through the last cfg.Spin of it.
func (c *client) waitUntil(due time.Time, timer *time.Timer) error {
	if wait := time.Until(due) - c.cfg.Spin; wait > 0 {
		timer.Reset(wait)
		select {
		case <-timer.C:
		case <-c.ctx.Done():
			return c.ctx.Err()
		}
	}
	for time.Now().Before(due) {
		runtime.Gosched()
	}
	return c.ctx.Err()
}

// flight is one attempt of a task, from decision to answer: a retry is a
// flight of its own, so that the request of an attempt given up on can
// still end without touching the next.
type flight struct {
	id       int
	tier     int
	size     float64
	class    int
	data     float64
	arrival  float64 // model s
	sent     float64 // model s: when this attempt left the dispatcher (its arrival, or its retry)
	reach    float64 // model s: sent + delay, for the oracle's replay
	due      time.Time
	measured bool
	tries    int // the attempts before this one
	dec      dispatch.Decision
	delays   []float64 // to every tier: sent behind a balancer (Config.Balanced), a retry's delays

	// Under c.mu: the dispatcher is done with the attempt (answered, its
	// failure learned, timed out); why it failed, as far as the answer
	// told; the request's cancel (Config.CancelOnTimeout); the stop of its
	// timeout.
	ended  bool
	why    failure
	cancel context.CancelFunc
	stop   func()
}

// dispatch decides task k's tier and hands it to the delay.
func (c *client) dispatch(k int, t float64, due time.Time, measured bool) error {
	cfg := c.cfg
	size := cfg.Workload.Size()
	cfg.Workload.Delays(c.delay)
	f := &flight{id: k, tier: -1, size: size, arrival: t, sent: t, due: due, measured: measured}
	if cfg.Workload.Data != nil {
		f.data = cfg.Workload.Data() // drawn as the simulator does, to keep the streams aligned
	}
	if cfg.Workload.Class != nil {
		f.class = cfg.Workload.Class()
	}
	if cfg.Balanced || cfg.Retries > 0 {
		f.delays = slices.Clone(c.delay)
	}
	if cfg.Balanced {
		c.balanced(f)
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fillView(k, t, f.data)
	if c.orc != nil {
		c.orc.set(t, size, c.delay)
	}
	dec := cfg.Policy.Decide(&c.view)
	if i := dec.Tier; i < 0 || i >= len(cfg.Tiers) {
		return fmt.Errorf("policy chose tier %d, but there are %d tiers", i, len(cfg.Tiers))
	}
	f.dec = dec
	c.launch(f, dec.Tier, c.delay[dec.Tier])
	return nil
}

// balanced sends f to the real balancer at once: it chooses the tier,
// which applies the delay.
func (c *client) balanced(f *flight) {
	c.mu.Lock()
	c.res.dispatched(f)
	c.mu.Unlock()
	c.wg.Add(1)
	go c.send(f)
}

// launch sends attempt f to tier i after its delay (c.mu held): the
// view's and the oracle's counts, the observers, the timeout.
func (c *client) launch(f *flight, i int, delay float64) {
	f.tier, f.reach = i, f.sent+delay
	c.view.States[i].InTransit++
	if c.down[i] {
		c.res.Health[i].ChosenWhileDown++
	}
	if c.orc != nil {
		c.orc.dispatched(i, f.reach, f.size)
	}
	c.res.dispatched(f)
	if c.obs != nil {
		c.obs.Dispatched(f.sent, i)
	}
	if c.cfg.TaskTimeout > 0 {
		deadline := f.sent + c.cfg.TaskTimeout
		f.stop = c.at(c.start.Add(c.wall(deadline)), func() { c.expire(f, deadline) })
	}
	c.wg.Add(1)
	if d := c.wall(delay); d > 0 {
		time.AfterFunc(d, func() { c.send(f) })
	} else {
		go c.send(f)
	}
}

// fillView sets the view task k at time t is decided on (c.mu held).
func (c *client) fillView(k int, t, data float64) {
	cfg := c.cfg
	c.view.Now, c.view.Data = t, data
	for i := range c.view.States {
		n, s := c.n[i], cfg.Tiers[i].Servers
		if c.down[i] { // saturated, so that no policy reading the view picks it
			n = s + DownQueued
			c.res.Health[i].WhileDown++
		}
		c.view.States[i].Queued, c.view.States[i].Busy = max(0, n-s), min(n, s)
	}
	c.view.Task = k // the id its completion carries (dispatch.Feedback)
}

// send runs once the task's delay is over: the task reaches its tier.
func (c *client) send(f *flight) {
	defer c.wg.Done()
	ctx, ok := c.admit(f)
	if !ok {
		return
	}
	var cancel context.CancelFunc
	if c.cfg.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
		defer cancel()
	}
	t := Task{ID: f.id, Size: f.size, Stamped: c.cfg.Stamped, At: f.reach, Seed: c.cfg.Seed, Rep: c.cfg.Rep}
	if c.cfg.Balanced {
		t.Delays, t.At = f.delays, f.arrival
	}
	if c.cfg.Classes != nil {
		t.Priority = c.cfg.Classes[f.class].Priority
	}
	rep := c.cfg.Transport.Send(ctx, max(f.tier, 0), t)
	c.answered(f, rep, time.Since(f.due))
}

// admit accounts for the task's arrival at its tier and reports whether
// it is to be sent, with the request's context: not after an
// interruption, nor when the client refuses it itself (its tier down, too
// many requests in flight), nor when it timed out on the way and is
// cancelled.
func (c *client) admit(f *flight) (context.Context, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.tier >= 0 {
		c.view.States[f.tier].InTransit--
	}
	if c.orc != nil {
		c.orc.reached(f.tier, f.reach, f.size)
	}
	if c.ctx.Err() != nil || (f.ended && c.cfg.CancelOnTimeout) { // interrupted or cancelled during the delay: never sent
		c.res.unsent(f)
		return nil, false
	}
	c.res.Sent++
	// The client's own refusals: accounted as failed requests, and no socket
	// opened.
	var refused error
	switch {
	case f.tier >= 0 && c.down[f.tier]:
		refused = errTierDown
	case c.cfg.MaxInFlight > 0 && c.inflight >= c.cfg.MaxInFlight:
		refused = errConcurrency
	}
	if refused != nil {
		c.failed(f, Reply{Outcome: Failed, Err: refused})
		c.endAttempt(f)
		return nil, false
	}
	if f.tier >= 0 {
		c.n[f.tier]++
	}
	c.inflight++
	c.res.PeakInFlight = max(c.res.PeakInFlight, c.inflight)
	ctx := c.ctx
	if c.cfg.CancelOnTimeout && c.cfg.TaskTimeout > 0 {
		ctx, f.cancel = context.WithCancel(ctx)
	}
	return ctx, true
}

// answered accounts for the tier's reply to a sent task.
func (c *client) answered(f *flight, rep Reply, latency time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.tier >= 0 {
		c.n[f.tier]--
	}
	c.inflight--
	if f.cancel != nil {
		f.cancel()
	}
	if c.cfg.Balanced && rep.Outcome == Completed {
		if rep.Tier < 0 || rep.Tier >= len(c.cfg.Tiers) {
			rep = Reply{Outcome: Failed, Err: badAnswer{fmt.Errorf("the answer names tier %d of %d", rep.Tier, len(c.cfg.Tiers))}}
		} else {
			f.tier = rep.Tier
			f.reach = f.arrival + f.delays[f.tier]
			c.res.placed(f)
		}
	}
	if f.ended {
		c.late(f, rep)
		return
	}
	if rep.Outcome == Failed {
		c.failed(f, rep)
		c.endAttempt(f)
		return
	}
	if rep.Outcome != Completed && c.firstE == nil && rep.Err != nil {
		c.firstE = fmt.Errorf("task %d to %s: %w", f.id, c.tierName(f.tier), rep.Err)
	}
	c.res.answered(rep.Outcome)
	if rep.Outcome != Completed {
		c.refused(f, rep.Outcome)
		return
	}
	c.endAttempt(f)
	lat := latency.Seconds() / c.cfg.TimeScale
	c.res.completed(f, rep, lat, c.cfg.Classes)
	if c.fb != nil {
		c.tell(f, rep, lat)
	}
}

// late accounts for the answer to an attempt given up on at its timeout
// (c.mu held): the request's account only, a cancel at the timeout being
// the scenario's, not a failure.
func (c *client) late(f *flight, rep Reply) {
	if rep.Outcome == Failed && !(f.cancel != nil && errors.Is(rep.Err, context.Canceled) && c.ctx.Err() == nil) {
		c.failed(f, rep)
		return
	}
	c.res.answered(rep.Outcome)
}

// tell gives a feedback policy a completed task's outcome (c.mu held, so
// that it never runs beside a decision), in model seconds: the delay is the
// task's drawn one, wait and service the tier's own timings, the latency
// the last attempt's (from its arrival on the first).
func (c *client) tell(f *flight, rep Reply, latency float64) {
	scale := c.cfg.TimeScale
	now := time.Since(c.start).Seconds() / scale
	if f.tries > 0 {
		latency = now - f.sent
	}
	c.done = dispatch.Completion{Task: f.id, Tier: f.tier, Now: now,
		Latency: latency, Delay: f.reach - f.sent,
		Wait: rep.Wait.Seconds() / scale, Service: rep.Service.Seconds() / scale}
	c.fb.Done(&c.done)
}

// failed accounts for a failed request (c.mu held), and marks its tier down
// when the reason says the tier is gone and the tier is health-checked.
func (c *client) failed(f *flight, rep Reply) {
	reason := reasonOf(rep.Err)
	if c.firstE == nil && rep.Err != nil {
		c.firstE = fmt.Errorf("task %d to %s: %w", f.id, c.tierName(f.tier), rep.Err)
	}
	c.res.failed(reason)
	if f.tier >= 0 && c.checked[f.tier] && marksDown(reason) && c.ctx.Err() == nil {
		c.markDown(f.tier, reason+": "+rep.Err.Error())
	}
}

// tierName names tier i, or the balancer before its answer has named one.
func (c *client) tierName(i int) string {
	if i < 0 {
		return "the balancer"
	}
	return c.cfg.Tiers[i].Name
}
