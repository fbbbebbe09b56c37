package pq

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventsOrder: events come out by time, and at equal times in the
// order they were pushed.
func TestEventsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	var h Events
	type key struct {
		t   float64
		seq int32 // the push order, carried in Slot
	}
	var ref []key
	var e Event
	pushed := int32(0)
	for range 20000 {
		if len(ref) == 0 || r.IntN(3) > 0 {
			x := float64(r.IntN(50))
			h.Push(x, pushed, 0, 0)
			ref = append(ref, key{x, pushed})
			pushed++
		} else {
			best := 0
			for j := range ref {
				if ref[j].t < ref[best].t || ref[j].t == ref[best].t && ref[j].seq < ref[best].seq {
					best = j
				}
			}
			if h.Next() != ref[best].t {
				t.Fatalf("next at %v, want %v", h.Next(), ref[best].t)
			}
			h.Pop(&e)
			if e.T != ref[best].t || e.Slot != ref[best].seq {
				t.Fatalf("popped (%v, #%d), want (%v, #%d)", e.T, e.Slot, ref[best].t, ref[best].seq)
			}
			ref = slices.Delete(ref, best, best+1)
		}
		if h.Len() != len(ref) {
			t.Fatalf("len %d, want %d", h.Len(), len(ref))
		}
	}
}

// TestKeysTop: after any sequence of keys set up or down, the top is the
// least key, ties by the lower integer.
func TestKeysTop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const n = 37
	h := NewKeys(n)
	ref := make([]float64, n)
	for p := range ref {
		ref[p] = math.Inf(1)
	}
	for range 20000 {
		p, k := r.IntN(n), float64(r.IntN(20))
		if r.IntN(10) == 0 {
			k = math.Inf(1)
		}
		h.Set(p, k)
		ref[p] = k
		best := 0
		for q := range ref {
			if ref[q] < ref[best] {
				best = q
			}
		}
		if q, at := h.Top(); q != best || at != ref[best] {
			t.Fatalf("top (%d, %v), want (%d, %v)", q, at, best, ref[best])
		}
		if h.Key(p) != k {
			t.Fatalf("key of %d is %v, want %v", p, h.Key(p), k)
		}
	}
}

// TestTimesTop: with entries pushed, retimed later at the top and popped,
// the top always has the earliest time, and every entry pushed comes off
// exactly once.
func TestTimesTop(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var h Times
	ref := map[int32]float64{}
	next := 0
	for range 20000 {
		switch {
		case len(h) == 0 || r.IntN(3) == 0:
			at := float64(r.IntN(50))
			h.Push(at, next)
			ref[int32(next)] = at
			next++
		case r.IntN(2) == 0:
			id, later := h[0].ID, h[0].At+float64(r.IntN(20))
			h.Down(Entry{later, id})
			ref[id] = later
		default:
			delete(ref, h[0].ID)
			last := len(h) - 1
			x := h[last]
			h = h[:last]
			if last > 0 {
				h.Down(x)
			}
		}
		if len(h) != len(ref) {
			t.Fatalf("len %d, want %d", len(h), len(ref))
		}
		for _, e := range h {
			if ref[e.ID] != e.At {
				t.Fatalf("#%d at %v, but it was set to %v", e.ID, e.At, ref[e.ID])
			}
			if e.At < h[0].At {
				t.Fatalf("top at %v, but an entry is at %v", h[0].At, e.At)
			}
		}
	}
}
