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

// minIndex is the index of the smallest of xs (at least one) by offer's
// rule: ties uniformly at random by reservoir sampling, a random number
// drawn only on a tie, NaN never chosen over a number. One call for the
// whole slice, where offer is a call an index (it does not inline): the
// hybrid's decision, whose scores are a slice already.
func minIndex(xs []float64, rng *rand.Rand) int {
	best, val, ties := 0, xs[0], 1
	for i := 1; i < len(xs); i++ {
		switch x := xs[i]; {
		case below(x, val):
			best, val, ties = i, x, 1
		case x == val:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}

// below reports whether x replaces val as the minimum: it is smaller, or
// val is NaN and x a number. offer and minIndex share it.
func below(x, val float64) bool { return x < val || (math.IsNaN(val) && !math.IsNaN(x)) }
