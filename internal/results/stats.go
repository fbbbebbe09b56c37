package results

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI95 returns the mean of the finite values of xs, the half-width of
// its two-sided 95% Student-t confidence interval, and how many values were
// used. NaN and ±Inf are skipped: a missing measurement must not poison the
// other replicates. The mean is NaN when no value is usable and the
// half-width is NaN when fewer than two are (a single replicate says nothing
// about spread).
func MeanCI95(xs []float64) (mean, ci95 float64, n int) {
	mean, sd, n := meanSD(xs)
	if n < 2 {
		return mean, math.NaN(), n
	}
	return mean, TQuantile975(n-1) * sd / math.Sqrt(float64(n)), n
}

// meanSD returns the mean and the sample standard deviation (NaN with
// fewer than two values) of the finite values of xs, and their count.
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
	// Two-pass variance: the values (latencies near one another) would lose
	// digits in the one-pass sum of squares.
	var ss float64
	for _, x := range xs {
		if isFinite(x) {
			d := x - mean
			ss += d * d
		}
	}
	return mean, math.Sqrt(ss / float64(n-1)), n
}

// TQuantile975 returns the 0.975 quantile of Student's t with df degrees of
// freedom (2.776445105 for df = 4), the multiplier of a 95% interval.
func TQuantile975(df int) float64 { return tQuantile(0.975, df) }

// tQuantile returns the p quantile of Student's t with df degrees of freedom.
func tQuantile(p float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
}

// PairedDiff returns the mean of the per-replicate differences a[i] − b[i],
// the half-width of its 95% Student-t interval and the number of pairs used.
// a and b are indexed by replicate; a pair with a missing (non-finite) side
// is skipped, as are replicates beyond the shorter slice. Pairing removes the
// variation common to both (common random numbers), which is why claims use
// it rather than two independent intervals.
func PairedDiff(a, b []float64) (mean, ci95 float64, n int) {
	d := make([]float64, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		if isFinite(a[i]) && isFinite(b[i]) {
			d = append(d, a[i]-b[i])
		}
	}
	return MeanCI95(d)
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
