package discipline

import "math"

// Tier is an event-driven tier's tasks present, each known by its caller's
// id (the engine's slot). PS keeps them in one heap by virtual finish:
// every task present is served at the same rate, so a task's virtual
// finish, the virtual time at its reach plus its size, does not change,
// and tasks leave in its order. SRPT and Priority keep the tasks in
// service apart (at most servers of them, each running at the tier's
// speed) and those that wait in a heap by key: the remaining work (SRPT),
// which only changes in service, or the class's priority (Priority), ties
// to the earlier reach. With preemption a task that reaches the tier with
// a key below the worst in service takes its server, and that one waits
// with its remaining work.
//
// A tier may follow a capacity over time (Follow): its speed is then
// multiplied by the capacity's rate, a change of which changes every
// served task's drain rate at once (PS's virtual time, the remaining work
// in service), and a down span loses every task present. A task may have
// timers (SetTimer): its deadline, at which it leaves if the tier cancels
// (else it runs on, detached from its id), and its patience, at which it
// leaves if it has not started.
//
// Its caller advances it to each change's instant (Advance), then adds a
// task (Add), and schedules the tier's next happening again (Reschedule);
// at that happening's instant it makes it happen (Fire), and schedules
// again. Times never go backwards. The zero value is not usable; call New.
type Tier struct {
	disc    Discipline
	preempt bool
	cancel  bool      // a task whose deadline passes leaves; else it runs on, detached
	prio    []float64 // Priority: each class's priority
	servers int
	speed   float64
	cap     Capacity // nil: the tier's speed, always
	last    float64  // the time of the last change
	v       float64  // PS: virtual time, the work each task present has received since 0
	u       float64  // PS: the server time each task present has held since 0, kept once held
	held    bool     // a task's server time may be asked for: the tier follows a capacity or has set a timer
	seq     uint64   // the reaches so far: ties in the heaps go to the earlier
	gen     int32    // bumped at each Reschedule
	due     happening
	wait    taskHeap
	serving []task
	// timers holds the deadlines and patiences by instant (key), each with
	// its task's seq and id, started marking a patience; live, by id, the
	// seq of the task present under it that has timers (0: none), so that
	// a timer whose task left is known stale at once.
	timers taskHeap
	live   []uint64
}

// Capacity is a tier's speed over time as the tier reads it
// (capacity.Timeline): Work is ∫ rate over [a, b), the work done at speed
// 1 times the rate; Finish when work seconds at speed 1 started at start
// are done, or the instant the tier goes down first (lost). Reads come in
// time order from the tier's last change.
type Capacity interface {
	Work(a, b float64) float64
	Finish(start, work float64) (float64, bool)
}

// End is how a task's stay at an event-driven tier ends (Fire).
type End uint8

const (
	// Done: its work is done; it leaves.
	Done End = iota
	// Lost: the tier went down with it present; it leaves.
	Lost
	// TimedOut: its deadline passed. It leaves if the tier cancels;
	// otherwise it runs on detached: its id is −1 from then on.
	TimedOut
	// Abandoned: its patience ran out before it started; it leaves.
	Abandoned
	expiry // a timer is due (happening)
)

// Timer is the kind of a task's timer (SetTimer).
type Timer uint8

const (
	Deadline Timer = iota // the task times out
	Patience              // the task leaves if it has not started
)

// Ended is a task whose stay at the tier ended (Fire).
type Ended struct {
	ID  int32 // the caller's id, −1 for a task detached at its deadline
	End End
	// Served is the server time it held, s (a share of one under PS); 0
	// for a task detached now, whose server time is told when it leaves.
	Served float64
	Reach  float64 // when it reached the tier
}

// happening is the tier's next event as of its last Reschedule: a
// departure (Done, with the index of the task in service for SRPT and
// Priority), the tier going down (Lost), or a timer (expiry).
type happening struct {
	t    float64
	what End
	i    int
}

// New is an empty tier of discipline d (PS, SRPT or Priority) with this
// many servers of this speed; preemptive makes Priority preempt-resume
// (SRPT always preempts), cancel takes a task off at its deadline, and
// prio holds each class's priority (nil: one class).
func New(d Discipline, servers int, speed float64, preemptive, cancel bool, prio []float64) *Tier {
	e := &Tier{disc: d, preempt: d == SRPT || preemptive, cancel: cancel, servers: servers, speed: speed}
	if d == Priority {
		e.prio = prio
		if e.prio == nil {
			e.prio = []float64{0}
		}
	}
	return e
}

