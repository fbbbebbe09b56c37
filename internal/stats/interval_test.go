package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// sleepDiff is Student's (1908) sleep data as R ships it (datasets::sleep):
// the extra hours of sleep under drug 2 minus drug 1 for ten patients.
var sleepDiff = []float64{1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

// TestMeanCIAgainstStudentsSleepData: R's t.test(extra ~ group, data =
// sleep, paired = TRUE) gives the mean difference 1.58 and the 95% interval
// 0.7001142 to 2.4598858 (printed to 7 significant digits).
func TestMeanCIAgainstStudentsSleepData(t *testing.T) {
	e := MeanCI(sleepDiff)
	if e.N != 10 || !near(e.Center, 1.58, 1e-14) {
		t.Fatalf("mean %v over %d, want 1.58 over 10", e.Center, e.N)
	}
	if !near(e.Lower, 0.7001142, 2e-7) || !near(e.Upper, 2.4598858, 2e-7) {
		t.Errorf("interval [%.7f, %.7f], want [0.7001142, 2.4598858]", e.Lower, e.Upper)
	}
	if !near(e.Relative(), e.Half/1.58, 1e-15) {
		t.Errorf("relative %v, want half/mean %v", e.Relative(), e.Half/1.58)
	}
}

func TestTQuantileTable(t *testing.T) {
	// Student t 0.975 quantiles from any table (Abramowitz & Stegun 26.10).
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 12.7062047}, {4, 2.7764451}, {9, 2.2621572}, {10, 2.2281389}, {30, 2.0422725}, {1000, 1.9623391}} {
		if got := TQuantile(c.df); !near(got, c.want, 1e-7) {
			t.Errorf("t(%d) = %.8f, want %.7f", c.df, got, c.want)
		}
	}
}

func TestMeanCISkipsNonFinite(t *testing.T) {
	withGaps := append([]float64{math.NaN(), math.Inf(1)}, sleepDiff...)
	withGaps = append(withGaps, math.Inf(-1))
	if a, b := MeanCI(withGaps), MeanCI(sleepDiff); a != b {
		t.Errorf("with non-finite values %+v, without %+v", a, b)
	}
	for _, c := range []struct {
		name string
		xs   []float64
	}{{"none", nil}, {"only NaN", []float64{math.NaN()}}} {
		if e := MeanCI(c.xs); !math.IsNaN(e.Center) || !math.IsNaN(e.Half) || e.N != 0 {
			t.Errorf("%s: %+v, want NaN center and interval", c.name, e)
		}
	}
	one := MeanCI([]float64{3})
	if one.Center != 3 || !math.IsNaN(one.Half) || !math.IsNaN(one.Relative()) || one.Covers(3) {
		t.Errorf("one value: %+v, want center 3 and no interval", one)
	}
}

func TestRelativeEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		e    Estimate
		want float64
	}{
		{"equal values", MeanCI([]float64{2, 2, 2}), 0},
		{"all zero", MeanCI([]float64{0, 0, 0}), 0},
		{"center zero", MeanCI([]float64{-1, 1}), math.Inf(1)},
		{"negative center", MeanCI([]float64{-2, -4}), MeanCI([]float64{2, 4}).Relative()},
		{"no interval", MeanCI([]float64{1}), math.NaN()},
	} {
		got := c.e.Relative()
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s: relative %v, want %v", c.name, got, c.want)
		}
	}
}

// TestMedianRankAgainstExactBinomial: the rank of the lower order statistic
// is the largest l with 2·P(B ≤ l − 1) ≤ 0.05, computed here in exact
// integers (2·Σ_{i<l} C(n, i) ≤ 2ⁿ/20): n = 6 gives [x₍₁₎, x₍₆₎], 10 gives
// [x₍₂₎, x₍₉₎], 20 gives [x₍₆₎, x₍₁₅₎], the values of nonparametric tables;
// n = 5 has none.
func TestMedianRankAgainstExactBinomial(t *testing.T) {
	for n := 1; n <= 1000; n++ {
		// 40·Σ_{i<l} C(n, i) ≤ 2ⁿ, with C(n, i) updated from C(n, i−1).
		limit := new(big.Int).Lsh(big.NewInt(1), uint(n))
		sum, term := new(big.Int), big.NewInt(1)
		want := 0
		for l := 1; 2*(l-1) < n; l++ {
			sum.Add(sum, term) // Σ_{i ≤ l−1} C(n, i)
			if new(big.Int).Mul(sum, big.NewInt(40)).Cmp(limit) > 0 {
				break
			}
			want = l
			term.Mul(term, big.NewInt(int64(n-l+1)))
			term.Quo(term, big.NewInt(int64(l)))
		}
		if got := medianRank(n); got != want {
			t.Errorf("n = %d: rank %d, want %d", n, got, want)
		}
	}
	for n, want := range map[int]int{5: 0, 6: 1, 10: 2, 20: 6} {
		if got := medianRank(n); got != want {
			t.Errorf("n = %d: rank %d, want %d", n, got, want)
		}
	}
}

