package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Level is the confidence level of every interval of this package, the
// level of summary.csv's intervals.
const Level = 0.95

// Alpha is 1 − Level: the two-sided error of an interval and the
// family-wise error of a set of comparisons.
const Alpha = 1 - Level

// Estimate is a point estimate with its 95% confidence interval.
type Estimate struct {
	Center       float64 // the mean or the median of the values; NaN without one
	Lower, Upper float64 // the interval; NaN when the values are too few for one
	// Half is the half-width: t·s/√n for a mean; for an order-statistics
	// interval, which need not be symmetric, the longer of its two sides,
	// so that [Lower, Upper] ⊆ [Center − Half, Center + Half].
	Half float64
	N    int // the finite values used
}

// Relative returns the half-width relative to the center, Half/|Center|:
// the precision the sequential rule compares with its target. It is 0 when
// the interval has no width (every value equal, even if 0), +Inf when the
// center is 0 and the interval is not, and NaN without an interval.
func (e Estimate) Relative() float64 {
	switch {
	case math.IsNaN(e.Half):
		return math.NaN()
	case e.Half == 0:
		return 0
	}
	return e.Half / math.Abs(e.Center)
}

// Covers reports whether x lies in the interval, ends included.
func (e Estimate) Covers(x float64) bool { return e.Lower <= x && x <= e.Upper }

// TQuantile returns the 1 − Alpha/2 quantile of Student's t with df degrees
// of freedom (2.2281388519649 for df = 10), the multiplier of a two-sided
// 95% interval.
func TQuantile(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - Alpha/2)
}

// MeanCI returns the mean of the finite values of xs and its Student-t
// interval x̄ ± t_{n−1, 0.975}·s/√n, with s² = Σ(x − x̄)²/(n − 1) (Student
// 1908; Law & Kelton, Simulation Modeling and Analysis, §4.5). NaN and ±Inf
// are skipped, as summary.csv skips a missing measurement, and the sum of
// squares is taken about the mean in a second pass, as results.MeanCI95
// does, so that Half/Center here is summary.csv's ci95/mean to the bit.
// Center is NaN without a finite value, the interval NaN below two.
func MeanCI(xs []float64) Estimate {
	mean, sd, n := meanSD(xs)
	return tInterval(mean, sd, n)
}

// meanSD returns the mean and the standard deviation (n − 1 in the
// denominator) of the finite values of xs, and their count; NaN where
// they are undefined.
func meanSD(xs []float64) (mean, sd float64, n int) {
	var sum float64
	for _, x := range xs {
		if isFinite(x) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	mean = sum / float64(n)
	if n < 2 {
		return mean, math.NaN(), n
	}
	var ss float64
	for _, x := range xs {
		if isFinite(x) {
			d := x - mean
			ss += d * d
		}
	}
	return mean, math.Sqrt(ss / float64(n-1)), n
}

// tInterval is the Student-t interval of a mean from n values of
// standard deviation sd.
func tInterval(mean, sd float64, n int) Estimate {
	e := Estimate{Center: mean, Lower: math.NaN(), Upper: math.NaN(), Half: math.NaN(), N: n}
	if n < 2 {
		return e
	}
	e.Half = TQuantile(n-1) * sd / math.Sqrt(float64(n))
	e.Lower, e.Upper = e.Center-e.Half, e.Center+e.Half
	return e
}

// MedianCI returns the median of the finite values of xs and its
// distribution-free interval [x₍ₗ₎, x₍ₙ₋ₗ₊₁₎] between order statistics, with
// l the largest index such that 2·P(B ≤ l − 1) ≤ Alpha for B ~ Bin(n, ½)
// (Thompson 1936; Conover, Practical Nonparametric Statistics, 3rd ed.,
// §3.2; David & Nagaraja, Order Statistics, 3rd ed., §7.1). For any
// continuous law of the values its coverage is exactly 1 − 2·P(B ≤ l − 1),
// at least 95% (97.9% at n = 10, [x₍₂₎, x₍₉₎]); the discreteness makes it
// conservative. It needs n ≥ 6 (2·2⁻⁶ ≤ 0.05): below, the interval is NaN.
// The median of an even count is the mean of the two middle values.
//
// It copies the finite values to sort them: one allocation of n values.
func MedianCI(xs []float64) Estimate {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if isFinite(x) {
			v = append(v, x)
		}
	}
	n := len(v)
	e := Estimate{Center: math.NaN(), Lower: math.NaN(), Upper: math.NaN(), Half: math.NaN(), N: n}
	if n == 0 {
		return e
	}
	slices.Sort(v)
	e.Center = (v[(n-1)/2] + v[n/2]) / 2
	l := medianRank(n)
	if l == 0 {
		return e
	}
	e.Lower, e.Upper = v[l-1], v[n-l]
	e.Half = max(e.Upper-e.Center, e.Center-e.Lower)
	return e
}

// medianRank returns the rank l (1-based) of the lower end of MedianCI's
// interval for n values, or 0 when no l has 2·P(B ≤ l − 1) ≤ Alpha. The
// binomial CDF grows with l, so l is found by bisection on [1, ⌈n/2⌉].
func medianRank(n int) int {
	b := distuv.Binomial{N: float64(n), P: 0.5}
	ok := func(l int) bool { return 2*b.CDF(float64(l-1)) <= Alpha }
	if !ok(1) {
		return 0
	}
	lo, hi := 1, (n+1)/2 // ok(lo) holds; find the last l ≤ hi with ok(l)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// ClopperPearson returns the exact two-sided 95% interval of a binomial
// proportion after k successes in n trials (Clopper & Pearson, Biometrika
// 26(4), 1934): the lower end is the Beta(k, n − k + 1) quantile at
// Alpha/2 (0 when k = 0), the upper the Beta(k + 1, n − k) quantile at
// 1 − Alpha/2 (1 when k = n). Equivalently P(Bin(n, lower) ≥ k) = Alpha/2
// and P(Bin(n, upper) ≤ k) = Alpha/2. It panics unless 0 ≤ k ≤ n and n ≥ 1.
func ClopperPearson(k, n int) (lower, upper float64) {
	if n < 1 || k < 0 || k > n {
		panic("stats: ClopperPearson needs 0 ≤ k ≤ n and n ≥ 1")
	}
	lower, upper = 0, 1
	if k > 0 {
		lower = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(Alpha / 2)
	}
	if k < n {
		upper = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - Alpha/2)
	}
	return lower, upper
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
