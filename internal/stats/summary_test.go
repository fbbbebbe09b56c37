package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/stats"
)

// TestMeanCIIsSummarysInterval: the rule's precision is summary.csv's
// ci95/mean to the bit, because MeanCI computes the interval as
// results.MeanCI95 does (the same sums, the same t quantile), and the
// paired test's interval is results.PairedDiff's.
func TestMeanCIIsSummarysInterval(t *testing.T) {
	r := rand.New(rand.NewPCG(80, 0))
	for run := range 300 {
		xs := make([]float64, 2+run%40)
		ys := make([]float64, len(xs))
		for i := range xs {
			xs[i] = math.Exp(r.NormFloat64()) * float64(1+run)
			ys[i] = xs[i] * (1 + 0.1*r.NormFloat64())
		}
		if run%5 == 0 {
			xs[0] = math.NaN()
		}
		mean, ci, n := results.MeanCI95(xs)
		e := stats.MeanCI(xs)
		if !same(e.Center, mean) || !same(e.Half, ci) || e.N != n {
			t.Fatalf("run %d: MeanCI %v ± %v over %d, results.MeanCI95 %v ± %v over %d", run, e.Center, e.Half, e.N, mean, ci, n)
		}
		dm, dci, dn := results.PairedDiff(xs, ys)
		p := stats.PairedT(xs, ys)
		if !same(p.Center, dm) || !same(p.Half, dci) || p.N != dn {
			t.Fatalf("run %d: PairedT %v ± %v over %d, results.PairedDiff %v ± %v over %d", run, p.Center, p.Half, p.N, dm, dci, dn)
		}
	}
}

// same is bit-for-bit equality, NaN equal to NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
