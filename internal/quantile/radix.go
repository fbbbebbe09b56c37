package quantile

import (
	"math"
	"slices"
)

// The exact quantiles and the mean read a run's latencies sorted, once per
// run: at paper scale about 200,000 values a run, where slices.Sort is a
// large share of a whole reproduction's CPU. A least-significant-digit
// radix sort on the floats' bit patterns does the same in a few linear
// passes (BenchmarkSort; docs/performance.md). It is written here by hand because no well-kept library fits: the
// one Go radix sort of floats we know (shawnsmithdev/zermelo/v2) is not
// served by the module proxy this project builds from, reinterprets slices
// through unsafe, and orders NaNs and ±0 its own way, which would need the
// check below anyway.
//
// The result must be the very slice slices.Sort gives, bit for bit, because
// the mean sums the sorted values in order (stat.Mean) and the published
// figures are those sums. For floats without NaN and without −0 that holds
// for any correct sort: values equal under < are then identical bits, so the
// sorted sequence is unique. It does not hold for NaN (slices.Sort puts NaNs
// first in an order of its own) nor for −0 beside +0 (slices.Sort treats them
// as equal and leaves them in whatever order its pattern-defeating quicksort
// reaches, which a quantile then reads as "-0" or "0"). Such input, which no
// latency is, goes to slices.Sort whole.

// radixMin is the length below which sortFloats leaves the work to
// slices.Sort: below it the radix sort's fixed cost, clearing and summing
// its digit counts, outweighs the comparison sort (BenchmarkSortCrossover
// measures both on either side of it).
const radixMin = 1792

const (
	digitBits = 11                               // 2,048 counts a digit: one digit's counts fit in L1
	digits    = (64 + digitBits - 1) / digitBits // 6 passes at most; the top digit has 9 bits
	buckets   = 1 << digitBits
	signBit   = 1 << 63
	expBits   = 0x7FF << 52 // +Inf's bits; anything above, sign aside, is NaN
)

// sortFloats sorts xs ascending into exactly the slice slices.Sort(xs)
// would leave, allocating one scratch slice of len(xs) when it radix-sorts.
func sortFloats(xs []float64) {
	if len(xs) < radixMin || len(xs) > math.MaxUint32 {
		slices.Sort(xs)
	} else if _, ok := radixSort(xs); !ok {
		slices.Sort(xs)
	}
}

// key maps a float's bits to an unsigned integer of the same order: a
// negative float has all its bits flipped (larger magnitudes come first),
// a positive one only its sign bit (it then sorts above every negative).
func key(u uint64) uint64 { return u ^ (uint64(int64(u)>>63) | signBit) }

// unkey inverts key: a key with its top bit set was a positive float.
func unkey(k uint64) uint64 { return k ^ (^uint64(int64(k)>>63) | signBit) }

// radixSort sorts xs by its keys, 11 bits a pass from the least significant
// digit, skipping each digit that every value shares (the top one for values
// of one sign whose exponents lie in one aligned run of 8 binades, the low
// ones for coarse ties; lognormal latencies over several decades need all
// six), and returns the number of passes it made. It returns ok false,
// leaving xs as it was, for input holding a NaN or a −0, whose order
// slices.Sort decides its own way. The keys travel as float64 bit patterns
// (math.Float64frombits and back are exact, and loads and stores of a float
// copy its bits) so that xs itself is the second buffer of the ping-pong;
// the first pass keys the floats as it reads them and, when the passes are
// even in number, the last unkeys them as it writes them back into xs.
func radixSort(xs []float64) (passes int, ok bool) {
	n := len(xs)
	var count [digits][buckets]uint32
	if !countDigits(xs, &count) {
		return 0, false
	}
	pass, p := plan(&count, key(math.Float64bits(xs[0])), n)
	if p == 0 {
		return 0, true // one value throughout
	}
	buf := make([]float64, n)
	src, dst := xs, buf
	for i, d := range pass[:p] {
		off, shift := &count[d], d*digitBits
		switch {
		case i == 0:
			scatterIn(dst, src, off, shift)
		case i == p-1 && p%2 == 0:
			scatterOut(dst, src, off, shift)
		default:
			scatter(dst, src, off, shift)
		}
		src, dst = dst, src
	}
	if p%2 == 1 {
		for i, x := range buf {
			xs[i] = math.Float64frombits(unkey(math.Float64bits(x)))
		}
	}
	return p, true
}

// countDigits counts every digit's values over the keys of xs; false for
// input holding a NaN or a −0.
func countDigits(xs []float64, count *[digits][buckets]uint32) bool {
	for _, x := range xs {
		u := math.Float64bits(x)
		if u&^signBit > expBits || u == signBit {
			return false
		}
		k := key(u)
		count[0][k&(buckets-1)]++
		count[1][k>>(1*digitBits)&(buckets-1)]++
		count[2][k>>(2*digitBits)&(buckets-1)]++
		count[3][k>>(3*digitBits)&(buckets-1)]++
		count[4][k>>(4*digitBits)&(buckets-1)]++
		count[5][k>>(5*digitBits)&(buckets-1)]++
	}
	return true
}

// plan lists the digits a pass must sort on (the first p of pass), those
// on which the n keys differ (k0 is one of them), and turns their counts
// into each bucket's offset.
func plan(count *[digits][buckets]uint32, k0 uint64, n int) (pass [digits]uint, p int) {
	for d := range digits {
		shift := uint(d * digitBits)
		c := &count[d]
		if c[k0>>shift&(buckets-1)] == uint32(n) {
			continue // every value has this digit: the pass would not move one
		}
		var sum uint32
		for b, m := range c {
			c[b], sum = sum, sum+m
		}
		pass[p] = uint(d)
		p++
	}
	return pass, p
}

// scatterIn is scatter from the floats themselves: it keys each on the way.
func scatterIn(dst, src []float64, off *[buckets]uint32, shift uint) {
	for _, x := range src {
		k := key(math.Float64bits(x))
		b := k >> shift & (buckets - 1)
		dst[off[b]] = math.Float64frombits(k)
		off[b]++
	}
}

// scatterOut is scatter into the floats themselves: it unkeys each on the
// way (the last of an even number of passes, which ends in xs).
func scatterOut(dst, src []float64, off *[buckets]uint32, shift uint) {
	for _, x := range src {
		k := math.Float64bits(x)
		b := k >> shift & (buckets - 1)
		dst[off[b]] = math.Float64frombits(unkey(k))
		off[b]++
	}
}

// scatter moves every key of src to dst at the next free place of its
// digit's bucket: off holds each bucket's first free index, and moves on.
// Stable, as the least-significant-digit order needs.
func scatter(dst, src []float64, off *[buckets]uint32, shift uint) {
	for _, x := range src {
		b := math.Float64bits(x) >> shift & (buckets - 1)
		dst[off[b]] = x
		off[b]++
	}
}
