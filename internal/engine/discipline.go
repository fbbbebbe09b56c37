package engine

import (
	"fmt"
	"math"
)

// Discipline is the order a tier serves its tasks in (docs/model.md).
type Discipline uint8

const (
	// FCFS serves tasks in the order they reach the tier: a task's start
	// and finish are known when it reaches it (the workload vector).
	FCFS Discipline = iota
	// PS shares the tier's c servers among the n tasks present: each runs
	// at min(1, c/n) times a server's speed.
	PS
	// SRPT serves the (at most c) tasks with the least remaining work,
	// preempting a task in service when one with less arrives.
	SRPT
	// Priority serves the tasks by their class's priority, the lower
	// first, FCFS within a class; without preemption unless the tier is
	// Preemptive (preempt-resume).
	Priority
)

// String is the discipline's scenario spelling.
func (d Discipline) String() string {
	switch d {
	case FCFS:
		return "fcfs"
	case PS:
		return "ps"
	case SRPT:
		return "srpt"
	case Priority:
		return "priority"
	}
	return fmt.Sprintf("discipline(%d)", uint8(d))
}

// evDepart is a departure from an event-driven tier (PS, SRPT), whose
// tasks' finishes depend on the tasks that reach it later: its slot field
// holds the tier's generation when it was pushed, and a departure pushed
// before the tier last changed is stale and ignored.
const evDepart eventKind = 1 << 5

func (c *Config) validateDisciplines() []error {
	var errs []error
	for i := range c.Tiers {
		t := &c.Tiers[i]
		if t.Buffer != 0 && t.Buffer < t.Servers {
			errs = append(errs, fmt.Errorf("tier %d (%s): buffer %d: need 0 (no limit) or ≥ servers (%d)", i, t.Name, t.Buffer, t.Servers))
		}
		switch t.Discipline {
		case FCFS:
		case PS, SRPT, Priority:
			if t.Capacity.Dynamic() {
				errs = append(errs, fmt.Errorf("tier %d (%s): discipline %s with episodes, slow-downs or failures: only fcfs tiers take them", i, t.Name, t.Discipline))
			}
		default:
			errs = append(errs, fmt.Errorf("tier %d (%s): %v: need fcfs, ps, srpt or priority", i, t.Name, t.Discipline))
		}
		if t.Preemptive && t.Discipline != Priority {
			errs = append(errs, fmt.Errorf("tier %d (%s): preemptive with discipline %s: only priority takes it", i, t.Name, t.Discipline))
		}
	}
	if c.Timeout > 0 && c.eventDriven() {
		errs = append(errs, fmt.Errorf("timeout %v with a ps, srpt or priority tier: only fcfs tiers take timeouts", c.Timeout))
	}
	return errs
}

// eventDriven reports whether a tier of c has a discipline whose
// departures are events.
func (c *Config) eventDriven() bool {
	for i := range c.Tiers {
		if c.Tiers[i].Discipline != FCFS {
			return true
		}
	}
	return false
}

// setDiscipline gives physical tier ts its scenario tier t's buffer and,
// for PS or SRPT, the state of an event-driven tier. Such a tier keeps a
// +Inf in its heap of finishes per task present (kw false): its count is
// then read as any heap tier's (present, Delayed's history, the tracked
// views), and drain never takes one off; its departures do (leave).
//
// In a run where tasks may run out of patience, an FCFS tier keeps its
// finishes too (kw false): a task that abandons leaves at its own instant,
// out of the order of the starts the workload vector's count reads.
func (ts *tierState) setDiscipline(cfg *Config, t *TierConfig) {
	ts.buffer = t.Buffer
	if cfg.patient() {
		ts.kw = false
	}
	if t.Discipline == FCFS {
		return
	}
	ts.kw = false
	ts.ev = &evTier{disc: t.Discipline, preempt: t.Discipline == SRPT || t.Preemptive, servers: t.Servers, speed: t.Speed}
	if t.Discipline == Priority {
		for _, k := range cfg.Classes {
			ts.ev.prio = append(ts.ev.prio, float64(k.Priority))
		}
		if ts.ev.prio == nil {
			ts.ev.prio = []float64{0}
		}
	}
}

