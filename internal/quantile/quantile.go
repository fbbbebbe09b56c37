// Package quantile holds a run's latencies in bounded memory: every value,
// exactly, up to a limit of values, and beyond it a DDSketch (Masson, Rim and
// Lee, "DDSketch: a fast and fully-mergeable quantile sketch with
// relative-error guarantees", VLDB 2019) whose quantiles are within a
// relative error RelativeError of the exact ones, in O(log(max/min)/
// RelativeError) memory whatever the run's length. The sketch is written
// here (sketch.go): its bin index is read straight from the float's bits,
// exponent and top 9 mantissa bits, HdrHistogram's log-linear bucketing, so
// that an add costs a shift and an increment (BenchmarkSketchAdd), for
// about 128 KB a sample over latencies from 10⁻⁴ to 10⁴ s
// (TestSketchMemory). The mean and the maximum stay exact in both modes (a
// running sum and a running maximum); only quantiles and shares over a
// threshold are approximated once the sketch takes over.
package quantile

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// ExactLimit is the default number of values a Sample keeps whole: 10⁶,
// 8 MB per sample, five times the measured tasks of a paper-scale run, so
// that every run of the shipped experiments is exact, while a run of any
// length fits in well under 200 MB (a run's two samples, the slices' growth
// and the collector's headroom included).
const ExactLimit = 1_000_000

// RelativeError is the sketch's relative accuracy α: a quantile read from
// the sketch is within a factor [1−α, 1+α] of the exact value of the same
// rank.
const RelativeError = 0.001

// Sample is a collection of non-negative values (latencies, s) with exact
// quantiles up to its limit and sketched ones beyond. The zero Sample is
// empty with the default limit. It is not safe for concurrent use, and its
// queries sort the kept values in place.
type Sample struct {
	limit  int       // values kept whole; 0 means ExactLimit
	exact  []float64 // every value, while n ≤ limit
	sorted bool
	sketch *sketch // nil while exact
	n      int
	sum    float64 // running sum, for the mean once sketched
	max    float64
}

// New returns an empty Sample keeping up to limit values whole (limit ≤ 0:
// ExactLimit), with room for capHint of them reserved now (capped at the
// limit), so that a run of known length does not grow its slice.
func New(limit, capHint int) *Sample {
	s := &Sample{limit: limit}
	if c := min(capHint, s.lim()); c > 0 {
		s.exact = make([]float64, 0, c)
	}
	return s
}

// Of returns an exact Sample of xs, which it takes over (and will sort),
// whatever its length.
func Of(xs []float64) *Sample {
	s := &Sample{exact: xs, n: len(xs)}
	if len(xs) > ExactLimit {
		s.limit = len(xs)
	}
	for _, x := range xs {
		s.sum += x
		s.max = max(s.max, x)
	}
	return s
}

func (s *Sample) lim() int {
	if s.limit <= 0 {
		return ExactLimit
	}
	return s.limit
}

// Add records one value. It allocates only while the kept slice grows,
// when the sketch takes over, and when the sketch first meets a value
// outside the bins it holds (amortised: it grows by a quarter); never for
// values in the range already seen.
func (s *Sample) Add(x float64) {
	s.n++
	s.sum += x
	if s.n == 1 || x > s.max {
		s.max = x
	}
	if k := s.sketch; k != nil {
		if j := k.slot(x); j < uint(len(k.counts)) { // k.add(x), inlined by hand
			k.counts[j]++
		} else {
			k.addSlow(x)
		}
		return
	}
	if s.n <= s.lim() {
		s.exact = append(s.exact, x)
		s.sorted = false
		return
	}
	s.toSketch()
	s.sketch.add(x)
}

// toSketch moves the kept values into a new sketch and frees them.
func (s *Sample) toSketch() {
	s.sketch = newSketch(indexBits)
	for _, x := range s.exact {
		s.sketch.add(x)
	}
	s.exact, s.sorted = nil, false
}

// Len is the number of values added.
func (s *Sample) Len() int { return s.n }

// Exact reports whether every value is kept, so that quantiles are exact.
func (s *Sample) Exact() bool { return s.sketch == nil }

// Values are the kept values, sorted; nil once sketched.
func (s *Sample) Values() []float64 {
	s.sort()
	return s.exact
}

// sort sorts the kept values once, into slices.Sort's order exactly (the
// mean's summation order is part of the published figures), by a radix sort
// where that is faster (radix.go).
func (s *Sample) sort() {
	if !s.sorted && s.sketch == nil {
		sortFloats(s.exact)
		s.sorted = true
	}
}

// Mean is the values' mean, NaN for none. Exact samples take gonum's
// stat.Mean over the sorted values (the figures published before sketches
// existed, bit for bit); sketched ones the running sum over the count.
func (s *Sample) Mean() float64 {
	if s.n == 0 {
		return math.NaN()
	}
	if s.sketch == nil {
		s.sort()
		return stat.Mean(s.exact, nil)
	}
	return s.sum / float64(s.n)
}

// Max is the largest value, NaN for none.
func (s *Sample) Max() float64 {
	if s.n == 0 {
		return math.NaN()
	}
	return s.max
}

// Quantile is the smallest value whose empirical CDF reaches p (gonum's
// stat.Quantile with stat.Empirical), exactly while the sample is exact,
// and within RelativeError of it once sketched; p ≥ 1 is the maximum
// (exact in both modes). NaN for an empty sample.
func (s *Sample) Quantile(p float64) float64 {
	if s.n == 0 {
		return math.NaN()
	}
	if p >= 1 {
		return s.max
	}
	if s.sketch == nil {
		s.sort()
		return stat.Quantile(p, stat.Empirical, s.exact, nil)
	}
	// stat.Empirical's rank: the ⌈p·n⌉-th smallest value (1-based), at
	// least the first.
	rank := max(math.Ceil(p*float64(s.n))-1, 0) // 0-based
	k := s.sketch
	if int(rank) < k.zeros {
		return 0
	}
	v := k.atRank(int(rank) - k.zeros)
	return min(v, s.max) // the bin's representative may exceed the true maximum
}

// Over is the share of values strictly above x, NaN for none: exact while
// the sample is exact; once sketched, the values of x's own bin count as
// not above it, so that only values in (x, x·(1 + 2⁻⁹)), within twice
// RelativeError of x, can be miscounted. Below the smallest positive normal
// float (and for NaN) it is the share of values not counted as zeros.
func (s *Sample) Over(x float64) float64 {
	if s.n == 0 {
		return math.NaN()
	}
	if s.sketch == nil {
		s.sort()
		k, _ := slices.BinarySearch(s.exact, math.Nextafter(x, math.Inf(1))) // first ≥ next float: first > x
		return float64(len(s.exact)-k) / float64(len(s.exact))
	}
	k := s.sketch
	if !(x >= minNormal) { // below every bin (NaN too): every positive value is above
		return float64(s.n-k.zeros) / float64(s.n)
	}
	return float64(k.above(x)) / float64(s.n)
}
