package fcfs

import "math"

// Finishes is a tier's tasks present (waiting or in service) kept as a
// binary min-heap of their finish times: its length is the tier's count,
// and its minimum the tier's next departure. A tier of many servers keeps
// it instead of reading its count from Servers and Waits (a comparison
// per server per read), and so does every tier whose count changes must
// be seen one by one (the simulator's delayed views); a count that no
// finite time lowers, +Inf, keeps a task present until its caller takes
// it off (the simulator's event-driven tiers).
//
// The heap holds one more element, +Inf, which no finite time reaches: so
// Next needs no emptiness test, and the check on every read of a tier is a
// single comparison, small enough to inline. The zero value is not usable;
// call NewFinishes. Its sift code repeats Servers.replaceMin's on purpose:
// a generic heap would call its comparison through a dictionary on the
// per-task path.
type Finishes struct{ h []float64 }

// NewFinishes is an empty tier's.
func NewFinishes() Finishes { return Finishes{h: []float64{math.Inf(1)}} }

// Len is the number of tasks present.
func (f *Finishes) Len() int { return len(f.h) - 1 }

// Next is the earliest finish, +Inf when no task is present.
func (f *Finishes) Next() float64 { return f.h[0] }

// Push adds a task present until t.
func (f *Finishes) Push(t float64) {
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

// Pop removes the earliest finish; the caller checks Len() > 0, so that
// the sentinel stays.
func (f *Finishes) Pop() {
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

// Residual is Σ (finish − t) over the finite finishes kept (see
// Servers.Residual), for a caller that took off those due by t.
func (f *Finishes) Residual(t float64) float64 {
	r := 0.0
	for _, x := range f.h {
		if x < math.Inf(1) { // not the sentinel, nor a task without a finish
			r += x - t
		}
	}
	return r
}