// reachSlow is reach for a run that keeps the outcome account
// (Config.Dynamic): a full buffer drops the task, an event-driven tier
// takes it in, an FCFS tier serves it under its capacity over time.
func (s *sim) reachSlow(slot int32) {
	x := &s.slots[slot]
	ts := &s.tiers[x.tier]
	if ts.buffer > 0 && s.full(ts, x.reach) {
		s.drop(slot)
		return
	}
	if ts.ev != nil {
		s.reachEvent(slot, ts)
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
	if tl := ts.tl; tl != nil {
		tl.settle(t)
		if tl.down(t) {
			return false
		}
	}
	return s.present(ts, t) >= ts.buffer
}

// drop ends the attempt of the task in slot, which found its tier full:
// the refusal travels back over the link (or the timeout comes first),
// and the task is sent again if it has retries left, else dropped.
func (s *sim) drop(slot int32) {
	x := &s.slots[slot]
	d := s.dyn
	a := &d.side[slot]
	if int(a.tries) < d.retries {
		// attemptFailed sends it again: what it would count, were none
		// left, is never reached.
		s.attemptFailed(slot, min(x.reach+x.delay, a.sent+d.timeout), failLost)
		return
	}
	if x.measured {
		s.pending--
		s.res.Out.Dropped++
	}
	s.freeSlots = append(s.freeSlots, slot)
}

// evTier is an event-driven tier's state. PS keeps its tasks in one heap
// by virtual finish: every task present is served at the same rate, so a
// task's virtual finish, the virtual time at its reach plus its size, does
// not change, and tasks leave in its order. SRPT and Priority keep the
// tasks in service apart (at most servers of them, each running at the
// tier's speed) and those that wait in a heap by key: the remaining work
// (SRPT), which only changes in service, or the class's priority
// (Priority), ties to the earlier reach. With preemption a task that
// reaches the tier with a key below the worst in service takes its
// server, and that one waits with its remaining work.
type evTier struct {
	disc    Discipline
	preempt bool
	prio    []float64 // Priority: each class's priority
	servers int
	speed   float64
	gen     int32   // bumped at each change; a departure of another generation is stale
	last    float64 // the time of the last change
	v       float64 // PS: virtual time, the work each task present has received since 0
	seq     uint64  // the reaches so far: ties in the heaps go to the earlier
	wait    evHeap  // PS: every task; SRPT: the tasks that wait
	serving []evTask
}

// evTask is a task present at an event-driven tier: its slot, its key
// (PS: virtual finish; SRPT: remaining work; Priority: its class's
// priority) and its remaining work (SRPT and Priority), as of the tier's
// last change while in service.
type evTask struct {
	key  float64
	rem  float64
	seq  uint64
	slot int32
}

func (a *evTask) before(b *evTask) bool { return a.key < b.key || a.key == b.key && a.seq < b.seq }

// evHeap is a binary min-heap of tasks by (key, seq).
type evHeap []evTask

func (h *evHeap) push(t evTask) {
	*h = append(*h, t)
	d := *h
	i := len(d) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !t.before(&d[p]) {
			break
		}
		d[i] = d[p]
		i = p
	}
	d[i] = t
}

func (h *evHeap) pop() evTask {
	d := *h
	top := d[0]
	n := len(d) - 1
	x := d[n]
	d = d[:n]
	*h = d
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && d[r].before(&d[l]) {
			m = r
		}
		if !d[m].before(&x) {
			break
		}
		d[i] = d[m]
		i = m
	}
	if n > 0 {
		d[i] = x
	}
	return top
}

// rate is the work per second each task present at a PS tier receives.
func (e *evTier) rate() float64 {
	n := len(e.wait)
	if n <= e.servers {
		return e.speed
	}
	return e.speed * float64(e.servers) / float64(n)
}

// advance brings the tier's service up to t.
func (e *evTier) advance(t float64) {
	dt := t - e.last
	e.last = t
	if dt <= 0 {
		return
	}
	if e.disc == PS {
		if len(e.wait) > 0 {
			e.v += dt * e.rate()
		}
		return
	}
	w := dt * e.speed
	for i := range e.serving {
		t := &e.serving[i]
		t.rem = max(0, t.rem-w)
		if e.disc == SRPT {
			t.key = t.rem
		}
	}
}

// next is the tier's next departure and, for SRPT, the index in serving
// of the task that leaves then; +Inf when it is empty.
func (e *evTier) next() (float64, int) {
	if e.disc == PS {
		if len(e.wait) == 0 {
			return math.Inf(1), -1
		}
		return e.last + (e.wait[0].key-e.v)/e.rate(), 0
	}
	best := -1
	for i := range e.serving {
		if best < 0 || e.serving[i].rem < e.serving[best].rem {
			best = i
		}
	}
	if best < 0 {
		return math.Inf(1), -1
	}
	return e.last + e.serving[best].rem/e.speed, best
}

