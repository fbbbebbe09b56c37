package gymenv

import (
	"errors"
	"fmt"
	"iter"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/workload"
)

// Env is one environment: an episode is one run of the scenario, replicate
// Rep of master seed Seed, whose streams are those `offload run --seed Seed`
// gives replicate Rep. Its methods are not safe for concurrent use.
type Env struct {
	s      *Setup
	seed   uint64
	rep    int
	stride int  // how far the next episode's replicate is from this one's
	begun  bool // an episode ran since seed, rep were set

	next   func() (struct{}, bool) // resumes the engine up to its next decision
	stop   func()
	cancel chan struct{}
	cfg    engine.Config // the episode's: the setup's with OnTask and Cancel
	runErr error         // the engine's, once its run returned

	// The decision the engine waits on.
	view   *dispatch.View
	size   float64
	action int
	halted bool // the episode was abandoned: decide anything, the engine stops at Cancel

	// n is the tasks in the system (+1 at a decision, −1 at a completion)
	// since the episode began; area the ∫ n dt since the last step, up to
	// last. Completions are known when a task reaches its tier (FCFS),
	// which is no later than the completion, so every completion up to a
	// decision's time is in comp when the decision comes.
	n          int
	last, area float64
	comp       completions
	done       []Record // tasks completed since the last step
	over       bool     // the episode ended at the last step
	steps      int
}

// Record is a completed task, for a step's info.
type Record struct {
	Task     int64   // its id: its arrival index in the episode, from 0
	Latency  float64 // delay + wait + service, s
	Measured bool    // a task `offload run` measures (after the scenario's warmup)
	done     float64 // completion instant
}

// NewEnv returns an environment whose first episode is replicate rep of
// the scenario's seed; each later episode without Reset's values is
// stride replicates on.
func (s *Setup) NewEnv(rep, stride int) *Env {
	return &Env{s: s, seed: s.seed, rep: rep, stride: stride}
}

// Seed sets the master seed, the replicate and the stride of the episodes
// that follow: the next Reset runs replicate rep.
func (e *Env) Seed(seed uint64, rep, stride int) {
	e.seed, e.rep, e.stride, e.begun = seed, rep, stride, false
}

// Reset abandons any episode under way and begins the next one: replicate
// rep after Seed (or at first), else the previous replicate + stride. It
// returns an error if the episode has no task.
func (e *Env) Reset() error {
	e.halt()
	if e.begun {
		e.rep += e.stride
	}
	e.begun = true
	e.cfg = e.s.cfg
	e.cancel = make(chan struct{})
	e.cfg.Cancel = e.cancel
	e.cfg.ExactLimit = 1 // the run's own result is not read: keep it small
	e.cfg.OnTask = e.reached
	e.n, e.last, e.area, e.steps, e.over, e.halted, e.runErr = 0, 0, 0, 0, false, false, nil
	e.comp = e.comp[:0]
	e.done = e.done[:0]
	streams := workload.DeviceStreams(e.seed, e.rep, 0)
	obs := workload.Stream(e.seed, e.rep, workload.ObserveStream)
	board := workload.Stream(e.seed, e.rep, workload.BoardStream)
	pol := &policy{e: e}
	e.next, e.stop = iter.Pull(func(yield func(struct{}) bool) {
		pol.yield = yield
		_, e.runErr = engine.RunDevices(&e.cfg, []engine.Device{{Policy: pol, Streams: streams, Observe: obs}}, board)
	})
	if _, ok := e.next(); !ok {
		e.finish()
		if e.runErr != nil {
			return e.runErr
		}
		return fmt.Errorf("seed %d, replicate %d: %w", e.seed, e.rep, errNoTask)
	}
	return nil
}

// halt ends the episode under way, if any: the engine is told to stop,
// and its remaining decisions go anywhere unseen.
func (e *Env) halt() {
	if e.stop == nil {
		return
	}
	if !e.over {
		e.halted = true
		close(e.cancel)
	}
	e.stop()
	e.next, e.stop = nil, nil
}

// finish releases the coroutine of an engine that returned.
func (e *Env) finish() {
	e.stop()
	e.next, e.stop = nil, nil
}

