package engine

import (
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/discipline"
)

// evDepart is a departure from an event-driven tier (PS, SRPT, priority),
// whose tasks' finishes depend on the tasks that reach it later: its slot
// field holds the tier's generation when it was pushed (Tier.Reschedule),
// and a departure pushed before the tier last changed is stale and ignored.
const evDepart eventKind = 1 << 5

func (c *Config) validateDisciplines() []error {
	var errs []error
	for i := range c.Tiers {
		t := &c.Tiers[i]
		for _, err := range discipline.Check(t.Discipline, t.Preemptive, t.Buffer, t.Servers) {
			errs = append(errs, fmt.Errorf("tier %d (%s): %w", i, t.Name, err))
		}
	}
	return errs
}

// EventDriven reports whether a tier of c has a discipline whose
// departures are events (PS, SRPT, priority).
func (c *Config) EventDriven() bool {
	for i := range c.Tiers {
		if c.Tiers[i].Discipline != discipline.FCFS {
			return true
		}
	}
	return false
}

// setDiscipline gives physical tier ts its scenario tier t's buffer and,
// for PS, SRPT or priority, the state of an event-driven tier. Such a tier
// keeps a +Inf in its heap of finishes per task present (kw false): its
// count is then read as any heap tier's (present, Delayed's history, the
// tracked views), and drain never takes one off; its departures do (leave).
//
// In a run where tasks may run out of patience, an FCFS tier keeps its
// finishes too (kw false): a task that abandons leaves at its own instant,
// out of the order of the starts the workload vector's count reads.
func (ts *tierState) setDiscipline(cfg *Config, t *TierConfig) {
	ts.buffer = t.Buffer
	if cfg.patient() {
		ts.kw = false
	}
	if t.Discipline == discipline.FCFS {
		return
	}
	ts.kw = false
	var prio []float64
	for _, k := range cfg.Classes {
		prio = append(prio, float64(k.Priority))
	}
	ts.ev = discipline.New(t.Discipline, t.Servers, t.Speed, t.Preemptive, cfg.CancelOnTimeout, prio)
}

// reachSlow is reach for a run that keeps the outcome account
// (Config.Dynamic): a full buffer drops the task, an event-driven tier
// takes it in, an FCFS tier serves it under its capacity over time.
func (s *sim) reachSlow(slot int32) {
	if s.dyn.cancel && s.orphanEnds(slot) { // cancelled in transit (expire)
		return
	}
	x := &s.slots[slot]
	ts := &s.tiers[x.tier]
	if ts.ev != nil {
		s.reachEvent(slot, ts)
		return
	}
	if ts.buffer > 0 && s.full(ts, x.reach) {
		s.drop(slot)
		return
	}
	if s.patient && s.abandons(slot, ts) {
		return
	}
	s.reachDynamic(slot)
}

// full reports whether tier ts holds its buffer's worth of tasks at t. A
// tier down at t is not full: it refuses the task as down (reachDynamic).
func (s *sim) full(ts *tierState, t float64) bool {
	return !ts.tl.DownAt(t) && s.present(ts, t) >= ts.buffer
}

// drop ends the attempt of the task in slot, which found its tier full:
// the refusal travels back over the link (or the timeout comes first),
// and the task is sent again if it has retries left, else dropped.
func (s *sim) drop(slot int32) {
	if s.orphanEnds(slot) {
		return
	}
	x := &s.slots[slot]
	d := s.dyn
	a := &d.side[slot]
	if int(a.tries) < d.retries {
		// attemptFailed sends it again: what it would count, were none
		// left, is never reached.
		s.attemptFailed(slot, min(x.reach+x.delay, a.sent+d.timeout), failLost)
		return
	}
	// The refusal still reaches the dispatcher (or its timeout comes
	// first), so a policy that counts its outstanding attempts is told.
	s.tellFailed(x, a, min(x.reach+x.delay, a.sent+d.timeout))
	s.end(slot, &s.res.Out.Dropped)
}

// schedule pushes the tier's next departure, as of its new generation.
func (s *sim) schedule(p int32, e *discipline.Tier) {
	if t, gen := e.Reschedule(); t < math.Inf(1) {
		s.events.Push(t, gen, p, evDepart)
	}
}

// reachEvent takes the task in slot into event-driven tier ts at its
// reach, with its deadline and patience, unless the tier is full or down.
// Its slot stays taken until it leaves (leave).
func (s *sim) reachEvent(slot int32, ts *tierState) {
	x := &s.slots[slot]
	e := ts.ev
	e.Advance(x.reach) // first: a read of its timeline settles it at the reach
	if ts.buffer > 0 && s.full(ts, x.reach) {
		s.drop(slot)
		return
	}
	a := &s.dyn.side[slot]
	deadline := a.sent + s.dyn.timeout
	if ts.tl.DownAt(x.reach) { // refused, as in reachDynamic
		s.attemptFailed(slot, min(x.reach+x.delay, deadline), failLost)
		return
	}
	e.Add(slot, x.size, x.class)
	e.SetTimer(slot, deadline, discipline.Deadline)
	if law := s.cfg.patienceLaw(x.class); law != nil {
		e.SetTimer(slot, x.reach+s.devs[x.dev].src.Patience(a.seq, law), discipline.Patience)
	}
	s.keep(ts, x.reach, math.Inf(1))
	if s.track {
		s.touched(int(x.tier), ts)
	}
	if s.measuring && x.reach >= s.t0 {
		ts.reached++
	}
	s.schedule(x.tier, e)
}

// leave is an event of tier ev.Tier, if current: what is due there
// happens (discipline.Tier.Fire), and its next event is scheduled. A task
// that leaves other than done, or one detached at its deadline that now
// leaves, wasted the server time it held.
func (s *sim) leave(ev *event) {
	p := ev.Tier
	ts := &s.tiers[p]
	e := ts.ev
	if !e.Current(ev.Slot) {
		return
	}
	end, ok := e.Fire(ev.T)
	if ok && (end.End != discipline.TimedOut || s.dyn.cancel) { // it left the tier
		ts.fin.Pop()
		if s.delayed {
			s.remember(ts, ev.T)
		}
		if s.track {
			s.touched(int(p), ts)
		}
		if s.measuring && end.Reach >= s.t0 {
			ts.sojourn += ev.T - end.Reach
		}
	}
	s.schedule(p, e)
	if !ok {
		return
	}
	slot := end.ID
	if slot >= 0 && end.End == discipline.Done {
		x := &s.slots[slot]
		service := x.size / ts.speed // its wait: its time at the tier beyond its own service
		s.completed(slot, ts.scen, max(0, ev.T-x.reach-service), service, ev.T)
		return
	}
	s.res.Out.Wasted += end.Served
	switch {
	case slot < 0: // its attempt had timed out: only its work was left
	case end.End == discipline.Lost:
		s.attemptFailed(slot, s.dyn.side[slot].sent+s.dyn.timeout, failLost)
	case end.End == discipline.TimedOut:
		s.attemptFailed(slot, ev.T, failTimeout)
	default: // abandoned, as an FCFS task is (abandons)
		s.abandoned(slot)
	}
}
