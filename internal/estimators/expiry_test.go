package estimators

import (
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// TestChangedListsEveryCountThatMoved: after dispatches at random times,
// some far apart (whole windows pass) and some within one bucket, every
// tier whose window count differs from what it was at the previous call
// of Changed is in what Changed returns; tiers with no dispatch in a
// bucket that left are not; and the counts of the tiers not listed, read
// without advancing their windows in between, are what a fresh read
// gives. Buckets of 0.1 s at the default window.
func TestChangedListsEveryCountThatMoved(t *testing.T) {
	const n = 40
	tiers := make([]dispatch.Tier, n)
	for i := range tiers {
		tiers[i] = dispatch.Tier{Name: "t", Servers: 1 + i%5, Mu: 10, Speed: 10}
	}
	e, err := NewEstimator(tiers, defaultConfig(ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 3))
	// Dispatches before Follow: it must start from the windows as they are.
	for k := range 300 {
		e.Observe(float64(k)*0.02, k%n)
	}
	e.Follow(6)
	before := make([]int, n)
	for i := range n {
		before[i] = e.tiers[i].window.Count(6)
	}
	now, listed, quiet := 6.0, 0, 0
	for step := range 20000 {
		switch k := r.IntN(100); {
		case k < 2:
			now += 5 + 20*r.Float64() // half a window to more than two
		case k < 50:
			now += r.Float64() * 0.05
		default:
			now += r.ExpFloat64() * 0.3
		}
		for range r.IntN(3) {
			e.Observe(now, r.IntN(n)*r.IntN(2)) // tier 0 half the time
		}
		in := map[int]bool{}
		for _, i := range e.Changed(now) {
			in[int(i)] = true
		}
		for i := range n {
			c := e.tiers[i].window.Count(now)
			if c != before[i] && !in[i] {
				t.Fatalf("step %d, t=%v: tier %d went from %d to %d, not listed", step, now, i, before[i], c)
			}
			if in[i] {
				listed++
			} else {
				quiet++
			}
			before[i] = c
		}
	}
	if listed == 0 || quiet < 10*listed {
		t.Errorf("%d tiers listed, %d not: the lists should be a small part of the tiers", listed, quiet)
	}
}
