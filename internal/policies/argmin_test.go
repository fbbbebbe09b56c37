package policies

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMinIndexIsOffer: minIndex chooses what offering the same values in
// order to an argmin chooses, drawing the same random numbers, over slices
// of one to six values from a small set, so that ties of two and more,
// NaNs and infinities come often; the ties it breaks are uniform.
func TestMinIndexIsOffer(t *testing.T) {
	vals := []float64{1, 2, 2, 3, math.NaN(), math.Inf(1), math.Inf(-1), 0}
	pick := rand.New(rand.NewPCG(3, 4))
	ties := 0
	for k := range 20000 {
		xs := make([]float64, 1+pick.IntN(6))
		for i := range xs {
			xs[i] = vals[pick.IntN(len(vals))]
		}
		a, b := rand.New(rand.NewPCG(uint64(k), 1)), rand.New(rand.NewPCG(uint64(k), 1))
		var m argmin
		for i, x := range xs {
			m.offer(i, x, a)
		}
		if got := minIndex(xs, b); got != m.best {
			t.Fatalf("%v: minIndex %d, offer %d", xs, got, m.best)
		}
		if a.Uint64() != b.Uint64() {
			t.Fatalf("%v: minIndex and offer drew different numbers", xs)
		}
		if m.ties > 1 {
			ties++
		}
	}
	if ties < 1000 {
		t.Fatalf("only %d of 20000 cases tied", ties)
	}
	// Three equal values: each index a third of the time.
	counts := make([]int, 3)
	r := rand.New(rand.NewPCG(7, 7))
	for range 30000 {
		counts[minIndex([]float64{5, 5, 5}, r)]++
	}
	checkUniform(t, "minIndex of three ties", counts)
}
