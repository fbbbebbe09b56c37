package engine

// eventKind tells what happens at an event.
type eventKind uint8

const (
	evReach   eventKind = iota // a task ends its delay and joins its tier
	evRefresh                  // the board posts a tier (tier ≥ 0) or every tier (tier −1)
	// Departures are not events: they have their own heap (departures).
)

// event is one scheduled happening. slot indexes the in-transit task table for
// evReach; tier is the tier concerned.
type event struct {
	t    float64
	seq  uint64
	slot int32
	tier int32
	kind eventKind
}

func (a *event) before(b *event) bool {
	return a.t < b.t || (a.t == b.t && a.seq < b.seq)
}

// eventHeap is a binary min-heap ordered by (t, seq). It is written out rather
// than using container/heap, whose interface boxing costs an allocation-free
// hot path dearly, and whose order is not stable for equal times.
// Invariant: no event is ever pushed with t earlier than the last popped t.
type eventHeap struct {
	ev  []event
	seq uint64
}

func (h *eventHeap) len() int { return len(h.ev) }

func (h *eventHeap) push(e event) {
	e.seq = h.seq
	h.seq++
	h.ev = append(h.ev, e)
	ev := h.ev
	i := len(ev) - 1
	for i > 0 { // move parents down into the hole, then fill it once
		p := (i - 1) / 2
		if !e.before(&ev[p]) {
			break
		}
		ev[i] = ev[p]
		i = p
	}
	ev[i] = e
}

func (h *eventHeap) pop() event {
	ev := h.ev
	top := ev[0]
	n := len(ev) - 1
	x := ev[n]
	h.ev = ev[:n]
	ev = ev[:n]
	i := 0
	for { // move the lesser child up into the hole, then fill it with the last
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && ev[r].before(&ev[l]) {
			m = r
		}
		if !ev[m].before(&x) {
			break
		}
		ev[i] = ev[m]
		i = m
	}
	if n > 0 {
		ev[i] = x
	}
	return top
}

// departure is a task's finish at a tier: it only lowers the tier's count of
// tasks present, so it needs neither a sequence number nor a kind.
type departure struct {
	t    float64
	tier int32
}

// departures is a binary min-heap of departures by time, apart from the
// event heap: half of a run's scheduled happenings are departures, and
// this heap's elements are half the size of an event and compare on one
// float. Departures at equal times may come out in any order: each lowers
// one tier's count at the same instant, which commutes. The loop takes a
// departure before an event or an arrival at the same time, as the event
// heap did for departures already due.
// Its sift code repeats the event heap's on purpose: a generic heap would
// call its comparison through a dictionary on the per-task path, and the
// two element types differ in shape.
type departures struct{ d []departure }

func (h *departures) len() int { return len(h.d) }

func (h *departures) push(t float64, tier int32) {
	h.d = append(h.d, departure{t, tier})
	d := h.d
	i := len(d) - 1
	x := d[i]
	for i > 0 {
		p := (i - 1) / 2
		if !(x.t < d[p].t) {
			break
		}
		d[i] = d[p]
		i = p
	}
	d[i] = x
}

func (h *departures) pop() departure {
	d := h.d
	top := d[0]
	n := len(d) - 1
	x := d[n]
	h.d = d[:n]
	d = d[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && d[r].t < d[l].t {
			m = r
		}
		if !(d[m].t < x.t) {
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
