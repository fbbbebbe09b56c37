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
// Its caller advances it to each change's instant (Advance), then adds a
// task (Add) or takes off the one due (Next, Remove), and schedules the
// next departure again (Reschedule); times never go backwards. The zero
// value is not usable; call New.
type Tier struct {
	disc    Discipline
	preempt bool
	prio    []float64 // Priority: each class's priority
	servers int
	speed   float64
	last    float64 // the time of the last change
	v       float64 // PS: virtual time, the work each task present has received since 0
	seq     uint64  // the reaches so far: ties in the heaps go to the earlier
	gen     int32   // bumped at each Reschedule
	wait    taskHeap
	serving []task
}

// New is an empty tier of discipline d (PS, SRPT or Priority) with this
// many servers of this speed; preemptive makes Priority preempt-resume
// (SRPT always preempts), and prio holds each class's priority (nil: one
// class).
func New(d Discipline, servers int, speed float64, preemptive bool, prio []float64) *Tier {
	e := &Tier{disc: d, preempt: d == SRPT || preemptive, servers: servers, speed: speed}
	if d == Priority {
		e.prio = prio
		if e.prio == nil {
			e.prio = []float64{0}
		}
	}
	return e
}

// task is a task present at the tier: its id, its key (PS: virtual
// finish; SRPT: remaining work; Priority: its class's priority) and its
// remaining work (SRPT and Priority), as of the tier's last change while
// in service.
type task struct {
	key float64
	rem float64
	seq uint64
	id  int32
}

func (a *task) before(b *task) bool { return a.key < b.key || a.key == b.key && a.seq < b.seq }

// taskHeap is a binary min-heap of tasks by (key, seq).
type taskHeap []task

func (h *taskHeap) push(t task) {
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

func (h *taskHeap) pop() task {
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
func (e *Tier) rate() float64 {
	n := len(e.wait)
	if n <= e.servers {
		return e.speed
	}
	return e.speed * float64(e.servers) / float64(n)
}

// Advance brings the tier's service up to t.
func (e *Tier) Advance(t float64) {
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

// Next is the tier's next departure and the index that Remove then takes
// (for SRPT and Priority, the task in service that leaves); +Inf when it
// is empty.
func (e *Tier) Next() (float64, int) {
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

// Add takes in task id, of this size and class, at the tier's last change.
func (e *Tier) Add(id int32, size float64, class int32) {
	e.seq++
	if e.disc == PS {
		e.wait.push(task{key: e.v + size, seq: e.seq, id: id})
		return
	}
	t := task{key: size, rem: size, seq: e.seq, id: id}
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

// Remove takes off the task that leaves now (i: Next's index) and returns
// its id.
func (e *Tier) Remove(i int) int32 {
	if e.disc == PS {
		t := e.wait.pop()
		e.v = max(e.v, t.key) // its virtual finish is now, exactly
		return t.id
	}
	id := e.serving[i].id
	last := len(e.serving) - 1
	e.serving[i] = e.serving[last]
	e.serving = e.serving[:last]
	if len(e.wait) > 0 {
		e.serving = append(e.serving, e.wait.pop())
	}
	return id
}

// Reschedule is the tier's next departure after a change (+Inf when it is
// empty) and the tier's new generation, which the departure carries: one
// scheduled before a later change is stale (Current).
func (e *Tier) Reschedule() (float64, int32) {
	e.gen++
	t, _ := e.Next()
	return t, e.gen
}

// Current reports whether a departure scheduled with generation gen is
// still the tier's next one.
func (e *Tier) Current(gen int32) bool { return gen == e.gen }
