package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFinishesOrder: pushes and pops interleaved at random give back the
// finish times in increasing order, the length counts the tasks present,
// and the +Inf sentinel is next when none is.
func TestFinishesOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	f := newFinishes()
	var ref []float64 // the same multiset, kept sorted
	for i := range 20000 {
		if len(ref) == 0 || r.IntN(3) > 0 {
			x := math.Round(r.Float64()*100) / 4 // coarse, so that ties occur
			f.push(x)
			j, _ := slices.BinarySearch(ref, x)
			ref = slices.Insert(ref, j, x)
		} else {
			if got := f.next(); got != ref[0] {
				t.Fatalf("step %d: next %v, want %v", i, got, ref[0])
			}
			f.pop()
			ref = ref[1:]
		}
		if f.len() != len(ref) {
			t.Fatalf("step %d: len %d, want %d", i, f.len(), len(ref))
		}
	}
	for len(ref) > 0 {
		if got := f.next(); got != ref[0] {
			t.Fatalf("drain: next %v, want %v", got, ref[0])
		}
		f.pop()
		ref = ref[1:]
	}
	if f.len() != 0 || !math.IsInf(f.next(), 1) {
		t.Fatalf("empty: len %d, next %v; want 0, +Inf", f.len(), f.next())
	}
}

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
