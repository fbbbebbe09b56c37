package quantile

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// sketchProbes are the quantiles every sketch test reads.
var sketchProbes = []float64{0.01, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999}

// laws are the distributions the sketch is checked on, 200,000 values
// each: latency-like bodies, heavy tails (Pareto of shape 1.1, whose mean
// barely exists, and 2.5), and a mix whose first and last percentiles fall
// among values of 1e-9 and 1e6 s, 33 binades from the body.
var laws = []struct {
	name string
	gen  func(r *rand.Rand) float64
}{
	{"lognormal", func(r *rand.Rand) float64 { return math.Exp(-3 + 1.5*r.NormFloat64()) }},
	{"pareto 1.1", func(r *rand.Rand) float64 { return 0.01 * math.Pow(1-r.Float64(), -1/1.1) }},
	{"pareto 2.5", func(r *rand.Rand) float64 { return 0.01 * math.Pow(1-r.Float64(), -1/2.5) }},
	{"exponential", func(r *rand.Rand) float64 { return 0.05 * r.ExpFloat64() }},
	{"tiny and huge", func(r *rand.Rand) float64 {
		switch u := r.Float64(); {
		case u < 0.02:
			return 1e-9 * (1 + r.Float64())
		case u > 0.98:
			return 1e6 * (1 + r.Float64())
		default:
			return math.Exp(-3 + r.NormFloat64())
		}
	}},
}

const lawSize = 200_000

// sketched adds xs to a Sample whose sketch keeps k mantissa bits and
// which sketches from its second value on.
func sketched(xs []float64, k int) *Sample {
	s := New(1, 1)
	s.sketch = newSketch(k)
	for _, x := range xs {
		s.Add(x)
	}
	return s
}

// quantileErrors returns, for each law and probe, the sketch's relative
// error against stat.Quantile(p, stat.Empirical) over the sorted values
// (the exact path's definition) with a sketch of k mantissa bits.
func quantileErrors(t *testing.T, k int) map[string][]float64 {
	t.Helper()
	errs := map[string][]float64{}
	for i, law := range laws {
		r := rand.New(rand.NewPCG(21, uint64(i)))
		xs := make([]float64, lawSize)
		for j := range xs {
			xs[j] = law.gen(r)
		}
		s := sketched(xs, k)
		if s.Exact() || s.Len() != len(xs) {
			t.Fatalf("%s: exact %v, len %d: want a sketch of %d", law.name, s.Exact(), s.Len(), len(xs))
		}
		slices.Sort(xs)
		for _, p := range sketchProbes {
			want := stat.Quantile(p, stat.Empirical, xs, nil)
			errs[law.name] = append(errs[law.name], math.Abs(s.Quantile(p)-want)/want)
		}
	}
	return errs
}

// Every quantile read from the sketch is within RelativeError of the exact
// value of the same rank, on every law, tails and extremes included.
func TestSketchQuantiles(t *testing.T) {
	for name, errs := range quantileErrors(t, indexBits) {
		for i, e := range errs {
			if !(e <= RelativeError) {
				t.Errorf("%s p%v: relative error %.3g, want ≤ %v", name, 100*sketchProbes[i], e, RelativeError)
			}
		}
	}
}

// One mantissa bit fewer breaks the guarantee on these very laws, so that
// TestSketchQuantiles would catch an index too coarse for RelativeError.
func TestSketchCoarserIndexFails(t *testing.T) {
	over := 0
	for _, errs := range quantileErrors(t, indexBits-1) {
		for _, e := range errs {
			if e > RelativeError {
				over++
			}
		}
	}
	if over == 0 {
		t.Errorf("k = %d: every quantile within %v; the bound should fail with one bit fewer", indexBits-1, RelativeError)
	}
}

// binError is the largest relative distance from bin i's representative to
// a float of the bin: at its two ends, lo and the float just below hi.
func binError(k *sketch, i int) float64 {
	lo := math.Float64frombits(uint64(i) << k.shift)
	last := math.Float64frombits(uint64(i+1)<<k.shift - 1)
	r := k.value(i)
	return max((r-lo)/lo, (last-r)/last)
}

