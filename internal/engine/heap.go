package engine

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
// fails).
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
