package quantile

import "math"

// The sketch is a DDSketch (Masson, Rim and Lee, VLDB 2019): values fall
// into bins whose width grows with their value, each bin keeps a count, and
// a quantile is the representative of the bin that holds its rank, within a
// relative error α of every value of that bin. Its index is HdrHistogram's
// log-linear bucketing read straight from the float's bits: for a positive
// normal float x,
//
//	index(x) = Float64bits(x) >> (52 − k)
//
// keeps the 11 exponent bits and the top k mantissa bits, so that each
// binade [2ᵉ, 2ᵉ⁺¹) splits into 2ᵏ bins of equal width, and consecutive
// indices are consecutive bins (the last bin of a binade is followed by the
// first of the next: the carry out of the mantissa goes into the exponent).
//
// The bound. A bin [lo, hi) with m its top mantissa bits (0 ≤ m < 2ᵏ) has
// lo = 2ᵉ(1 + m/2ᵏ) and hi = 2ᵉ(1 + (m+1)/2ᵏ), so hi/lo = 1 + δ with
// δ = 1/(2ᵏ + m) ≤ 2⁻ᵏ (largest at m = 0, a binade's first bin). Its
// representative is the harmonic mean r = 2·lo·hi/(lo + hi). For x in the
// bin, |r − x|/x falls on [lo, r] and rises on [r, hi], so its supremum is
// at the ends, where both give (hi − lo)/(hi + lo) = δ/(2 + δ). With k = 9
// that is at most 2⁻⁹/(2 + 2⁻⁹) = 1/1025 ≈ 0.000976 < α = 0.001; with k = 8
// it reaches 1/513 ≈ 0.00195, so k = 9 is the smallest k that keeps α
// (TestSketchBinBound checks every bin of a range against α, and
// TestSketchCoarserIndexFails that k − 1 misses it).
//
// Why by hand. It replaces sketches-go's DDSketch (CubicallyInterpolatedMapping
// and DenseStore), which cost the engine's hot path more than any other
// single item past the exact limit: the library computes an interpolated
// log₂ per value and reaches its counts through an interface, where here
// an add is a shift, a subtraction, one bounds check and an integer
// increment, inlined into Sample.Add (BenchmarkSketchAdd;
// docs/performance.md).
//
// Memory. Bins are a dense slice of uint64 counts over the indices seen,
// grown by a quarter of its length (at least one binade) on the side that
// needs it (grow), so growth is amortised and an add in the range already
// seen allocates nothing. There are 2ᵏ = 512 bins per binade, 8 bytes each:
// latencies from 10⁻⁴ to 10⁴ s (26.6 binades) need 13,612 bins, and
// TestSketchMemory measures 15,946 held with the growth's slack, 128 KB a
// sample. That is about 1.7 times sketches-go's 9,302 float64 bins for the
// same values (its logarithmic mapping has 346 bins a binade for the same
// α): the price of an index without a logarithm, and small beside the
// 8 MB of the exact values it replaces. The slice never exceeds the 2046
// binades of the normal floats (8 MB), so even a hostile value cannot make
// it larger.

const (
	// indexBits is k: the mantissa bits of the index. 9 is the smallest k
	// whose bins keep RelativeError (see above).
	indexBits = 9
	// minNormal is the smallest positive normal float; values below it
	// (and 0) count as zeros.
	minNormal = 0x1p-1022
)

// sketch is the DDSketch past a Sample's exact limit: counts[i] values in
// the bin of index offset+i, and zeros values below minNormal (negatives
// and NaN among them).
type sketch struct {
	shift  uint     // 52 − k
	offset int      // index of counts[0]
	counts []uint64 // one count per bin, over the indices seen
	zeros  int
}

// newSketch returns an empty sketch whose index keeps k mantissa bits
// (indexBits in use; the tests pass k − 1 to show that it is too coarse).
func newSketch(k int) *sketch { return &sketch{shift: uint(52 - k)} }

