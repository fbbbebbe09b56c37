package engine

// eventKind tells what happens at an event.
type eventKind uint8

const (
	evReach   eventKind = iota // a task ends its delay and joins its tier
	evDepart                   // a server of a tier finishes a task
	evRefresh                  // the board posts a tier (tier ≥ 0) or every tier (tier −1)
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
	i := len(h.ev) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.ev[i].before(&h.ev[p]) {
			break
		}
		h.ev[i], h.ev[p] = h.ev[p], h.ev[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	top := h.ev[0]
	n := len(h.ev) - 1
	h.ev[0] = h.ev[n]
	h.ev = h.ev[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.ev[r].before(&h.ev[l]) {
			m = r
		}
		if !h.ev[m].before(&h.ev[i]) {
			break
		}
		h.ev[i], h.ev[m] = h.ev[m], h.ev[i]
		i = m
	}
	return top
}
