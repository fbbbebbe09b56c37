// Package fcfs is the arithmetic of a tier of identical first-come,
// first-served servers: the Kiefer–Wolfowitz workload vector, each server's
// next free time. A task that reaches the tier takes the server that frees
// first, so its start and completion are known the moment it arrives
// (docs/design.md §1). The simulator serves every task with it, and both
// the simulator's and the HTTP testbed's oracles replay queues with it, so
// that the rule is written once. A small tier's tasks present are read
// from it too (Servers.Busy, Waits), without keeping their finish times;
// a larger one keeps them (Finishes).
package fcfs

import (
	"iter"
	"math"
)

// Servers is a tier's workload vector as a binary min-heap of free times.
// The zero free time means idle since the start.
type Servers []float64

// New returns c idle servers.
func New(c int) Servers { return make(Servers, c) }

// Free is the earliest time a server is free.
func (s Servers) Free() float64 { return s[0] }

// Serve gives a task that reaches the tier at reach and needs service
// seconds the server that frees first, and returns when it starts and
// finishes.
func (s Servers) Serve(reach, service float64) (start, finish float64) {
	start = max(reach, s[0])
	finish = start + service
	s.replaceMin(finish)
	return start, finish
}

// Take gives the server that frees first (Free) a task that leaves it at
// leave, for a caller that computes the leave itself (a speed that
// changes over time, a task lost or cancelled): Serve is Take of
// max(reach, Free()) + service.
func (s Servers) Take(leave float64) { s.replaceMin(leave) }

// Completion is when a task reaching the tier at reach with this service
// would finish after the tasks ahead of it, given as (reach, service) pairs
// in the order they reach the tier, have been served. s is not changed: the
// replay runs on scratch, which is returned for reuse.
func (s Servers) Completion(scratch []float64, ahead iter.Seq2[float64, float64], reach, service float64) (float64, []float64) {
	free := Servers(append(scratch[:0], s...))
	for r, svc := range ahead {
		free.Serve(r, svc)
	}
	return max(reach, free[0]) + service, free
}

// replaceMin sets the smallest element to v and restores the heap.
func (s Servers) replaceMin(v float64) {
	n := len(s)
	s[0] = v
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && s[r] < s[l] {
			m = r
		}
		if s[m] >= s[i] {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}

// Busy is the number of servers busy at t, for t no earlier than the reach
// of every task served so far, and the earliest free time after t (+Inf if
// none), when the first of them goes idle. A server free after t is busy
// at t: the tasks given to it all reached by t, so it has been working
// since the first of them that is still there. A tier's tasks present at t
// are one per busy server and the tasks that wait at t, which start after
// t (Waits). Busy visits every server: for a few servers that costs less
// than keeping the tasks' finish times sorted.
//
// It takes no branch on a server's state, which a predictor could not
// guess: the count adds the comparison's 0 or 1, and the minimum runs on
// the free times' bits, which order as their values do for times ≥ 0 (a
// queue's times are), with +Inf's bits for a server that is idle.
func (s Servers) Busy(t float64) (n int, next float64) {
	const inf = 0x7ff0000000000000 // math.Float64bits(math.Inf(1))
	nx := uint64(inf)
	for _, f := range s {
		var m uint64
		if f > t {
			m = 1
		}
		n += int(m)
		nx = min(nx, inf^((inf^math.Float64bits(f))&-m)) // f's bits if busy, else +Inf's
	}
	return n, math.Float64frombits(nx)
}

// Residual is Σ max(0, free − t) over the servers: with Waits.Residual, the
// time the tasks present at t (for t as in Busy) still spend at the tier,
// the boundary term of its time-integral of tasks present.
func (s Servers) Residual(t float64) float64 {
	r := 0.0
	for _, f := range s {
		r += max(0, f-t)
	}
	return r
}

// Waits is a tier's tasks that wait, by start time. FCFS starts tasks in
// the order they reach the tier, and at nondecreasing times, so a ring in
// reach order is sorted: the count at t takes off its head, in O(1) a task
// amortised. With Busy it gives a tier's tasks present without keeping
// their finish times. The zero value is an empty queue.
type Waits struct {
	q    []float64 // a ring whose length is 0 or a power of two
	h, n int       // its head and length
}

// Add records a task that starts at start, later than it reached the tier.
// Tasks are added in the order the tier serves them, which is the order
// they reach it, so that the ring stays sorted.
func (w *Waits) Add(start float64) {
	if w.n == len(w.q) {
		q := make([]float64, max(8, 2*len(w.q)))
		for i := range w.n {
			q[i] = w.at(i)
		}
		w.q, w.h = q, 0
	}
	w.q[(w.h+w.n)&(len(w.q)-1)] = start
	w.n++
}

// Clear empties the ring, for a caller that knows every task in it has
// started (the engine, once a read comes after the tier's latest finish).
func (w *Waits) Clear() { w.n = 0 }

// at is the i-th start from the head.
func (w *Waits) at(i int) float64 { return w.q[(w.h+i)&(len(w.q)-1)] }

// Queued is the number of tasks waiting at t: those that start after t. It
// forgets the others, so t must not decrease from one call to the next.
func (w *Waits) Queued(t float64) int {
	for w.n > 0 && w.q[w.h] <= t {
		w.h = (w.h + 1) & (len(w.q) - 1)
		w.n--
	}
	return w.n
}

// Next is the earliest start of a task waiting at t, +Inf if none: the
// next departure from the server it waits for. Call it after Queued(t).
func (w *Waits) Next() float64 {
	if w.n == 0 {
		return math.Inf(1)
	}
	return w.q[w.h]
}

// Residual is Σ (start − t) over the tasks waiting at t (see Servers.Residual).
func (w *Waits) Residual(t float64) float64 {
	r := 0.0
	for i := range w.Queued(t) {
		r += w.at(i) - t
	}
	return r
}
