package fcfs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Serve agrees with the direct Kiefer–Wolfowitz recursion on a sorted
// vector: the task takes the smallest free time, which becomes its finish.
func TestServeMatchesTheRecursion(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []int{1, 2, 3, 8, 33} {
		s, w := New(c), make([]float64, c)
		reach := 0.0
		for range 5000 {
			reach += r.ExpFloat64()
			svc := 3 * r.ExpFloat64()
			start, finish := s.Serve(reach, svc)
			slices.Sort(w)
			wantStart := max(reach, w[0])
			w[0] = wantStart + svc
			if start != wantStart || finish != w[0] {
				t.Fatalf("c = %d: start %v finish %v, want %v %v", c, start, finish, wantStart, w[0])
			}
		}
	}
}

// Completion replays the tasks ahead on a copy and leaves s unchanged.
func TestCompletionReplaysOnACopy(t *testing.T) {
	s := New(2)
	s.Serve(0, 4) // server A busy until 4
	ahead := func(yield func(float64, float64) bool) {
		_ = yield(1, 5) && yield(2, 1) // B until 6, then A from 4 to 5
	}
	got, _ := s.Completion(nil, ahead, 3, 2)
	if got != 7 { // the task reaches at 3, the earliest server frees at 5
		t.Errorf("completion %v, want 7", got)
	}
	if s.Free() != 0 {
		t.Errorf("Completion changed the servers: free %v", s)
	}
}

// Busy and Waits give the count of a brute-force tally of every task
// served: at a read at t (no earlier than the reaches so far), a task is
// present when it finishes after t, busy when it started by t, waiting
// when it starts after t; the earlier of Busy's next free time and the
// first waiting start is the earliest finish after t; the residuals add
// up finish − t over the tasks present. Reads fall between reaches and on them, finish and start times
// coincide with reads (coarse times), and the load ranges from idle
// through heavy to overloaded, so that the ring grows, wraps and empties.
func TestBusyAndWaitsCountThePresent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []int{1, 2, 4, 7, 16} {
		for _, load := range []float64{0.3, 0.95, 1.5} {
			s := New(c)
			var w Waits
			var starts, finishes []float64
			step := func() float64 { return math.Round(r.ExpFloat64()*4) / 4 } // quarter units: ties
			reach, next := 0.0, step()
			for range 4000 {
				reach, next = next, next+step()
				svc := math.Round(float64(c)*load*r.ExpFloat64()*4) / 4
				start, finish := s.Serve(reach, svc)
				if start > reach {
					w.Add(start)
				}
				starts, finishes = append(starts, start), append(finishes, finish)
				// Reads at the reach and between it and the next, that
				// one included: t never decreases and is no earlier than
				// any reach served.
				for _, at := range []float64{reach, reach + math.Round(r.Float64()*(next-reach)*4)/4} {
					present, busy, waiting, res, next := 0, 0, 0, 0.0, math.Inf(1)
					for j := range starts {
						if finishes[j] > at {
							present++
							res += finishes[j] - at
							next = min(next, finishes[j])
							if starts[j] > at {
								waiting++
							} else {
								busy++
							}
						}
					}
					gb, gn := s.Busy(at)
					if gq := w.Queued(at); gb != busy || gq != waiting || gb+gq != present {
						t.Fatalf("c=%d load=%v at %v: busy %d queued %d, want %d %d (present %d)", c, load, at, gb, gq, busy, waiting, present)
					}
					if got := min(gn, w.Next()); got != next { // the next departure
						t.Fatalf("c=%d load=%v at %v: next departure %v, want %v", c, load, at, got, next)
					}
					if got := s.Residual(at) + w.Residual(at); math.Abs(got-res) > 1e-9*max(1, res) {
						t.Fatalf("c=%d load=%v at %v: residual %v, want %v", c, load, at, got, res)
					}
				}
			}
		}
	}
}

// TestWaitsClear: a cleared ring is empty, and refills in order, across
// its wrap, as a new one would.
func TestWaitsClear(t *testing.T) {
	var w Waits
	for i := range 11 { // past the first ring of 8, then wrapped by the reads
		w.Add(float64(i + 1))
	}
	w.Queued(5)
	w.Clear()
	if q, nx := w.Queued(5), w.Next(); q != 0 || !math.IsInf(nx, 1) {
		t.Fatalf("cleared: %d queued, next %v; want 0 and +Inf", q, nx)
	}
	for i := range 20 {
		w.Add(float64(10 + i))
	}
	if q, nx := w.Queued(14), w.Next(); q != 15 || nx != 15 {
		t.Fatalf("refilled: %d queued after 14, next %v; want 15 and 15", q, nx)
	}
}
