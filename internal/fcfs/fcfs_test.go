package fcfs

import (
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
