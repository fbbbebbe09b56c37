package stats

import "math"

// Truncation is where MSER puts the end of a series' warm-up.
type Truncation struct {
	// Discard is the number of leading observations to drop: d*·m, a
	// multiple of the batch size.
	Discard int
	// Batches is k = ⌊n/m⌋, the batch means the rule looked at; the last
	// n − k·m observations fill no batch and are not looked at (they are
	// kept: only the first Discard are dropped).
	Batches int
	// Stat is MSER(d*), the minimum of the statistic (NaN when k < 2).
	Stat float64
	// TooShort: the series cannot show its steady state to the rule, either
	// because it has fewer than two batches or because the minimum lies at
	// the end of the range searched (the first half), where the series is
	// likely still drifting. The run should be longer; Discard is still the
	// rule's answer over the range it was allowed.
	TooShort bool
}

// MSER5 returns the MSER-5 truncation point of y: MSER with batches of
// five observations, the form White, Cobb & Spratt recommend.
func MSER5(y []float64) Truncation { return MSER(y, 5) }

// MSER returns the MSER-m truncation point of the series y (White,
// "An effective truncation heuristic for bias reduction in simulation
// output", Simulation 69(6), 1997; White, Cobb & Spratt, "A comparison of
// five steady-state truncation heuristics for simulation", Proc. Winter
// Simulation Conference 2000). With the k = ⌊n/m⌋ batch means
// Z_j = (1/m)·Σ y over batch j, j = 1…k, it returns the d* minimising the
// marginal standard error
//
//	MSER(d) = 1/(k − d)² · Σ_{j=d+1..k} (Z_j − Z̄_d)²,   Z̄_d the mean of Z_{d+1..k},
//
// over 0 ≤ d ≤ min(⌊k/2⌋, k − 2): truncating trades the bias of the
// early batches against the variance of a shorter mean, and the rule is
// searched over the first half only, as White, Cobb & Spratt do, because
// near the end of a series the statistic is computed from a few batches
// and is erratic. Ties go to the smaller d.
//
// It is one pass from the end, with Welford's update of the sum of squares
// (Welford, Technometrics 4(3), 1962), so that a series far from 0 loses no
// digits; it allocates nothing.
func MSER(y []float64, m int) Truncation {
	if m < 1 {
		panic("stats: MSER needs a batch size of at least 1")
	}
	k := len(y) / m
	t := Truncation{Batches: k, Stat: math.NaN(), TooShort: true}
	if k < 2 {
		return t
	}
	dmax := min(k/2, k-2)
	var mean, m2 float64
	best := -1
	for j := k - 1; j >= 0; j-- {
		var s float64
		for _, x := range y[j*m : (j+1)*m] {
			s += x
		}
		z := s / float64(m)
		c := float64(k - j)
		delta := z - mean
		mean += delta / c
		m2 += delta * (z - mean)
		if j > dmax {
			continue
		}
		if stat := m2 / (c * c); best < 0 || stat <= t.Stat {
			best, t.Stat = j, stat
		}
	}
	t.Discard = best * m
	t.TooShort = best == dmax
	return t
}
