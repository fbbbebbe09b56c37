package estimators

import (
	"math"
	"testing"
)

func TestRateWindowKnownPattern(t *testing.T) {
	// One arrival every second at t = 1, 2, …, 20, window 10 s in 10 buckets
	// of 1 s, queried at whole seconds where the buckets are exact.
	w, err := NewRateWindow(10, 10)
	if err != nil {
		t.Fatal(err)
	}
	type query struct {
		t         float64
		wantCount int
		wantRate  float64
		why       string
	}
	queries := map[int][]query{ // after the arrival at second k
		1:  {{1, 1, 1, "1 arrival over the 1 s floor"}},
		5:  {{5, 5, 1, "5 arrivals over min(w, t) = 5 s"}},
		10: {{10, 10, 1, "(0, 10] holds 1..10"}},
		15: {{15, 10, 1, "(5, 15] holds 6..15: 1..5 expired"}},
		20: {{20, 10, 1, "(10, 20]"}, {25, 5, 0.5, "(15, 25] holds 16..20"}, {30, 0, 0, "(20, 30] is empty"}, {100, 0, 0, "long silence"}},
	}
	for k := 1; k <= 20; k++ {
		w.Add(float64(k))
		for _, q := range queries[k] {
			if got := w.Count(q.t); got != q.wantCount {
				t.Errorf("after arrivals at 1..%d: Count(%g) = %d, want %d (%s)", k, q.t, got, q.wantCount, q.why)
			}
			if got := w.Rate(q.t); math.Abs(got-q.wantRate) > 1e-15 {
				t.Errorf("after arrivals at 1..%d: Rate(%g) = %g, want %g (%s)", k, q.t, got, q.wantRate, q.why)
			}
		}
	}
}

func TestRateWindowStartupFloor(t *testing.T) {
	w, _ := NewRateWindow(10, 100)
	tests := []struct {
		arrivals []float64
		at, want float64
	}{
		{[]float64{0.01}, 0.01, 1},                // 1 task/1 s, not 100/s
		{[]float64{0.1, 0.2, 0.3}, 0.5, 4},        // 4 tasks in all, still under 1 s
		{[]float64{1.5, 1.7, 1.9, 2}, 2, 8.0 / 2}, // 8 tasks over 2 s
	}
	for _, tt := range tests {
		for _, a := range tt.arrivals {
			w.Add(a)
		}
		if got := w.Rate(tt.at); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Rate(%g) after arrivals up to %v = %g, want %g", tt.at, tt.arrivals, got, tt.want)
		}
	}
}

func TestRateWindowBucketError(t *testing.T) {
	// Between bucket edges the window loses at most one bucket at its old
	// edge: at t = 10.5 with 1 s buckets it covers (1, 10.5], not (0.5, 10.5],
	// so 0.75 and 1 have already expired.
	w, _ := NewRateWindow(10, 10)
	for _, a := range []float64{0.75, 1, 1.25, 2, 10} {
		w.Add(a)
	}
	if got, want := w.Count(10.5), 3; got != want {
		t.Errorf("Count(10.5) with arrivals 0.75, 1, 1.25, 2, 10 = %d, want %d (exact window: 5)", got, want)
	}
	fine, _ := NewRateWindow(10, 1000) // 10 ms buckets: exact at 10.5
	for _, a := range []float64{0.75, 1, 1.25, 2, 10} {
		fine.Add(a)
	}
	if got, want := fine.Count(10.5), 5; got != want {
		t.Errorf("1000 buckets: Count(10.5) = %d, want %d", got, want)
	}
}

func TestRateWindowTimeGoingBack(t *testing.T) {
	w, _ := NewRateWindow(10, 10)
	w.Add(5)
	w.Add(4) // counted at the latest time seen
	if got := w.Count(5); got != 2 {
		t.Errorf("Count(5) = %d, want 2", got)
	}
}

func TestNewRateWindowErrors(t *testing.T) {
	for _, tt := range []struct {
		w float64
		b int
	}{{0, 10}, {-1, 10}, {math.Inf(1), 10}, {math.NaN(), 10}, {10, 0}} {
		if _, err := NewRateWindow(tt.w, tt.b); err == nil {
			t.Errorf("NewRateWindow(%g, %d): want an error", tt.w, tt.b)
		}
	}
}