// add takes in the task in slot, of this size and class, at the tier's
// last change.
func (e *evTier) add(slot int32, size float64, class int32) {
	e.seq++
	if e.disc == PS {
		e.wait.push(evTask{key: e.v + size, seq: e.seq, slot: slot})
		return
	}
	t := evTask{key: size, rem: size, seq: e.seq, slot: slot}
	if e.disc == Priority {
		t.key = e.prio[class]
	}
	if len(e.serving) < e.servers {
		e.serving = append(e.serving, t)
		return
	}
	if !e.preempt {
		e.wait.push(t)
		return
	}
	worst := 0 // the task in service with the most remaining work: preempted if the new one has less
	for i := 1; i < len(e.serving); i++ {
		if e.serving[worst].before(&e.serving[i]) {
			worst = i
		}
	}
	if t.before(&e.serving[worst]) {
		t, e.serving[worst] = e.serving[worst], t
	}
	e.wait.push(t)
}

// remove takes off the task that leaves now (i: its index in serving,
// SRPT) and returns its slot.
func (e *evTier) remove(i int) int32 {
	if e.disc == PS {
		t := e.wait.pop()
		e.v = max(e.v, t.key) // its virtual finish is now, exactly
		return t.slot
	}
	slot := e.serving[i].slot
	last := len(e.serving) - 1
	e.serving[i] = e.serving[last]
	e.serving = e.serving[:last]
	if len(e.wait) > 0 {
		e.serving = append(e.serving, e.wait.pop())
	}
	return slot
}

// schedule pushes the tier's next departure, as of its new generation.
func (s *sim) schedule(p int32, e *evTier) {
	e.gen++
	if t, _ := e.next(); t < math.Inf(1) {
		s.events.push(t, e.gen, p, evDepart)
	}
}

// reachEvent takes the task in slot into event-driven tier ts at its
// reach. Its slot stays taken until it leaves (leave).
func (s *sim) reachEvent(slot int32, ts *tierState) {
	x := &s.slots[slot]
	e := ts.ev
	e.advance(x.reach)
	e.add(slot, x.size, x.class)
	s.keep(ts, x.reach, math.Inf(1))
	if s.track {
		s.touched(int(x.tier), ts)
	}
	if s.measuring && x.reach >= s.t0 {
		ts.reached++
	}
	s.schedule(x.tier, e)
}

// leave is a departure event of tier e.tier: the task due leaves, if the
// event is current, and the next departure is scheduled.
func (s *sim) leave(ev *event) {
	p := ev.tier
	ts := &s.tiers[p]
	e := ts.ev
	if ev.slot != e.gen {
		return
	}
	e.advance(ev.t)
	_, i := e.next()
	slot := e.remove(i)
	ts.fin.pop()
	if s.delayed {
		s.remember(ts, ev.t)
	}
	if s.track {
		s.touched(int(p), ts)
	}
	s.schedule(p, e)

	x := &s.slots[slot]
	service := x.size / ts.speed
	latency := ev.t - x.arrival
	wait := max(0, ev.t-x.reach-service) // the time it spent beyond its own service
	if s.measuring && x.reach >= s.t0 {
		ts.sojourn += ev.t - x.reach
	}
	if x.measured {
		s.pending--
		s.res.Out.Completed++
		s.res.record(s.cfg, ts.scen, x, wait, latency)
		if s.nShadows > 0 {
			s.res.recordShadows(s.cfg, ts.scen, x, wait, latency, s.shPred[int(slot)*s.nShadows:][:s.nShadows])
		}
	}
	if s.listen {
		attempt := latency // the attempt's own time, from its last send
		if s.dyn != nil && int(slot) < len(s.dyn.side) && s.dyn.side[slot].tries > 0 {
			attempt = ev.t - s.dyn.side[slot].sent
		}
		s.tell(x, ts.scen, wait, service, latency, attempt)
	}
	s.freeSlots = append(s.freeSlots, slot)
}

// ParseDiscipline reads a discipline's scenario spelling; "" is FCFS.
func ParseDiscipline(s string) (Discipline, error) {
	for _, d := range []Discipline{FCFS, PS, SRPT, Priority} {
		if s == d.String() {
			return d, nil
		}
	}
	if s == "" {
		return FCFS, nil
	}
	return FCFS, fmt.Errorf("discipline %q: need fcfs, ps, srpt or priority", s)
}
