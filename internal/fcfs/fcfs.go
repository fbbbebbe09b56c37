// Package fcfs is the arithmetic of a tier of identical first-come,
// first-served servers: the Kiefer–Wolfowitz workload vector, each server's
// next free time. A task that reaches the tier takes the server that frees
// first, so its start and completion are known the moment it arrives
// (docs/design.md §1). The simulator serves every task with it, and both
// the simulator's and the HTTP testbed's oracles replay queues with it, so
// that the rule is written once.
package fcfs

import "iter"

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