// index is x's bin, for minNormal ≤ x; +Inf (which no latency is) is taken
// into the bin of the largest float, so that the counts never cover the
// non-finite bit patterns.
func (k *sketch) index(x float64) int {
	if x > math.MaxFloat64 {
		x = math.MaxFloat64
	}
	return int(math.Float64bits(x) >> k.shift)
}

// value is the representative of bin i: the harmonic mean of its ends,
// written lo·(2/(1 + lo/hi)) so that it cannot overflow (the factor lies in
// [1, 2), the result below hi), with the top bin's upper end, 2¹⁰²⁴, taken
// as the largest float.
func (k *sketch) value(i int) float64 {
	lo := math.Float64frombits(uint64(i) << k.shift)
	hi := math.Float64frombits(uint64(i+1) << k.shift)
	if hi > math.MaxFloat64 {
		hi = math.MaxFloat64
	}
	return lo * (2 / (1 + lo/hi))
}

// slot is the place in counts of x's bin, valid only below len(counts).
// It is add's fast path, small enough to inline into Sample.Add (add itself
// is not, for its call to addSlow): one bounds check. The counts cover only
// indices of positive normal floats, and every other value's bit pattern
// falls outside them (+0 and the subnormals below minNormal's index, +Inf
// and NaN at or above +Inf's, negatives, sign bit set, above every
// positive's), so all of those take addSlow, which sorts them out.
func (k *sketch) slot(x float64) uint {
	return uint(int(math.Float64bits(x)>>(k.shift&63)) - k.offset) // &63: no check for a shift past 64
}

// add counts x.
func (k *sketch) add(x float64) {
	if j := k.slot(x); j < uint(len(k.counts)) {
		k.counts[j]++
	} else {
		k.addSlow(x)
	}
}

// addSlow counts a value outside the bins seen: values below minNormal,
// negatives and NaN (which no latency is) as zeros, +Inf in the top bin
// (index), and any other after growing the counts to its bin.
func (k *sketch) addSlow(x float64) {
	if !(x >= minNormal) {
		k.zeros++
		return
	}
	i := k.index(x)
	if uint(i-k.offset) >= uint(len(k.counts)) {
		k.grow(i)
	}
	k.counts[i-k.offset]++
}

// grow widens counts to hold index i and, beyond it on the side where it
// lies, a quarter of their length (at least a binade), within the normal
// floats' indices. The quarter makes growth amortised (each copy of L bins
// adds at least L/4) while wasting little: a side's slack past the last
// value seen is at most a quarter of a length that is itself the span seen
// plus the other side's slack, so neither side's exceeds a third of the
// span (or a binade), and the bins never pass span + 2·max(span/3, binade).
func (k *sketch) grow(i int) {
	binade := 1 << (52 - k.shift)
	first, end := 1<<52>>k.shift, 0x7FF<<52>>k.shift // minNormal's index; +Inf's
	lo, hi := i-binade/2, i+binade/2
	if len(k.counts) > 0 {
		slack := max(len(k.counts)/4, binade)
		lo, hi = k.offset, k.offset+len(k.counts)
		if i < lo {
			lo = i - slack
		} else {
			hi = i + 1 + slack
		}
	}
	lo, hi = max(lo, first), min(hi, end)
	c := make([]uint64, hi-lo)
	if len(k.counts) > 0 {
		copy(c[k.offset-lo:], k.counts)
	}
	k.counts, k.offset = c, lo
}

// atRank is the representative of the bin holding the value of 0-based
// rank r among the positive ones (r < their count).
func (k *sketch) atRank(r int) float64 {
	seen := 0
	for j, c := range k.counts {
		if seen += int(c); seen > r {
			return k.value(k.offset + j)
		}
	}
	panic("quantile: rank beyond the sketch's count")
}

// above is the number of values in bins above x's own, for minNormal ≤ x.
func (k *sketch) above(x float64) int {
	n := 0
	for j := max(k.index(x)-k.offset+1, 0); j < len(k.counts); j++ {
		n += int(k.counts[j])
	}
	return n
}
