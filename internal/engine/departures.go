package engine

import (
	"math"

	"github.com/offload-sim/offload/internal/fcfs"
)

// finishes is a heap tier's tasks present (fcfs.Finishes): a tier of
// more than kwServers servers, and every tier under Delayed, keeps its own
// (a smaller tier, and every tier of a run whose decisions read none,
// reads its count from its workload vector: present). The loop does not
// visit departures (each would be a step of its own): a tier's count
// changes only its own state, so it is brought up to date (drain) just
// before something reads it — a decision reading the views, a posting on
// the board, the window opening or closing — and when a task reaches the
// tier (so that a tier no view reads keeps only its tasks present), and
// every read at t sees every departure at or before t, as departure events
// taken first at equal times would have made it. Departures at equal times
// lower the count at the same instant, which commutes. len and next are
// its reads under the names the tracked views use (track.go).
type finishes struct{ fcfs.Finishes }

func newFinishes() finishes { return finishes{fcfs.NewFinishes()} }

func (f *finishes) len() int      { return f.Len() }
func (f *finishes) next() float64 { return f.Next() }

// kwServers is the most servers a tier has for its tasks present to be
// read from its workload vector (present): a comparison per server per
// read, against, for a larger tier, a push and a pop in its heap of
// finishes per task and a branch per read on whether a finish is due.
// On 3 tiers under random dispatch the two cost about the same at 16
// servers a tier; the scan is ahead below that (and at high load, where the
// heap grows with the queue), the heap above.
const kwServers = 16

// present is tier ts's tasks present, waiting or in service, at t, for t
// no earlier than any reach it served and than its last read.
//
// A tier of few servers reads it from its Kiefer–Wolfowitz vector: the
// servers free after t are busy, since every task they serve reached by
// t, and the tasks that start after t wait; one finish per present task
// is either a server's free time (the last task given to it) or the start
// of the task given to the same server next, which waits. So the count is
// the heap's, without the heap: no finish kept, nothing to take off, and a
// read costs a comparison per server without a branch on the data. The
// delayed model needs every change at its instant
// for its history, so its tiers keep the heap (fin), like larger tiers.
//
// A small tier keeps its last count until its next departure, and a task
// that reaches it is added to the count (reach), so that a read of a tier
// that no task has left, the usual case at a light load or among many
// tiers, is a comparison small enough to inline, as a larger tier's heap
// check is; the rest is in count. A count after the latest finish given to
// the tier needs no scan: it is empty.
func (s *sim) present(ts *tierState, t float64) int {
	if ts.kw && t < ts.until {
		return ts.n
	}
	return s.count(ts, t)
}

// count is present, past its inlined test.
func (s *sim) count(ts *tierState, t float64) int {
	if ts.kw {
		if t >= ts.last { // every task given to the tier has left
			ts.waits.Clear()
			ts.n, ts.until = 0, math.Inf(1)
			return 0
		}
		q := ts.waits.Queued(t)
		busy, next := ts.free.Busy(t)
		ts.n, ts.until = q+busy, min(next, ts.waits.Next())
		return ts.n
	}
	s.drain(ts, t)
	return ts.fin.len()
}

// residual is R(t), the time the tasks present at tier ts at t (as in
// present) still spend there: Σ (finish − t) over them. The window's
// time-integral of tasks present is the sojourns of the tasks that reach
// the tier in it, plus R(t₀), less R(T) — no change of the count need be
// visited.
func (s *sim) residual(ts *tierState, t float64) float64 {
	if ts.kw {
		return ts.free.Residual(t) + ts.waits.Residual(t)
	}
	s.drain(ts, t)
	return ts.fin.Residual(t)
}

// drain brings a heap tier's count of tasks present up to time t: it takes
// off every task that finished at or before t (a departure comes before
// anything else at its instant). The test is small enough to inline, so
// that a tier with nothing due costs a comparison.
func (s *sim) drain(ts *tierState, t float64) {
	if ts.fin.next() <= t {
		s.depart(ts, t)
	}
}

// depart takes off tier ts the tasks that finished by t, in finish order,
// each a change of the tier at its own instant. It, drain and remember
// take the tier rather than its index, which each would look up again.
func (s *sim) depart(ts *tierState, t float64) {
	for ts.fin.len() > 0 && ts.fin.next() <= t {
		d := ts.fin.next()
		ts.fin.Pop()
		if s.delayed {
			s.remember(ts, d)
		}
	}
}

// remember records tier ts's change at t in its history, for Delayed: the
// one model that reads past states (fresh views are read at the decision,
// a board's at its postings).
func (s *sim) remember(ts *tierState, t float64) {
	ts.hist.Add(t, ts.fin.len(), s.horizon)
}
