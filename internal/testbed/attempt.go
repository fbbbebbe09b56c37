package testbed

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
)

// failure is how an attempt failed, as far as its dispatcher can tell.
type failure uint8

const (
	failNone    failure = iota
	failTimeout         // it outlived Config.TaskTimeout
	failLost            // its tier was down when it came, or failed with it present
	failDropped         // its tier's queue was full
)

// at runs fn at wall instant due, or at once when the run is
// interrupted, in a goroutine that Run waits for; stop cancels it if it
// has not run yet.
func (c *client) at(due time.Time, fn func()) (stop func()) {
	c.wg.Add(1)
	var once sync.Once
	run := func() { once.Do(func() { defer c.wg.Done(); fn() }) }
	tm := time.AfterFunc(time.Until(due), run)
	unregister := context.AfterFunc(c.ctx, run)
	return func() {
		stopped, unregistered := tm.Stop(), unregister()
		if stopped && unregistered { // neither will run it
			once.Do(c.wg.Done)
		}
	}
}

// endAttempt marks the dispatcher done with attempt f (c.mu held) and
// stops its timeout.
func (c *client) endAttempt(f *flight) {
	f.ended = true
	if f.stop != nil {
		f.stop()
		f.stop = nil
	}
}

// expire is attempt f's timeout, at model instant deadline: unless it
// ended before, the dispatcher gives up on it (and cancels its request,
// with CancelOnTimeout). A task its tier lost ends lost, as the
// simulator counts it; any other, timed out.
func (c *client) expire(f *flight, deadline float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.ended || c.ctx.Err() != nil { // an interruption cancels the request itself
		return
	}
	if f.why == failNone {
		f.why = failTimeout
	}
	if c.cfg.CancelOnTimeout && f.cancel != nil {
		f.cancel()
	}
	c.attemptFailed(f, deadline)
}

// refused handles a tier's own 503 to attempt f (c.mu held): a full
// queue or a down tier is learned after the answer's way back, the
// task's delay again (or at the timeout, if sooner), as the simulator
// has it; a task lost with its tier only at the timeout (never, without
// one), since a dispatcher in the model cannot observe a failure.
func (c *client) refused(f *flight, o Outcome) {
	f.why = failLost
	if o == Rejected {
		f.why = failDropped
	}
	if o == Lost {
		if c.cfg.TaskTimeout == 0 {
			c.attemptFailed(f, math.Inf(1))
		}
		return
	}
	t := f.reach + (f.reach - f.sent)
	if c.cfg.TaskTimeout > 0 {
		t = min(t, f.sent+c.cfg.TaskTimeout)
	}
	if f.stop != nil {
		f.stop()
	}
	f.stop = c.at(c.start.Add(c.wall(t)), func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !f.ended && c.ctx.Err() == nil {
			c.attemptFailed(f, t)
		}
	})
}

// attemptFailed ends attempt f, whose failure its dispatcher learns of at
// model instant t (+Inf: never; c.mu held): its policy is told then, and
// the task is sent again if it has retries left, else it ends as f.why
// says.
func (c *client) attemptFailed(f *flight, t float64) {
	c.endAttempt(f)
	finite := t < math.Inf(1)
	if finite && c.fb != nil {
		out := dispatch.Failed
		if c.cfg.TaskTimeout > 0 && t >= f.sent+c.cfg.TaskTimeout {
			out = dispatch.TimedOut
		}
		c.done = dispatch.Completion{Task: f.id, Tier: f.tier, Now: t, Latency: t - f.sent, Delay: f.reach - f.sent, Outcome: out}
		c.fb.Done(&c.done)
	}
	if finite && f.tries < c.cfg.Retries && c.ctx.Err() == nil {
		if f.tries == 0 && f.measured {
			c.res.Out.Retried++
		}
		c.resend(f, t)
		return
	}
	if f.measured {
		c.res.ended(f.why)
	}
}

// resend asks the policy again at model instant t, with the tier that
// failed left out (dispatch.Unavailable, View.Retry, an oracle that
// completes nothing there), and sends the task where it says; the task
// keeps its arrival, size, class and delays (c.mu held). A policy that
// chooses the failed tier anyway gets the next one in index order, as in
// the simulator.
func (c *client) resend(f *flight, t float64) {
	nf := &flight{id: f.id, size: f.size, class: f.class, data: f.data, arrival: f.arrival, sent: t, due: f.due,
		measured: f.measured, tries: f.tries + 1, delays: f.delays}
	failed, n := f.tier, len(c.cfg.Tiers)
	dec := c.decideLeftOut(nf, failed)
	i := dec.Tier
	if i < 0 || i >= n {
		if c.err == nil {
			c.err = fmt.Errorf("policy chose tier %d, but there are %d tiers", i, n)
		}
		if f.measured {
			c.res.ended(f.why)
		}
		return
	}
	if i == failed && n > 1 {
		i = (i + 1) % n
		// The policy's prediction was for the tier that failed: it says
		// nothing of this one, so it is not scored (mape).
		dec.HasPred = false
		if c.fb != nil { // its counts follow the task
			c.moved = dispatch.Completion{Task: f.id, Tier: i, Now: t, From: failed, Outcome: dispatch.Moved}
			c.fb.Done(&c.moved)
		}
	}
	nf.dec = dec
	c.res.unplace(f)
	c.launch(nf, i, nf.delays[i])
}

// decideLeftOut asks the policy where retry nf goes, with tier failed
// left out of the view, which is put back as it was after (c.mu held).
func (c *client) decideLeftOut(nf *flight, failed int) dispatch.Decision {
	c.fillView(nf.id, nf.sent, nf.data)
	saved, orc := c.view.States[failed], c.view.Oracle
	c.view.States[failed] = dispatch.Unavailable(saved, c.cfg.Tiers[failed].Servers)
	c.retry = dispatch.Retry{Failed: failed, Attempt: nf.tries}
	c.view.Retry = &c.retry
	if c.orc != nil {
		c.orc.set(nf.sent, nf.size, nf.delays)
		c.view.Oracle = leftOut{c.orc, failed}
	}
	dec := c.cfg.Policy.Decide(&c.view)
	c.view.Retry, c.view.Oracle, c.view.States[failed] = nil, orc, saved
	return dec
}

// leftOut is a retry's oracle: the shadow's, but the failed tier
// completes nothing.
type leftOut struct {
	*shadow
	failed int
}

// Completion implements dispatch.Oracle.
func (l leftOut) Completion(i int) float64 {
	if i == l.failed {
		return math.Inf(1)
	}
	return l.shadow.Completion(i)
}
