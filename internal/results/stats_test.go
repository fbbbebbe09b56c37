package results

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// Reference quantiles of Student's t (e.g. NIST/SEMATECH e-Handbook,
// table 1.3.6.7.2), to the digits printed there.
func TestTQuantile975(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 12.706204736}, {2, 4.302652730}, {4, 2.776445105}, {9, 2.262157163}, {30, 2.042272456}} {
		if got := TQuantile975(c.df); !scalar.EqualWithinAbs(got, c.want, 1e-8) {
			t.Errorf("TQuantile975(%d) = %.10g, want %.10g", c.df, got, c.want)
		}
	}
}

func TestMeanCI95(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name     string
		xs       []float64
		mean, ci float64 // NaN: want NaN
		n        int
	}{
		// mean 3, sample sd sqrt(2.5), half-width t_{0.975,4}·sd/√5.
		{"five", []float64{1, 2, 3, 4, 5}, 3, 2.776445105 * math.Sqrt(2.5) / math.Sqrt(5), 5},
		{"missing skipped", []float64{1, nan, 3, math.Inf(1)}, 2, 12.706204736 * math.Sqrt2 / math.Sqrt2, 2},
		{"one", []float64{7}, 7, nan, 1},
		{"none", []float64{nan, nan}, nan, nan, 0},
		{"empty", nil, nan, nan, 0},
		{"constant", []float64{2, 2, 2}, 2, 0, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mean, ci, n := MeanCI95(c.xs)
			if n != c.n || !same(mean, c.mean, 1e-12) || !same(ci, c.ci, 1e-8) {
				t.Errorf("MeanCI95(%v) = (%v, %v, %d), want (%v, %v, %d)", c.xs, mean, ci, n, c.mean, c.ci, c.n)
			}
		})
	}
}

func TestPairedDiff(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name     string
		a, b     []float64
		mean, ci float64
		n        int
	}{
		// Differences 1,2,3,4,5 hidden under a large common component: the
		// paired interval sees only the differences' spread.
		{"paired", []float64{101, 52, 203, 14, 1005}, []float64{100, 50, 200, 10, 1000},
			3, 2.776445105 * math.Sqrt(2.5) / math.Sqrt(5), 5},
		{"missing pair skipped", []float64{2, nan, 4}, []float64{1, 1, 1}, 2, 12.706204736, 2},
		{"shorter b", []float64{3, 3, 3}, []float64{1}, 2, nan, 1},
		{"none", nil, nil, nan, nan, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mean, ci, n := PairedDiff(c.a, c.b)
			if n != c.n || !same(mean, c.mean, 1e-12) || !same(ci, c.ci, 1e-8) {
				t.Errorf("PairedDiff(%v, %v) = (%v, %v, %d), want (%v, %v, %d)", c.a, c.b, mean, ci, n, c.mean, c.ci, c.n)
			}
		})
	}
}

// same reports whether got equals want within tol, treating NaN as equal to
// NaN (it means "missing" here).
func same(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return scalar.EqualWithinAbsOrRel(got, want, tol, tol)
}