// Follow makes the tier run at its speed times c's rate, from its last
// change on.
func (e *Tier) Follow(c Capacity) { e.cap, e.held = c, true }

// task is a task present at the tier: its id, its key (PS: virtual
// finish; SRPT: remaining work; Priority: its class's priority), its
// remaining work (SRPT and Priority), as of the tier's last change while
// in service, the server time it has held (PS: the tier's u at its
// reach), its reach, and whether it has started.
type task struct {
	key, rem float64
	got, at  float64
	seq      uint64
	id       int32
	started  bool
}

func (a *task) before(b *task) bool { return a.key < b.key || a.key == b.key && a.seq < b.seq }

// taskHeap is a binary min-heap of tasks by (key, seq).
type taskHeap []task

func (h *taskHeap) push(t task) {
	*h = append(*h, t)
	h.up(len(*h)-1, t)
}

// up moves t, at i, towards the root to its place.
func (h taskHeap) up(i int, t task) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = t
}

func (h *taskHeap) pop() task {
	top := (*h)[0]
	h.remove(0)
	return top
}

// remove takes off the task at i.
func (h *taskHeap) remove(i int) task {
	d := *h
	t := d[i]
	n := len(d) - 1
	x := d[n]
	d = d[:n]
	*h = d
	if i == n {
		return t
	}
	if i > 0 && x.before(&d[(i-1)/2]) {
		d.up(i, x)
		return t
	}
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
	d[i] = x
	return t
}

// rate is the work per second each task present at a PS tier receives.
func (e *Tier) rate() float64 {
	n := len(e.wait)
	if n <= e.servers {
		return e.speed
	}
	return e.speed * float64(e.servers) / float64(n)
}

// span is the time [a, b) counts for at the tier's speed: its length,
// times the capacity's rate.
func (e *Tier) span(a, b float64) float64 {
	if e.cap == nil {
		return b - a
	}
	return e.cap.Work(a, b)
}

// Advance brings the tier's service up to t.
func (e *Tier) Advance(t float64) {
	dt := t - e.last
	if dt <= 0 {
		return
	}
	if e.disc == PS {
		if n := len(e.wait); n > 0 {
			e.v += e.span(e.last, t) * e.rate()
			if e.held {
				e.u += dt * min(1, float64(e.servers)/float64(n))
			}
		}
	} else if len(e.serving) > 0 {
		w := e.span(e.last, t) * e.speed
		for i := range e.serving {
			x := &e.serving[i]
			x.rem = max(0, x.rem-w)
			x.got += dt
			if e.disc == SRPT {
				x.key = x.rem
			}
		}
	}
	e.last = t
}

// Add takes in task id, of this size and class, at the tier's last change.
func (e *Tier) Add(id int32, size float64, class int32) {
	e.seq++
	if e.disc == PS {
		e.wait.push(task{key: e.v + size, got: e.u, at: e.last, seq: e.seq, id: id, started: true})
		return
	}
	t := task{key: size, rem: size, at: e.last, seq: e.seq, id: id}
	if e.disc == Priority {
		t.key = e.prio[class]
	}
	if len(e.serving) < e.servers {
		t.started = true
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
		t.started = true
		t, e.serving[worst] = e.serving[worst], t
	}
	e.wait.push(t)
}

// SetTimer sets a timer of kind k at instant at (no earlier than the
// tier's last change; +Inf: none) for the task just added (Add) under
// id. Under PS no task waits, so a patience never runs out: it is not set.
func (e *Tier) SetTimer(id int32, at float64, k Timer) {
	if at < math.Inf(1) && (k == Deadline || e.disc != PS) {
		e.setTimer(id, at, k)
	}
}

func (e *Tier) setTimer(id int32, at float64, k Timer) {
	e.held = true
	for int(id) >= len(e.live) {
		e.live = append(e.live, 0)
	}
	e.live[id] = e.seq
	e.timers.push(task{key: max(at, e.last), seq: e.seq, id: id, started: k == Patience})
}

// Reschedule is the instant of the tier's next happening after a change
// (+Inf when there is none) and the tier's new generation, which the
// event carries: one scheduled before a later change is stale (Current).
func (e *Tier) Reschedule() (float64, int32) {
	e.gen++
	e.due = e.next()
	return e.due.t, e.gen
}

// Current reports whether an event scheduled with generation gen is
// still the tier's next one.
func (e *Tier) Current(gen int32) bool { return gen == e.gen }