// The bound of sketch.go, bin by bin: every bin of three binades (the bound
// depends only on a bin's place in its binade), and the binades of the
// smallest and largest normal floats, holds its floats within RelativeError
// of its representative, and its index is that of each of its floats; with
// k − 1 bits a binade's first bins exceed RelativeError (1/513 at worst).
func TestSketchBinBound(t *testing.T) {
	k := newSketch(indexBits)
	binade := 1 << indexBits
	var bins []int
	for _, x := range []float64{minNormal, 1e-4, 0.5, 1, 1e4, math.MaxFloat64} {
		first := k.index(x) &^ (binade - 1)
		for i := first; i < first+binade; i++ {
			bins = append(bins, i)
		}
	}
	worst := 0.0
	for _, i := range bins {
		lo := math.Float64frombits(uint64(i) << k.shift)
		last := math.Float64frombits(uint64(i+1)<<k.shift - 1)
		if k.index(lo) != i || k.index(last) != i || k.index(math.Nextafter(lo, 0)) != i-1 {
			t.Fatalf("bin %d: index(lo) %d, index(last) %d, index below lo %d", i, k.index(lo), k.index(last), k.index(math.Nextafter(lo, 0)))
		}
		if r := k.value(i); !(lo <= r && r <= last) {
			t.Errorf("bin %d [%v, %v]: representative %v outside", i, lo, last, r)
		}
		worst = max(worst, binError(k, i))
	}
	if want := 1.0 / 1025; !(worst < RelativeError) || math.Abs(worst-want) > 1e-9 {
		t.Errorf("k = %d: worst relative error %.6g, want 1/1025 = %.6g < %v", indexBits, worst, want, RelativeError)
	}
	coarse := newSketch(indexBits - 1)
	if e := binError(coarse, coarse.index(1)); !(e > RelativeError) {
		t.Errorf("k = %d: bin of 1 within %.6g, want over %v", indexBits-1, e, RelativeError)
	}
}

// Over counts the values in bins above the threshold's own: exactly the
// values at or above the upper end of x's bin, so that only those within
// a bin's width (2⁻⁹ relative) of x can be miscounted, and never by more
// than the values in (x, x·(1 + 2α)].
func TestSketchOver(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 0))
	xs := make([]float64, lawSize)
	for j := range xs {
		xs[j] = laws[0].gen(r)
	}
	s := sketched(xs, indexBits)
	slices.Sort(xs)
	share := func(from float64) float64 { // share of values ≥ from
		i, _ := slices.BinarySearch(xs, from)
		return float64(len(xs)-i) / float64(len(xs))
	}
	for _, x := range []float64{1e-3, 0.01, 0.05, xs[lawSize/2], 0.3, 1, xs[lawSize-1], 1e9} {
		got := s.Over(x)
		hi := math.Float64frombits((math.Float64bits(x)>>(52-indexBits) + 1) << (52 - indexBits))
		if want := share(hi); got != want {
			t.Errorf("over %v: %v, want %v (the values from the bin's end %v)", x, got, want, hi)
		}
		if above, near := share(math.Nextafter(x, math.Inf(1))), share(x*(1+2*RelativeError)); got > above || got < near {
			t.Errorf("over %v: %v, want within [%v, %v]", x, got, near, above)
		}
	}
	if got := s.Over(0); got != 1 {
		t.Errorf("over 0: %v, want 1", got)
	}
}

