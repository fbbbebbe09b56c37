package policies

import (
	"math"
	"math/rand/v2"
)

// argmin tracks the index of the smallest value offered so far, breaking
// ties uniformly at random by reservoir sampling: the k-th tying index
// replaces the current choice with probability 1/k. It draws a random number
// only on a tie and allocates nothing.
type argmin struct {
	best int
	val  float64
	ties int // how many indices share val; 0 before the first offer
}

// offer considers index i with value x. NaN is never chosen over a number.
func (m *argmin) offer(i int, x float64, rng *rand.Rand) {
	switch {
	case m.ties == 0 || below(x, m.val):
		m.best, m.val, m.ties = i, x, 1
	case x == m.val:
		m.ties++
		if rng.IntN(m.ties) == 0 {
			m.best = i
		}
	}
}

// below reports whether x replaces val as the minimum: it is smaller, or
// val is NaN and x a number.
func below(x, val float64) bool { return x < val || (math.IsNaN(val) && !math.IsNaN(x)) }