// next is the tier's next happening: its next departure or the tier going
// down first, or a timer before either (stale timers are taken off).
func (e *Tier) next() happening {
	h := happening{t: math.Inf(1), i: -1}
	if e.disc == PS {
		if len(e.wait) > 0 {
			h = e.finish((e.wait[0].key-e.v)/e.rate(), 0)
		}
	} else {
		best := -1
		for i := range e.serving {
			if best < 0 || e.serving[i].rem < e.serving[best].rem {
				best = i
			}
		}
		if best >= 0 {
			h = e.finish(e.serving[best].rem/e.speed, best)
		}
	}
	for len(e.timers) > 0 && !e.valid(&e.timers[0]) {
		e.timers.pop()
	}
	if len(e.timers) > 0 && e.timers[0].key < h.t {
		h = happening{t: e.timers[0].key, what: expiry, i: -1}
	}
	return h
}

// finish is the departure of the task (SRPT, Priority: in service at i)
// that has w seconds of work left at the tier's speed and current share,
// or the tier going down first.
func (e *Tier) finish(w float64, i int) happening {
	if e.cap == nil {
		return happening{t: e.last + w, what: Done, i: i}
	}
	t, lost := e.cap.Finish(e.last, w)
	if lost {
		return happening{t: t, what: Lost, i: i}
	}
	return happening{t: t, what: Done, i: i}
}

// valid reports whether timer x's task is still present.
func (e *Tier) valid(x *task) bool { return int(x.id) < len(e.live) && e.live[x.id] == x.seq }

// Fire advances the tier to t, the instant of its next happening as of
// the last Reschedule, and makes it happen: the task it ends, if any (a
// patience of a task that has started ends none). The tier going down
// ends one task present at a time; the next is due at the same instant.
func (e *Tier) Fire(t float64) (Ended, bool) {
	e.Advance(t)
	switch w := e.due.what; w {
	case Done, Lost:
		var x task
		if e.disc == PS {
			x = e.wait.pop()
			if w == Done {
				e.v = max(e.v, x.key) // its virtual finish is now, exactly
			}
		} else {
			x = e.unserve(e.due.i)
		}
		e.forget(&x)
		return Ended{ID: x.id, End: w, Served: e.served(&x), Reach: x.at}, true
	}
	tm := e.timers.pop()
	return e.expire(&tm)
}

// expire makes timer tm happen (it is valid: next took off the stale).
func (e *Tier) expire(tm *task) (Ended, bool) {
	serving, i := e.locate(tm.seq)
	if tm.started { // a patience: only a task that has not started leaves
		if serving || e.wait[i].started {
			return Ended{}, false
		}
		x := e.wait.remove(i)
		e.forget(&x)
		return Ended{ID: x.id, End: Abandoned, Reach: x.at}, true
	}
	if !e.cancel {
		var x *task
		if serving {
			x = &e.serving[i]
		} else {
			x = &e.wait[i]
		}
		e.forget(x)
		x.id = -1
		return Ended{ID: tm.id, End: TimedOut, Reach: x.at}, true
	}
	var x task
	if serving {
		x = e.unserve(i)
	} else {
		x = e.wait.remove(i)
	}
	e.forget(&x)
	return Ended{ID: x.id, End: TimedOut, Served: e.served(&x), Reach: x.at}, true
}

// locate is where the task of seq is: in service (SRPT, Priority) or
// waiting (every task under PS), at index i.
func (e *Tier) locate(seq uint64) (serving bool, i int) {
	for i := range e.serving {
		if e.serving[i].seq == seq {
			return true, i
		}
	}
	for i := range e.wait {
		if e.wait[i].seq == seq {
			return false, i
		}
	}
	panic("discipline: a timer's task is not present")
}

// unserve takes the task in service at i off its server, which the first
// waiting task takes.
func (e *Tier) unserve(i int) task {
	x := e.serving[i]
	last := len(e.serving) - 1
	e.serving[i] = e.serving[last]
	e.serving = e.serving[:last]
	if len(e.wait) > 0 {
		w := e.wait.pop()
		w.started = true
		e.serving = append(e.serving, w)
	}
	return x
}

// forget makes the timers of task x, which leaves or is detached, stale.
func (e *Tier) forget(x *task) {
	if x.id >= 0 && int(x.id) < len(e.live) && e.live[x.id] == x.seq {
		e.live[x.id] = 0
	}
}

// served is the server time task x has held.
func (e *Tier) served(x *task) float64 {
	if e.disc == PS {
		return e.u - x.got
	}
	return x.got
}