// Zero, the subnormals and the negatives count as zeros: quantiles whose
// rank falls among them are 0, every one of them is not over any
// threshold, and the positive values keep their bound.
func TestSketchZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 0))
	var xs []float64
	for range 30_000 {
		xs = append(xs, 0, math.SmallestNonzeroFloat64, minNormal/2, math.Copysign(0, -1))
	}
	for range 80_000 {
		xs = append(xs, laws[0].gen(r))
	}
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	s := sketched(xs, indexBits)
	if s.sketch.zeros != 120_000 {
		t.Fatalf("%d zeros, want 120000", s.sketch.zeros)
	}
	for _, p := range []float64{0, 0.01, 0.5, 0.6} {
		if got := s.Quantile(p); got != 0 {
			t.Errorf("quantile %v: %v, want 0 (rank among the zeros)", p, got)
		}
	}
	slices.Sort(xs)
	for _, p := range []float64{0.61, 0.9, 0.99} {
		got, want := s.Quantile(p), stat.Quantile(p, stat.Empirical, xs, nil)
		if math.Abs(got-want) > RelativeError*want {
			t.Errorf("quantile %v: %v, want %v within %v", p, got, want, RelativeError)
		}
	}
	for _, x := range []float64{0, minNormal / 2, -1} {
		if got, want := s.Over(x), 80_000.0/200_000; got != want {
			t.Errorf("over %v: %v, want %v (the positive values)", x, got, want)
		}
	}
}

// Values no latency is cannot corrupt the sketch: NaN and negatives count
// as zeros, +Inf and the largest float go to the top bin, and the counts
// never reach past the normal floats' 2046 binades.
func TestSketchNonFinite(t *testing.T) {
	s := sketched([]float64{1, math.Inf(1), math.NaN(), -math.NaN(), math.Inf(-1), -1, math.MaxFloat64, minNormal}, indexBits)
	k := s.sketch
	if k.zeros != 4 {
		t.Errorf("%d zeros, want 4 (NaN, -NaN, -Inf, -1)", k.zeros)
	}
	if bins := 2046 << indexBits; len(k.counts) > bins || k.offset < 1<<indexBits {
		t.Errorf("%d bins from index %d, want at most %d from %d", len(k.counts), k.offset, bins, 1<<indexBits)
	}
	top := k.index(math.MaxFloat64)
	if got := k.counts[top-k.offset]; got != 2 {
		t.Errorf("top bin holds %d, want 2 (+Inf, MaxFloat64)", got)
	}
	if got, want := s.Quantile(0.99), k.value(top); got != want || math.IsInf(got, 0) {
		t.Errorf("quantile 0.99: %v, want the top bin's finite representative %v", got, want)
	}
	if got := s.Over(math.Inf(1)); got != 0 {
		t.Errorf("over +Inf: %v, want 0", got)
	}
}

// Memory for latencies from 10⁻⁴ to 10⁴ s in random order: at least the
// bins between the two ends, and at most the growth's bound (sketch.grow).
// The figure quoted in sketch.go is this test's log.
func TestSketchMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 0))
	xs := make([]float64, lawSize)
	for j := range xs {
		xs[j] = math.Pow(10, -4+8*r.Float64())
	}
	xs[0], xs[1] = 1e-4, 1e4
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	k := sketched(xs, indexBits).sketch
	need := k.index(1e4) - k.index(1e-4) + 1
	if bound := need + 2*max(need/3+1, 1<<indexBits); len(k.counts) < need || len(k.counts) > bound {
		t.Errorf("%d bins, want %d to %d", len(k.counts), need, bound)
	}
	t.Logf("10⁻⁴ to 10⁴ s: %d bins needed, %d held, %d bytes", need, len(k.counts), 8*len(k.counts))
}

// Add is allocation-free once the sketch has seen the values' range, on
// every law (TestSketchAddDoesNotAllocate is the lognormal's through the
// exact limit).
func TestSketchAddWarmNoAlloc(t *testing.T) {
	for i, law := range laws {
		r := rand.New(rand.NewPCG(25, uint64(i)))
		xs := make([]float64, 10_000)
		for j := range xs {
			xs[j] = law.gen(r)
		}
		s := sketched(xs, indexBits)
		j := 0
		if a := testing.AllocsPerRun(1000, func() { s.Add(xs[j%len(xs)]); j++ }); a != 0 {
			t.Errorf("%s: %v allocations per Add", law.name, a)
		}
	}
}
