package engine

import "math"

// finishes is one tier's tasks present (waiting or in service) as a binary
// min-heap of their finish times: its length is the tier's n, and its
// minimum the tier's next departure. Each tier keeps its own, and the loop
// does not visit departures (issue 17: a third of its steps were
// departures): a tier's count changes only its own state, so it is brought
// up to date (drain) just before something reads it — a decision reading
// the views, a posting on the board, the window opening or closing, and
// under Delayed a task reaching the tier — and every read at t sees every
// departure at or before t, as departure events taken first at equal
// times would have made it. Departures at equal times lower the count at
// the same instant, which commutes.
//
// The heap holds one more element, +Inf, which no finite time reaches: so
// next needs no emptiness test, and the check on every read of a tier is a
// single comparison, small enough to inline. The zero value is not usable;
// call newFinishes.
// Its sift code repeats the event heap's and fcfs.Servers.replaceMin's on
// purpose: a generic heap would call its comparison through a dictionary
// on the per-task path, and fcfs keeps its heap unexported (a tier's free
// times, not a general heap).
type finishes struct{ h []float64 }

func newFinishes() finishes { return finishes{h: []float64{math.Inf(1)}} }

// len is the number of tasks present.
func (f *finishes) len() int { return len(f.h) - 1 }

// next is the earliest finish, +Inf when no task is present.
func (f *finishes) next() float64 { return f.h[0] }

func (f *finishes) push(t float64) {
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

// pop removes the earliest finish; the caller checks len() > 0, so that
// the sentinel stays.
func (f *finishes) pop() {
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

// drain brings tier p's count of tasks present up to time t: it takes
// off every task that finished at or before t (a departure comes before
// anything else at its instant). The test is small enough to inline, so
// that a tier with nothing due costs a comparison.
func (s *sim) drain(ts *tierState, t float64) {
	if ts.fin.next() <= t {
		s.depart(ts, t)
	}
}

// depart takes off tier ts the tasks that finished by t, in finish order,
// each a change of the tier at its own instant. It, drain, touch and
// remember take the tier rather than its index, which each would look up
// again (issue 17).
func (s *sim) depart(ts *tierState, t float64) {
	for ts.fin.len() > 0 && ts.fin.next() <= t {
		d := ts.fin.next()
		s.touch(ts, d, false)
		ts.fin.pop()
		if s.delayed {
			s.remember(ts, d)
		}
	}
}

// drainAll drains every tier up to t.
func (s *sim) drainAll(t float64) {
	for p := range s.tiers {
		s.drain(&s.tiers[p], t)
	}
}

// touch adds a change of tier ts's tasks present at t, by up or down one,
// to the time-integral of n over the window, AreaN. By summation by parts
// the integral from t₀ to T is n_T·T − n₀·t₀ − Σ δᵢtᵢ over the changes δᵢ
// = ±1 at tᵢ: one addition per change (the window's ends add the rest),
// and the same integral in whatever order the changes come, which lets a
// tier's departures wait for the next read of it (drain; issue 17).
func (s *sim) touch(ts *tierState, t float64, up bool) {
	if s.measuring {
		if up {
			ts.areaN -= t
		} else {
			ts.areaN += t
		}
	}
}

// remember records tier ts's change at t in its history, for Delayed: the
// one model that reads past states (fresh views are read at the decision,
// a board's at its postings).
func (s *sim) remember(ts *tierState, t float64) {
	ts.hist.add(t, ts.fin.len(), s.horizon)
}