// Step sends the task being decided to tier action and runs the engine to
// the next decision, or to the end of the episode: then it drains (no more
// arrivals), the reward covers the drain, and Over reports true. The reward
// is −∫ n dt since the previous decision.
func (e *Env) Step(action int) (reward float64, err error) {
	if e.next == nil {
		return 0, errors.New("step before reset, or after the episode ended")
	}
	if action < 0 || action >= len(e.s.tiers) {
		return 0, fmt.Errorf("action %d: allowed 0..%d (the tier's index)", action, len(e.s.tiers)-1)
	}
	e.action = action
	e.done = e.done[:0]
	e.steps++
	if _, ok := e.next(); ok {
		r := -e.area
		e.area = 0
		return r, nil
	}
	e.finish()
	if e.runErr != nil {
		return 0, fmt.Errorf("seed %d, replicate %d: %w", e.seed, e.rep, e.runErr)
	}
	e.drain()
	e.over = true
	r := -e.area
	e.area = 0
	return r, nil
}

// Over reports whether the last step ended the episode.
func (e *Env) Over() bool { return e.over }

// Done lists the tasks completed during the last step (or reset), in
// completion order. The slice is reused by the next step.
func (e *Env) Done() []Record { return e.done }

// Replicate is the episode's master seed and replicate.
func (e *Env) Replicate() (seed uint64, rep int) { return e.seed, e.rep }

// Observe writes the observation (Setup.Fields) into dst: the view of the
// task being decided, or after the episode's end the empty system at the
// drain's end.
func (e *Env) Observe(dst []float64) {
	dst = dst[:len(e.s.fields)]
	if e.over || e.view == nil {
		clear(dst)
		dst[len(e.s.tiers)*perTier] = e.last
		return
	}
	v := e.view
	for i, st := range v.States {
		o := dst[i*perTier : (i+1)*perTier : (i+1)*perTier]
		o[fQueued], o[fBusy], o[fInTransit], o[fAge] = float64(st.Queued), float64(st.Busy), float64(st.InTransit), v.Age(i)
	}
	k := len(v.States) * perTier
	dst[k] = v.Now
	if e.s.data {
		k++
		dst[k] = v.Data
	}
	dst[k+1] = e.size
}

// advance integrates n up to t, taking the completions due by then.
func (e *Env) advance(t float64) {
	for len(e.comp) > 0 && e.comp[0].done <= t {
		r := e.comp.pop()
		e.area += float64(e.n) * (r.done - e.last)
		e.last = r.done
		e.n--
		e.done = append(e.done, r)
	}
	e.area += float64(e.n) * (t - e.last)
	e.last = t
}

// drain integrates n to the last completion: the episode is over.
func (e *Env) drain() {
	for len(e.comp) > 0 {
		e.advance(e.comp[0].done)
	}
	if e.n != 0 {
		panic(fmt.Sprintf("gymenv: %d tasks never completed: the engine's run ended before every task reached its tier", e.n))
	}
}

// reached is the engine's OnTask: the task's completion is known now.
func (e *Env) reached(r *engine.TaskRecord) {
	if e.halted {
		return
	}
	measured := r.ID >= e.s.warmup
	if e.s.cfg.Duration > 0 {
		measured = r.Arrival >= e.s.warmupTime
	}
	e.comp.push(Record{Task: int64(r.ID), Latency: r.Latency, Measured: measured, done: r.Arrival + r.Latency})
}

// policy is the engine's side of the coroutine: it hands each decision to
// Step and returns the action Step was given.
type policy struct {
	e     *Env
	yield func(struct{}) bool
}

var (
	_ dispatch.Policy      = (*policy)(nil)
	_ dispatch.Clairvoyant = (*policy)(nil)
)

// Clairvoyant has the engine give the view an Oracle, for the task's size,
// which the observation carries (marked).
func (*policy) Clairvoyant() {}

// Decide implements dispatch.Policy.
func (p *policy) Decide(v *dispatch.View) dispatch.Decision {
	e := p.e
	if e.halted {
		return dispatch.Decision{}
	}
	e.advance(v.Now)
	e.view, e.size = v, v.Oracle.TaskSize()
	if !p.yield(struct{}{}) {
		// Reset abandoned the episode: halt closed Cancel, which the
		// engine polls within 256 arrivals.
		return dispatch.Decision{}
	}
	e.n++
	return dispatch.Decision{Tier: e.action}
}
