package pq

// Event is one scheduled happening: its time T, its sequence number Seq
// (the push order), and its payload: Slot and Tier, whose meaning is the
// user's by Kind.
type Event struct {
	T    float64
	Seq  uint64
	Slot int32
	Tier int32
	Kind uint8
}

func (a *Event) before(b *Event) bool {
	return a.T < b.T || (a.T == b.T && a.Seq < b.Seq)
}

// Events is a min-heap of events by (T, Seq): equal times come out in the
// order they were pushed. Its zero value is empty and ready.
type Events struct {
	ev  []Event
	seq uint64
}

// Len is the number of events scheduled.
func (h *Events) Len() int { return len(h.ev) }

// Next is the earliest event's time; the heap must not be empty.
func (h *Events) Next() float64 { return h.ev[0].T }

// Push schedules an event of kind at t. It takes the fields rather than an
// Event, and writes them straight into the heap's slot: an event passed by
// value is spilled to the stack field by field and then copied in 16-byte
// moves, which stall on those narrower stores (store-to-load forwarding
// fails).
func (h *Events) Push(t float64, slot, tier int32, kind uint8) {
	seq := h.seq
	h.seq++
	h.ev = append(h.ev, Event{})
	ev := h.ev
	i := len(ev) - 1
	for i > 0 { // move parents down into the hole, then fill it once
		p := (i - 1) / 2
		if !(t < ev[p].T || t == ev[p].T && seq < ev[p].Seq) {
			break
		}
		ev[i] = ev[p]
		i = p
	}
	e := &ev[i]
	e.T, e.Seq, e.Slot, e.Tier, e.Kind = t, seq, slot, tier, kind
}

// Pop removes the earliest event into *top; the heap must not be empty. A
// result by value would be spilled and copied whole by the caller, with
// the stall Push avoids.
func (h *Events) Pop(top *Event) {
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
