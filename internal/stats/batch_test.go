package stats

import (
	"math"
	"os"
	"strings"
	"testing"
)

func TestBatchMeansRejects(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want string
	}{{100, 2, "--batches 2: at least 3"}, {100, 0, "--batches 0:"}, {5, 6, "--batches 6: more batches than the 5"}} {
		if _, err := BatchMeans(make([]float64, c.n), c.k); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d values in %d batches: error %v, want %q", c.n, c.k, err, c.want)
		}
	}
}

// TestBatchMeansByHand: 3…14 in three batches of four (the first two of
// 1…14 left out) have means 4.5, 8.5 and 12.5: mean 8.5, s = 4, half-width
// t₂·4/√3; deviations −4, 0, 4 give r₁ = 0 and C = 1 − 32/64 = ½.
func TestBatchMeansByHand(t *testing.T) {
	y := make([]float64, 14)
	for i := range y {
		y[i] = float64(i + 1)
	}
	b, err := BatchMeans(y, 3)
	if err != nil {
		t.Fatal(err)
	}
	t2 := 0.95 / math.Sqrt(2*0.975*0.025) // t_{2, p} = (2p − 1)/√(2p(1 − p))
	half := t2 * 4 / math.Sqrt(3)
	if b.K != 3 || b.Size != 4 || b.Skipped != 2 || b.N != 3 || b.Center != 8.5 || !near(b.Half, half, 1e-12) ||
		b.Lower != 8.5-b.Half || b.Lag1 != 0 || b.C != 0.5 {
		t.Errorf("1…14 in 3 batches: %+v, want mean 8.5 ± %v, r₁ 0, C ½, 2 skipped", b, half)
	}
	flat, _ := BatchMeans(make([]float64, 30), 10)
	if flat.Half != 0 || flat.Lag1 != 0 || flat.C != 0 || flat.Correlated {
		t.Errorf("a constant series: %+v, want no width and no correlation", flat)
	}
}

// TestYoungCUnderIndependence: with k independent normal batch means, C
// has mean 0 and variance (k − 2)/(k² − 1) (Young 1941), and the one-sided
// test at 5% rejects close to 5% of the time. 10,000 sets of k means:
// the mean of C within 4 standard errors of 0, its variance within 6%
// (4 standard errors of a sample variance of a near-normal statistic are
// 4·√(2/10,000) = 5.7%), and the rejection rate within 0.01 (4.6 binomial
// standard deviations) of 0.05.
// Measured rejection rates: 0.0511 (k = 8), 0.0462 (10), 0.0510 (20),
// 0.0515 (30); k = 10 and 30 run with OFFLOAD_LONG=1 only (each t
// quantile of the intervals costs tens of microseconds).
func TestYoungCUnderIndependence(t *testing.T) {
	study(t)
	const trials = 10000
	ks := []int{8, 20}
	if os.Getenv("OFFLOAD_LONG") != "" {
		ks = []int{8, 10, 20, 30}
	}
	for _, k := range ks {
		y := make([]float64, k)
		var sum, ss float64
		rejected := 0
		for trial := range trials {
			r := rng(30, k, trial)
			for i := range y {
				y[i] = 5 + r.NormFloat64()
			}
			b, err := BatchMeans(y, k) // batches of one: the values are the batch means
			if err != nil {
				t.Fatal(err)
			}
			if !near(b.C-b.Lag1, ((y[0]-b.Center)*(y[0]-b.Center)+(y[k-1]-b.Center)*(y[k-1]-b.Center))/(2*ssAbout(y, b.Center)), 1e-9) {
				t.Fatalf("k = %d: C − r₁ = %v is not the end terms' share", k, b.C-b.Lag1)
			}
			sum += b.C
			ss += b.C * b.C
			if b.Correlated {
				rejected++
			}
		}
		kf := float64(k)
		wantVar := (kf - 2) / (kf*kf - 1)
		mean := sum / trials
		variance := ss/trials - mean*mean
		rate := float64(rejected) / trials
		t.Logf("k = %d: C mean %.4f, variance %.4f (theory %.4f), rejected %.4f", k, mean, variance, wantVar, rate)
		if math.Abs(mean) > 4*math.Sqrt(wantVar/trials) || math.Abs(variance/wantVar-1) > 0.06 {
			t.Errorf("k = %d: C has mean %.4f and variance %.4f, want 0 and %.4f", k, mean, variance, wantVar)
		}
		if math.Abs(rate-0.05) > 0.01 {
			t.Errorf("k = %d: independent means flagged %.4f of the time, want 0.05 ± 0.01", k, rate)
		}
	}
}

