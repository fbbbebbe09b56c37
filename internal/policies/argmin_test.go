package policies

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOfferTakesTheMinimum: offering values in order leaves the index of
// a smallest one, a number over any NaN, over slices of one to six values
// from a small set (ties, NaNs and infinities come often); the ties it
// breaks are uniform.
func TestOfferTakesTheMinimum(t *testing.T) {
	vals := []float64{1, 2, 2, 3, math.NaN(), math.Inf(1), math.Inf(-1), 0}
	pick := rand.New(rand.NewPCG(3, 4))
	for k := range 20000 {
		xs := make([]float64, 1+pick.IntN(6))
		for i := range xs {
			xs[i] = vals[pick.IntN(len(vals))]
		}
		var m argmin
		r := rand.New(rand.NewPCG(uint64(k), 1))
		for i, x := range xs {
			m.offer(i, x, r)
		}
		for i, x := range xs {
			if below(x, xs[m.best]) {
				t.Fatalf("%v: offer chose %d, but %d is smaller", xs, m.best, i)
			}
		}
	}
	// Three equal values: each index a third of the time.
	counts := make([]int, 3)
	r := rand.New(rand.NewPCG(7, 7))
	for range 30000 {
		var m argmin
		for i := range 3 {
			m.offer(i, 5, r)
		}
		counts[m.best]++
	}
	checkUniform(t, "offer of three ties", counts)
}
