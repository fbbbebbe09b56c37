package workload

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The empirical law's moments, partial moments, CDF, quantiles and work
// quantile against direct sums over the values: they are the sample's own,
// so the checks are exact up to rounding.
func TestEmpiricalIsTheSample(t *testing.T) {
	xs := []float64{5, 0.5, 2, 2, 9, 0, 1, 3, 0.25, 40}
	d, err := NewEmpirical(xs)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind() != Empirical || d.Len() != len(xs) {
		t.Fatalf("kind %v, len %d", d.Kind(), d.Len())
	}
	n := float64(len(xs))
	sum := func(k int, keep func(float64) bool) float64 {
		var s float64
		for _, x := range xs {
			if keep(x) {
				s += math.Pow(x, float64(k))
			}
		}
		return s / n
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	mean := sum(1, func(float64) bool { return true })
	m2 := sum(2, func(float64) bool { return true })
	if !near(d.Mean(), mean) || !near(d.Cs2(), m2/(mean*mean)-1) {
		t.Errorf("mean %v, C_s² %v; want %v, %v", d.Mean(), d.Cs2(), mean, m2/(mean*mean)-1)
	}
	for _, ab := range [][2]float64{{-1, 1}, {0.5, 2}, {2, 9}, {1.5, math.Inf(1)}, {9, 40}, {-1, math.Inf(1)}} {
		for k := range 3 {
			want := sum(k, func(x float64) bool { return x > ab[0] && x <= ab[1] })
			if got := d.PartialMoment(k, ab[0], ab[1]); !near(got, want) {
				t.Errorf("E[X^%d; %v < X ≤ %v] = %v, want %v", k, ab[0], ab[1], got, want)
			}
		}
	}
	for _, x := range []float64{-1, 0, 0.3, 2, 2.5, 40, 41} {
		if got, want := d.CDF(x), sum(0, func(v float64) bool { return v <= x }); got != want {
			t.Errorf("CDF(%v) = %v, want %v", x, got, want)
		}
	}
	sorted := slices.Sorted(slices.Values(xs))
	for _, p := range []float64{0.05, 0.1, 0.5, 0.55, 0.9, 0.95, 0.999} {
		// The smallest value with at least a share p at or below it.
		q := d.Quantile(p)
		i, _ := slices.BinarySearch(sorted, q)
		if !slices.Contains(sorted, q) || d.CDF(q) < p || (i > 0 && d.CDF(sorted[i-1]) >= p) {
			t.Errorf("Quantile(%v) = %v: CDF there %v", p, q, d.CDF(q))
		}
	}
	for _, w := range []float64{0.01, 0.3, 0.5, 0.9, 0.999} {
		x := d.WorkQuantile(w)
		below := sum(1, func(v float64) bool { return v <= x }) / mean
		prev := sum(1, func(v float64) bool { return v < x }) / mean
		if below < w || prev >= w {
			t.Errorf("WorkQuantile(%v) = %v: work at or below %v, strictly below %v", w, x, below, prev)
		}
	}
}

// Sample is a uniform draw of the values: a chi-square test over 10⁵
// draws, at a 10⁻⁶ false-alarm level.
func TestEmpiricalSamplesUniformly(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	d, err := NewEmpirical(xs)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const draws = 100000
	counts := map[float64]int{}
	for range draws {
		counts[d.Sample(r)]++
	}
	var chi2 float64
	e := float64(draws) / float64(len(xs))
	for _, x := range xs {
		chi2 += (float64(counts[x]) - e) * (float64(counts[x]) - e) / e
	}
	if len(counts) != len(xs) || chi2 > 38.9 { // χ²(7) at 1 − 10⁻⁶ is 38.9
		t.Errorf("counts %v: χ² = %.1f", counts, chi2)
	}
}

func TestEmpiricalRefusesBadValues(t *testing.T) {
	for _, xs := range [][]float64{nil, {0, 0}, {1, -1}, {1, math.NaN()}, {math.Inf(1)}} {
		if _, err := NewEmpirical(xs); err == nil {
			t.Errorf("NewEmpirical(%v) accepted", xs)
		}
	}
}
