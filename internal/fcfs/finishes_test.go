package fcfs

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
	f := NewFinishes()
	var ref []float64 // the same multiset, kept sorted
	for i := range 20000 {
		if len(ref) == 0 || r.IntN(3) > 0 {
			x := math.Round(r.Float64()*100) / 4 // coarse, so that ties occur
			f.Push(x)
			j, _ := slices.BinarySearch(ref, x)
			ref = slices.Insert(ref, j, x)
		} else {
			if got := f.Next(); got != ref[0] {
				t.Fatalf("step %d: next %v, want %v", i, got, ref[0])
			}
			f.Pop()
			ref = ref[1:]
		}
		if f.Len() != len(ref) {
			t.Fatalf("step %d: len %d, want %d", i, f.Len(), len(ref))
		}
	}
	for len(ref) > 0 {
		if got := f.Next(); got != ref[0] {
			t.Fatalf("drain: next %v, want %v", got, ref[0])
		}
		f.Pop()
		ref = ref[1:]
	}
	if f.Len() != 0 || !math.IsInf(f.Next(), 1) {
		t.Fatalf("empty: len %d, next %v; want 0, +Inf", f.Len(), f.Next())
	}
}

// TestFinishesResidual: the residual is the sum of the finite finishes
// kept less t each, whatever the heap's order, and a task kept at +Inf
// adds nothing.
func TestFinishesResidual(t *testing.T) {
	f := NewFinishes()
	for _, x := range []float64{7, 3, math.Inf(1), 5} {
		f.Push(x)
	}
	if got, want := f.Residual(2), 5.0+1+3; got != want {
		t.Errorf("residual at 2: %v, want %v", got, want)
	}
	if f.Len() != 4 || f.Next() != 3 {
		t.Errorf("len %d, next %v: want 4, 3", f.Len(), f.Next())
	}
}
