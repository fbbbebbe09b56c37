package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventHeapOrder: events come out by time, and at equal times in the
// order they were pushed.
func TestEventHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	var h eventHeap
	type key struct {
		t   float64
		seq int32 // the push order, carried in slot
	}
	var ref []key
	var e event
	pushed := int32(0)
	for range 20000 {
		if len(ref) == 0 || r.IntN(3) > 0 {
			x := float64(r.IntN(50))
			h.push(x, pushed, 0, evReach)
			ref = append(ref, key{x, pushed})
			pushed++
		} else {
			best := 0
			for j := range ref {
				if ref[j].t < ref[best].t || ref[j].t == ref[best].t && ref[j].seq < ref[best].seq {
					best = j
				}
			}
			h.pop(&e)
			if e.t != ref[best].t || e.slot != ref[best].seq {
				t.Fatalf("popped (%v, #%d), want (%v, #%d)", e.t, e.slot, ref[best].t, ref[best].seq)
			}
			ref = slices.Delete(ref, best, best+1)
		}
		if h.len() != len(ref) {
			t.Fatalf("len %d, want %d", h.len(), len(ref))
		}
	}
}
