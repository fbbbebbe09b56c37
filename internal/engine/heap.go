package engine

import "math"

// eventKind tells what happens at an event.
type eventKind uint8

const (
	evReach   eventKind = iota // a task ends its delay and joins its tier
	evRefresh                  // the board posts a tier (tier ≥ 0) or every tier (tier −1)
	// Departures are not events: each tier keeps its finish times (finishes).
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

// push schedules an event of kind at t. It takes the fields rather than an
// event, and writes them straight into the heap's slot: an event passed by
// value is spilled to the stack field by field and then copied in 16-byte
// moves, which stall on those narrower stores (store-to-load forwarding
// fails); that copy was most of push's time (issue 17).
func (h *eventHeap) push(t float64, slot, tier int32, kind eventKind) {
	seq := h.seq
	h.seq++
	h.ev = append(h.ev, event{})
	ev := h.ev
	i := len(ev) - 1
	for i > 0 { // move parents down into the hole, then fill it once
		p := (i - 1) / 2
		if !(t < ev[p].t || t == ev[p].t && seq < ev[p].seq) {
			break
		}
		ev[i] = ev[p]
		i = p
	}
	e := &ev[i]
	e.t, e.seq, e.slot, e.tier, e.kind = t, seq, slot, tier, kind
}

// pop removes the earliest event into *top. A result by value would be
// spilled and copied whole by the caller, with the stall push avoids.
func (h *eventHeap) pop(top *event) {
	ev := h.ev
	*top = ev[0]
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
}

// finishes is one tier's tasks present (waiting or in service) as a binary
// min-heap of their finish times: its length is the tier's n, and its
// minimum the tier's next departure. Each tier keeps its own, and the loop
// does not visit departures: a tier's count changes only its own state, so
// it is brought up to date (drain) just before something reads it — a task
// reaching the tier, a decision reading the views, a posting on the board,
// the window opening or closing — with the same changes at the same times,
// in the same order, as a queue of departure events would have made them
// (issue 17: a third of the loop's steps were departures). Departures at
// equal times lower the count at the same instant, which commutes.
//
// The heap holds one more element, +Inf, which no finite time reaches: so
// next needs no emptiness test, and the check on every read of a tier is a
// single comparison, small enough to inline. The zero value is not usable;
// call newFinishes.
// Its sift code repeats the event heap's on purpose: a generic heap would
// call its comparison through a dictionary on the per-task path.
type finishes struct{ h []float64 }

func newFinishes() finishes { return finishes{h: []float64{math.Inf(1)}} }

// len is the number of tasks present.
func (f *finishes) len() int { return len(f.h) - 1 }

// next is the earliest finish, +Inf when no task is present.
func (f *finishes) next() float64 { return f.h[0] }

func (f *finishes) push(t float64) {
	f.h = append(f.h, t)
	d := f.h
	i := len(d) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !(t < d[p]) {
			break
		}
		d[i] = d[p]
		i = p
	}
	d[i] = t
}

// pop removes the earliest finish; the caller checks len() > 0, so that
// the sentinel stays.
func (f *finishes) pop() {
	d := f.h
	n := len(d) - 1
	x := d[n]
	d = d[:n]
	f.h = d
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && d[r] < d[l] {
			m = r
		}
		if !(d[m] < x) {
			break
		}
		d[i] = d[m]
		i = m
	}
	if n > 0 {
		d[i] = x
	}
}