func ssAbout(y []float64, m float64) float64 {
	var s float64
	for _, x := range y {
		s += (x - m) * (x - m)
	}
	return s
}

// ar1 fills y with a stationary AR(1) series of unit variance,
// x_{i+1} = φ·x_i + √(1 − φ²)·ε_i.
func ar1(study, run int, phi float64, y []float64) {
	r := rng(study, run, 0)
	x := r.NormFloat64()
	for i := range y {
		y[i] = x
		x = phi*x + math.Sqrt(1-phi*phi)*r.NormFloat64()
	}
}

// ar1BatchLag1 is the exact lag-1 correlation of the means of consecutive
// batches of b values of a unit-variance AR(1) series, from the
// autocovariances φ^|s−t| summed over the batches' pairs.
func ar1BatchLag1(phi float64, b int) float64 {
	var within, across float64
	for s := range b {
		for u := range b {
			within += math.Pow(phi, math.Abs(float64(s-u)))
			across += math.Pow(phi, float64(b+u-s))
		}
	}
	return across / within
}

// TestBatchLag1OnAR1: on AR(1) series the batch means' r₁ estimates the
// exact lag-1 correlation: with φ = 0.8 and batches of 10 (k = 1,000) it
// is 0.2935; over 200 series the mean r₁ must be within 4 standard errors
// plus the estimator's O(1/k) bias, (1 + 3ρ)/k (Kendall 1954), of it. In
// 20 batches of a strongly correlated series (φ = 0.9), batches of 2
// (exact r₁ 0.855) are flagged Correlated in nearly every series, batches
// of 10 (0.525) in most, and batches of 2,000 (0.0024) at about the
// test's 5%.
func TestBatchLag1OnAR1(t *testing.T) {
	study(t)
	const phi, b, k, series = 0.8, 10, 1000, 200
	want := ar1BatchLag1(phi, b)
	y := make([]float64, b*k)
	var sum, ss float64
	for run := range series {
		ar1(31, run, phi, y)
		bm, err := BatchMeans(y, k)
		if err != nil {
			t.Fatal(err)
		}
		sum += bm.Lag1
		ss += bm.Lag1 * bm.Lag1
	}
	mean := sum / series
	se := math.Sqrt((ss/series - mean*mean) / series)
	tol := (1+3*want)/k + 4*se
	t.Logf("φ = %v, b = %d: r₁ %.4f ± %.4f over %d series, exact %.4f", phi, b, mean, se, series, want)
	if math.Abs(mean-want) > tol {
		t.Errorf("mean r₁ %.4f, exact %.4f: off by more than %.4f", mean, want, tol)
	}
	flagged := func(b int) int {
		n := 0
		y := make([]float64, b*20)
		for run := range 100 {
			ar1(32, run, 0.9, y)
			if bm, _ := BatchMeans(y, 20); bm.Correlated {
				n++
			}
		}
		return n
	}
	short, medium, long := flagged(2), flagged(10), flagged(2000)
	t.Logf("φ = 0.9 in 20 batches: flagged %d/100 with batches of 2 (exact r₁ %.3f), %d/100 with 10 (%.3f), %d/100 with 2,000 (%.4f)",
		short, ar1BatchLag1(0.9, 2), medium, ar1BatchLag1(0.9, 10), long, ar1BatchLag1(0.9, 2000))
	if short < 90 || medium < 50 || long > 15 {
		t.Errorf("flagged %d, %d and %d of 100 runs with batches of 2, 10 and 2,000, want at least 90, at least 50, at most 15", short, medium, long)
	}
}

// TestBatchMeansCoverage: AR(1) with φ = 0.5, 10,000 values in 20 batches
// of 500, whose means are nearly independent (exact r₁ 0.004): over 1,000
// series the interval must hold the true mean 0 at 95% within 4 binomial
// standard deviations (±0.028).
func TestBatchMeansCoverage(t *testing.T) {
	study(t)
	const series = 1000
	y := make([]float64, 10000)
	covered := 0
	for run := range series {
		ar1(33, run, 0.5, y)
		bm, err := BatchMeans(y, 20)
		if err != nil {
			t.Fatal(err)
		}
		if bm.Covers(0) {
			covered++
		}
	}
	rate := float64(covered) / series
	t.Logf("coverage %d/%d = %.3f", covered, series, rate)
	if sd := math.Sqrt(0.95 * 0.05 / series); math.Abs(rate-0.95) > 4*sd {
		t.Errorf("coverage %.3f over %d series, want 0.95 ± %.3f", rate, series, 4*sd)
	}
}
