package quantile

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func lognormal(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Exp(-3 + 1.5*r.NormFloat64())
	}
	return xs
}

// Up to the limit a Sample is exactly gonum's empirical quantile, mean and
// maximum over the sorted values, and the share over a threshold by count.
func TestExactUpToTheLimit(t *testing.T) {
	xs := lognormal(rand.New(rand.NewPCG(1, 2)), 5000)
	s := New(len(xs), 0)
	for _, x := range xs {
		s.Add(x)
	}
	if !s.Exact() || s.Len() != len(xs) {
		t.Fatalf("exact %v len %d, want true %d", s.Exact(), s.Len(), len(xs))
	}
	sorted := slices.Sorted(slices.Values(xs))
	for _, p := range []float64{0, 0.001, 0.5, 0.95, 0.99, 0.9999} {
		if got, want := s.Quantile(p), stat.Quantile(p, stat.Empirical, sorted, nil); got != want {
			t.Errorf("quantile %v: %v, want %v", p, got, want)
		}
	}
	if got, want := s.Mean(), stat.Mean(sorted, nil); got != want {
		t.Errorf("mean %v, want %v", got, want)
	}
	if got, want := s.Quantile(1), sorted[len(sorted)-1]; got != want || s.Max() != want {
		t.Errorf("max %v / %v, want %v", got, s.Max(), want)
	}
	x := sorted[4000]
	if got, want := s.Over(x), float64(len(xs)-4001)/float64(len(xs)); got != want {
		t.Errorf("over %v: %v, want %v", x, got, want)
	}
}

// Beyond the limit every quantile is within RelativeError of the exact
// value of the same rank; the mean (running sum) and the maximum stay exact
// up to rounding; a share over a threshold is off by at most the values
// within RelativeError of the threshold.
func TestSketchBeyondTheLimit(t *testing.T) {
	xs := lognormal(rand.New(rand.NewPCG(3, 4)), 200_000)
	s := New(1000, 1000)
	for _, x := range xs {
		s.Add(x)
	}
	if s.Exact() || s.Values() != nil || s.Len() != len(xs) {
		t.Fatalf("exact %v, %d kept, len %d: want a sketch of %d", s.Exact(), len(s.Values()), s.Len(), len(xs))
	}
	sorted := slices.Sorted(slices.Values(xs))
	for _, p := range []float64{0, 0.001, 0.25, 0.5, 0.95, 0.99, 0.9999} {
		got, want := s.Quantile(p), stat.Quantile(p, stat.Empirical, sorted, nil)
		if math.Abs(got-want) > RelativeError*want {
			t.Errorf("quantile %v: %v, want %v within %v relative", p, got, want, RelativeError)
		}
	}
	if got, want := s.Mean(), stat.Mean(sorted, nil); math.Abs(got-want) > 1e-12*want {
		t.Errorf("mean %v, want %v", got, want)
	}
	if got, want := s.Quantile(1), sorted[len(sorted)-1]; got != want {
		t.Errorf("max %v, want %v", got, want)
	}
	for _, x := range []float64{0.01, 0.05, 0.3} {
		lo, _ := slices.BinarySearch(sorted, x*(1-2*RelativeError))
		hi, _ := slices.BinarySearch(sorted, x*(1+2*RelativeError))
		exact, _ := slices.BinarySearch(sorted, math.Nextafter(x, math.Inf(1)))
		want := float64(len(xs)-exact) / float64(len(xs))
		if got, tol := s.Over(x), float64(hi-lo)/float64(len(xs)); math.Abs(got-want) > tol {
			t.Errorf("over %v: %v, want %v ± %v (the values near the threshold)", x, got, want, tol)
		}
	}
}

// Once the sketch has seen the range of values, adding costs no allocation,
// so that a run of any length adds none per task.
func TestSketchAddDoesNotAllocate(t *testing.T) {
	xs := lognormal(rand.New(rand.NewPCG(5, 6)), 10_000)
	s := New(100, 100)
	for _, x := range xs {
		s.Add(x)
	}
	i := 0
	if a := testing.AllocsPerRun(1000, func() { s.Add(xs[i%len(xs)]); i++ }); a != 0 {
		t.Errorf("%v allocations per Add", a)
	}
}

// The empty sample reads NaN everywhere; Of is exact whatever its length.
func TestEmptyAndOf(t *testing.T) {
	var s Sample
	for name, v := range map[string]float64{"mean": s.Mean(), "max": s.Max(), "p50": s.Quantile(0.5), "over": s.Over(1)} {
		if !math.IsNaN(v) {
			t.Errorf("%s of an empty sample: %v, want NaN", name, v)
		}
	}
	o := Of([]float64{3, 1, 2})
	if !o.Exact() || o.Quantile(0.5) != 2 || o.Max() != 3 || o.Len() != 3 {
		t.Errorf("Of: exact %v p50 %v max %v len %d", o.Exact(), o.Quantile(0.5), o.Max(), o.Len())
	}
}

// BenchmarkSketchAdd is the cost of one value once sketched (per task, in
// runs beyond the exact limit).
func BenchmarkSketchAdd(b *testing.B) {
	xs := lognormal(rand.New(rand.NewPCG(7, 8)), 1<<16)
	s := New(1, 1)
	for _, x := range xs {
		s.Add(x)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s.Add(xs[i&(1<<16-1)])
	}
}
