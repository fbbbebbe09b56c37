package observe

import "testing"

// TestHistoryAt: a look back reads the count as of the last change at or
// before it, within the horizon, across the compactions of a long run; a
// look older than the horizon reads the oldest state kept.
func TestHistoryAt(t *testing.T) {
	const horizon = 5.0
	h := NewHistory()
	for k := 1; k <= 5000; k++ {
		h.Add(float64(k), k%7, horizon)
		now := float64(k)
		for _, back := range []float64{0, 0.5, 1, 2.5, horizon} {
			at := now - back
			want := 0 // the count from time 0 until the first change, and before
			if at >= 1 {
				want = int(at) % 7 // the change at ⌊at⌋
			}
			if got := h.At(at); got != want {
				t.Fatalf("at %v (now %v): %d, want %d", at, now, got, want)
			}
		}
	}
	if got, want := h.At(0), (5000-5)%7; got != want {
		t.Errorf("a look past the horizon reads %d, want the oldest kept, %d", got, want)
	}
}

// TestParseModel: every model reads back from its spelling.
func TestParseModel(t *testing.T) {
	for m := Fresh; m <= Delayed; m++ {
		if got, err := Parse(m.String()); err != nil || got != m {
			t.Errorf("%v: read back as %v, %v", m, got, err)
		}
	}
	if _, err := Parse("stale"); err == nil {
		t.Error("an unknown model is accepted")
	}
}
