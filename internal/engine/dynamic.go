package engine

import (
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/capacity"
	"github.com/offload-sim/offload/internal/discipline"
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// evRetry is a task sent again, at the instant its dispatcher learns that
// its attempt failed (a timeout, an error from a down tier).
const evRetry eventKind = 1 << 6

// evExpire is the timeout of an attempt whose task is still in transit at
// its deadline (its delay outlived the timeout): pushed at the send, only
// then (expire).
const evExpire eventKind = 1 << 4

// dynamics is the state of a run that uses capacities, timeouts or
// retries (Config.Dynamic); nil otherwise, so that a run without them
// pays one untaken branch per task for them.
type dynamics struct {
	timeout float64 // +Inf: none
	retries int
	cancel  bool
	side    []attempt // per slot
	retry   dispatch.Retry
	out     dispatch.LeftOut
	err     error // a retry's policy chose a tier that does not exist
}

// attempt is what a dynamic run keeps of the task in a slot beyond its
// transit: its current attempt's send, its tries, and whether the slot is
// an orphan: an attempt that timed out in transit and whose task, moved
// to a slot of its own, has been told of it (expire). The orphan's slot
// is kept until it reaches its tier, where only its work may join.
type attempt struct {
	sent   float64
	seq    int
	tries  int32
	orphan bool
}

// The ways an attempt ends that is not a completion.
type failure uint8

const (
	failLost    failure = iota // its tier failed with it present, or refused it
	failTimeout                // it outlived the timeout
)

// Dynamic reports whether the run uses capacities that change, timeouts,
// retries, finite buffers or a discipline other than FCFS: only then does
// it keep the outcome account, and take reach's slower path.
func (c *Config) Dynamic() bool {
	if c.Timeout > 0 || c.Retries > 0 || len(c.Classes) > 0 || c.Patience.Mean() > 0 {
		return true
	}
	for i := range c.Tiers {
		if t := &c.Tiers[i]; t.Capacity.Dynamic() || t.Buffer > 0 || t.Discipline != discipline.FCFS {
			return true
		}
	}
	return false
}

func (c *Config) validateDynamic() []error {
	var errs []error
	if !(c.Timeout >= 0) {
		errs = append(errs, fmt.Errorf("timeout %v: need ≥ 0 (0: none)", c.Timeout))
	}
	if c.Retries < 0 {
		errs = append(errs, fmt.Errorf("retries %d: need ≥ 0", c.Retries))
	}
	caps := make([]*capacity.Capacity, len(c.Tiers))
	for i := range c.Tiers {
		caps[i] = &c.Tiers[i].Capacity
	}
	errs = append(errs, capacity.Check(caps)...)
	return errs
}

// initDynamics sets up a dynamic run: each physical tier's timeline, the
// dispatchers' timeout and retries.
func (s *sim) initDynamics() {
	cfg := s.cfg
	if !cfg.Dynamic() {
		return
	}
	d := &dynamics{timeout: math.Inf(1), retries: cfg.Retries, cancel: cfg.CancelOnTimeout}
	if cfg.Timeout > 0 {
		d.timeout = cfg.Timeout
	}
	s.dyn = d
	for p := range s.tiers {
		ts := &s.tiers[p]
		if c := &cfg.Tiers[ts.scen].Capacity; c.Dynamic() {
			ts.tl = capacity.New(c, cfg.EpisodeSeed, p)
			if ts.ev != nil {
				ts.ev.Follow(ts.tl)
			}
		}
	}
}

// sent notes the first attempt of the task in slot, sent at t.
func (s *sim) sent(slot int32, t float64, seq int, measured bool) {
	d := s.dyn
	for int(slot) >= len(d.side) {
		d.side = append(d.side, attempt{})
	}
	d.side[slot] = attempt{sent: t, seq: seq}
	if measured {
		s.res.Out.Arrived++
	}
	s.expiresInTransit(slot, t)
}

// expiresInTransit schedules the timeout of the attempt in slot, sent at
// t, if it fires no later than the task reaches its tier: the
// dispatcher's timer runs from the send, whatever the delay, and at a tie
// the deadline comes first, as it does at a tier (where an FCFS task
// reaching at its deadline cannot start before it, and an event-driven
// tier's deadline timer is set before the task's other happenings). Pushed
// at the send, before a held reach is placed: it comes before that reach
// (earlier, or at the same instant and pushed first), which is therefore
// pushed, in the order it would have been anyway.
func (s *sim) expiresInTransit(slot int32, t float64) {
	x := &s.slots[slot]
	if deadline := t + s.dyn.timeout; deadline <= x.reach {
		s.events.Push(deadline, slot, x.tier, evExpire)
	}
}

// expire is the timeout of an attempt while its task is in transit: the
// dispatcher learns of it now, at its deadline, and sends the task again
// now if it has retries left (attemptFailed). The task moves to a new
// slot, so that its retry can go out while its timed-out attempt travels
// on in the old one, an orphan: with cancel_on_timeout it never joins the
// tier; without, it joins it at its reach as any task would, and its
// service is wasted (orphanEnds).
func (s *sim) expire(e *event) {
	old := e.Slot
	slot := s.newSlot() // first: it may move the slots
	s.slots[slot] = s.slots[old]
	n := s.nShadows
	copy(s.shPred[int(slot)*n:][:n], s.shPred[int(old)*n:][:n])
	d := s.dyn
	for int(slot) >= len(d.side) {
		d.side = append(d.side, attempt{})
	}
	d.side[slot] = d.side[old]
	d.side[old].orphan = true
	s.attemptFailed(slot, e.T, failTimeout)
}

// orphanEnds frees the slot of an orphan (expire) wherever its attempt
// ends at its tier (refused, dropped, lost, timed out, abandoned) and
// reports whether it was one: its end was told and counted at its
// timeout. A cancelled orphan ends as it reaches the tier (reachSlow).
func (s *sim) orphanEnds(slot int32) bool {
	a := &s.dyn.side[slot]
	if !a.orphan {
		return false
	}
	a.orphan = false
	s.freeSlots = append(s.freeSlots, slot)
	return true
}

// reachDynamic is reach for a dynamic run: the tier may be down (the task
// is refused), slower or faster than its speed, may fail with the task
// present (lost), and the task may outlive its timeout.
func (s *sim) reachDynamic(slot int32) {
	x := &s.slots[slot]
	d := s.dyn
	a := &d.side[slot]
	p := int(x.tier)
	ts := &s.tiers[p]
	if !ts.kw {
		s.drain(ts, x.reach)
	}
	deadline := a.sent + d.timeout
	if ts.tl.DownAt(x.reach) { // refused: the error travels back over the same link
		s.attemptFailed(slot, min(x.reach+x.delay, deadline), failLost)
		return
	}
	service := x.size / ts.speed
	start := max(x.reach, ts.free.Free())
	finish, lost := start+service, false
	if tl := ts.tl; tl != nil {
		finish, lost = tl.Finish(start, service)
	}
	// leave: when the task leaves the tier (its finish, the failure that
	// loses it, the cancel that removes it); held: it took a server or a
	// place in the queue at all.
	leave, held := finish, true
	timedOut := !lost && finish > deadline
	if timedOut && d.cancel {
		leave = deadline
		held = start < deadline // else removed from the queue before it started
	}
	if held {
		s.hold(p, ts, x.reach, start, leave)
	}
	switch {
	case lost:
		s.res.Out.Wasted += leave - start
		s.attemptFailed(slot, deadline, failLost)
		return
	case timedOut:
		if held {
			s.res.Out.Wasted += leave - start
		}
		s.attemptFailed(slot, deadline, failTimeout)
		return
	}
	s.completed(slot, ts.scen, start-x.reach, finish-start, finish)
}

// completed ends the task in slot, done at scenario tier scen at t after
// this wait and service, and tells its listeners.
func (s *sim) completed(slot int32, scen int, wait, service, t float64) {
	x := &s.slots[slot]
	latency := t - x.arrival
	if x.measured {
		s.pending--
		s.res.Out.Completed++
		s.res.Record(scen, x.class, x.size, x.data, x.reply, x.hasPred, x.predWait, wait, latency)
		if s.nShadows > 0 {
			s.res.RecordShadows(scen, x.idle, wait, latency, s.shPred[int(slot)*s.nShadows:][:s.nShadows])
		}
	}
	if s.listen {
		attempt := latency // the attempt's own time, from its last send
		if a := &s.dyn.side[slot]; a.tries > 0 {
			attempt = t - a.sent
		}
		s.tell(x, scen, wait, service, latency, attempt)
	}
	s.freeSlots = append(s.freeSlots, slot)
}

// hold takes a server of tier p from start until leave for a task that
// reached it at reach, and counts it as reach would: the workload vector
// and the tier's count, the tracked view, the measured sojourn.
func (s *sim) hold(p int, ts *tierState, reach, start, leave float64) {
	ts.free.Take(leave)
	if ts.kw {
		ts.n++
		if start > reach {
			ts.waits.Queued(reach)
			ts.waits.Add(start)
		} else {
			ts.until = min(ts.until, leave)
		}
		ts.last = max(ts.last, leave)
	} else {
		s.keep(ts, reach, leave)
	}
	if s.track {
		s.touched(p, ts)
	}
	if s.measuring && reach >= s.t0 {
		ts.reached++
		ts.sojourn += leave - reach
	}
}

// attemptFailed ends the attempt of the task in slot, which its
// dispatcher learns of at t (+Inf: never): the task is sent again then if
// it has retries left, else it ends as why says.
func (s *sim) attemptFailed(slot int32, t float64, why failure) {
	if s.orphanEnds(slot) {
		return
	}
	x := &s.slots[slot]
	a := &s.dyn.side[slot]
	s.tellFailed(x, a, t)
	if t < math.Inf(1) && int(a.tries) < s.dyn.retries {
		if a.tries == 0 && x.measured {
			s.res.Out.Retried++
		}
		s.events.Push(t, slot, x.tier, evRetry)
		return
	}
	n := &s.res.Out.Lost
	if why == failTimeout {
		n = &s.res.Out.TimedOut
	}
	s.end(slot, n)
}

// end frees the slot of a task that ends without completing, counted in
// n if it is measured.
func (s *sim) end(slot int32, n *int) {
	if s.orphanEnds(slot) {
		return
	}
	if s.slots[slot].measured {
		s.pending--
		*n++
	}
	s.freeSlots = append(s.freeSlots, slot)
}

// tellFailed tells the policy of task x, if it learns from outcomes, that
// its attempt a failed, at t, when its dispatcher learns of it (+Inf:
// never), before any retry of it: an error before the timeout is the
// refusal's, anything later the timeout.
func (s *sim) tellFailed(x *transit, a *attempt, t float64) {
	if t < math.Inf(1) && s.devs[x.dev].feedback != nil {
		out := dispatch.Failed
		if t >= a.sent+s.dyn.timeout {
			out = dispatch.TimedOut
		}
		s.scheduleEnd(x.dev, dispatch.Completion{Task: x.id, Tier: int(x.vtier), Now: t, Latency: t - a.sent,
			Delay: x.delay, Outcome: out})
	}
}

// retry asks the task's policy again, at the event's instant, with the
// tier that failed left out, and sends the task where it says. The task
// keeps its arrival (its latency counts from there) and its size.
func (s *sim) retry(e *event) {
	if err := s.resend(e); err != nil && s.dyn.err == nil {
		s.dyn.err = err
	}
}

func (s *sim) resend(e *event) error {
	slot := e.Slot
	x := &s.slots[slot]
	a := &s.dyn.side[slot]
	dv := &s.devs[x.dev]
	t := e.T
	s.cur = dv
	s.now, dv.view.Now, dv.view.Task = t, t, x.id
	s.task = workload.Task{Arrival: x.arrival, Size: x.size, Data: x.data, Reply: x.reply, Seq: a.seq}
	dv.view.Data = x.data
	s.prepare(dv, t)
	a.tries++
	failed := int(x.vtier)
	s.dyn.retry = dispatch.Retry{Failed: failed, Attempt: int(a.tries)}
	dec := s.decideLeftOut(dv, failed)
	i := dec.Tier
	if uint(i) >= uint(len(dv.phys)) {
		s.attemptFailed(slot, math.Inf(1), failLost)
		return fmt.Errorf("policy chose tier %d, but there are %d tiers", i, len(s.cfg.Tiers))
	}
	moved := i == failed && len(dv.phys) > 1
	if moved {
		i = (i + 1) % len(dv.phys)
		if fb := dv.feedback; fb != nil { // its counts follow the task
			c := &s.fb.moved
			*c = dispatch.Completion{Task: x.id, Tier: i, Now: t, From: failed, Outcome: dispatch.Moved}
			fb.Done(c)
		}
	}
	p := dv.phys[i]
	a.sent = t
	x.delay = dv.src.Delay(&s.task, i)
	x.reach = t + x.delay
	x.tier, x.vtier = int32(p), int32(i)
	s.expiresInTransit(slot, t)
	// A moved task's prediction was for the tier that failed: it says
	// nothing of this one, so it is not scored (mape).
	x.hasPred, x.predWait = dec.HasPred && !moved, dec.PredWait
	if x.measured && len(dv.shadows) > 0 {
		s.predictShadows(dv, slot, i)
	}
	for _, o := range dv.observers {
		o.Dispatched(t, i)
	}
	if !s.fresh {
		s.sentOwn(dv, i, p, t)
	}
	switch {
	case x.delay <= 0:
		s.reach(slot)
	case s.oracle:
		s.sendOracle(dv, slot, i, p)
	default:
		dv.view.States[i].InTransit++
		if s.follows {
			s.pended(dv, int32(i))
		}
		s.events.Push(x.reach, slot, int32(p), evReach)
	}
	return nil
}

// decideLeftOut asks device dv's policy for a retry with view tier failed
// left out: the view shows it unavailable (dispatch.Unavailable), to a
// policy reading the counts, the reader of a sampler or the oracle of a
// clairvoyant policy alike, so that every rule on what the view shows
// passes it over by itself, with no code of the policy's own. The view is
// put back as it was after the decision, and the tier listed as changed
// at the device's next decision, so that a policy keeping keys per tier
// (View.Changed) reads it again. Nothing is allocated: the left-out face
// is the run's, set for the decision.
func (s *sim) decideLeftOut(dv *device, failed int) dispatch.Decision {
	v := &dv.view
	d := s.dyn
	saved := v.States[failed]
	v.States[failed] = dispatch.Unavailable(saved, v.Tiers[failed].Servers)
	if dv.tracks {
		s.mark(dv, failed)
	}
	reader, orc := v.Reader, v.Oracle
	d.out = dispatch.LeftOut{Failed: failed, Servers: v.Tiers[failed].Servers, Reader: reader, Oracle: orc}
	if reader != nil {
		v.Reader = &d.out
	}
	if orc != nil {
		v.Oracle = &d.out
	}
	v.Retry = &d.retry
	dec := dv.pol.Decide(v)
	v.Retry, v.Reader, v.Oracle = nil, reader, orc
	v.States[failed] = saved
	if dv.tracks {
		s.pended(dv, int32(failed))
	}
	return dec
}