func TestMedianCIOrderStatistics(t *testing.T) {
	xs := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10, math.NaN()} // 1…10 shuffled, one NaN
	e := MedianCI(xs)
	if e.N != 10 || e.Center != 5.5 || e.Lower != 2 || e.Upper != 9 || e.Half != 3.5 {
		t.Errorf("1…10: %+v, want median 5.5 in [2, 9], half 3.5", e)
	}
	skew := MedianCI([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 100})
	if skew.Upper != 9 || skew.Half != 3.5 {
		t.Errorf("one outlier moved the interval: %+v", skew)
	}
	odd := MedianCI([]float64{5, 1, 4, 2, 3, 7, 6})
	if odd.Center != 4 || odd.Lower != 1 || odd.Upper != 7 || odd.Half != 3 {
		t.Errorf("1…7: %+v, want median 4 in [1, 7]", odd)
	}
	asym := MedianCI([]float64{1, 2, 3, 4, 5, 20})
	if asym.Center != 3.5 || asym.Half != 16.5 || asym.Relative() != 16.5/3.5 {
		t.Errorf("asymmetric: %+v, want the longer side 16.5 as the half-width", asym)
	}
	if e := MedianCI([]float64{1, 2, 3, 4, 5}); e.Center != 3 || !math.IsNaN(e.Lower) || !math.IsNaN(e.Half) {
		t.Errorf("five values: %+v, want a median and no interval", e)
	}
}

// TestMedianCICoverage: for any continuous law the interval's coverage is
// 1 − 2·P(B ≤ l − 1) exactly; on a lognormal (skewed) law with n = 10 that
// is 1 − 2·11/1024 = 0.978515625. 20,000 intervals put the observed rate
// within 4 binomial standard deviations (0.0041) of it.
func TestMedianCICoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	const trials, n = 20000, 10
	median := math.Exp(0.0) // lognormal(0, 1.5)'s median
	want := 1 - 2*11.0/1024
	covered := 0
	xs := make([]float64, n)
	for range trials {
		for i := range xs {
			xs[i] = math.Exp(1.5 * rng.NormFloat64())
		}
		if MedianCI(xs).Covers(median) {
			covered++
		}
	}
	rate := float64(covered) / trials
	t.Logf("coverage %d/%d = %.4f, exact %.4f", covered, trials, rate, want)
	if sd := math.Sqrt(want * (1 - want) / trials); math.Abs(rate-want) > 4*sd {
		t.Errorf("coverage %.4f over %d intervals, want %.4f ± %.4f", rate, trials, want, 4*sd)
	}
}

// TestClopperPearsonTails: the ends solve P(Bin(n, lower) ≥ k) = 0.025 and
// P(Bin(n, upper) ≤ k) = 0.025; at k = 0 the upper end is 1 − 0.025^(1/n),
// at k = n the lower end 0.025^(1/n).
func TestClopperPearsonTails(t *testing.T) {
	for _, c := range []struct{ k, n int }{{0, 10}, {1, 10}, {5, 10}, {10, 10}, {950, 1000}, {381, 400}, {3, 400}} {
		lo, hi := ClopperPearson(c.k, c.n)
		if c.k == 0 {
			if lo != 0 || !near(hi, 1-math.Pow(0.025, 1/float64(c.n)), 1e-10) {
				t.Errorf("%d/%d: [%v, %v], want [0, 1 − 0.025^(1/n)]", c.k, c.n, lo, hi)
			}
			continue
		}
		if c.k == c.n {
			if hi != 1 || !near(lo, math.Pow(0.025, 1/float64(c.n)), 1e-10) {
				t.Errorf("%d/%d: [%v, %v], want [0.025^(1/n), 1]", c.k, c.n, lo, hi)
			}
			continue
		}
		n := float64(c.n)
		upperTail := 1 - distuv.Binomial{N: n, P: lo}.CDF(float64(c.k-1))
		lowerTail := distuv.Binomial{N: n, P: hi}.CDF(float64(c.k))
		if !near(upperTail, 0.025, 1e-8) || !near(lowerTail, 0.025, 1e-8) {
			t.Errorf("%d/%d: [%v, %v] has tails %v and %v, want 0.025 each", c.k, c.n, lo, hi, upperTail, lowerTail)
		}
		if p := float64(c.k) / n; !(lo < p && p < hi) {
			t.Errorf("%d/%d: [%v, %v] does not hold %v", c.k, c.n, lo, hi, p)
		}
	}
}
