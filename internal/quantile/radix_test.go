package quantile

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
)

// inputs are the kinds of slice a Sample may hold, each a generator of n
// values: latency-like distributions, ties, runs, the extremes of the
// float64 line, negatives, and the NaN and −0 that send the sort to
// slices.Sort (fallback true).
var inputs = []struct {
	name     string
	fallback bool
	gen      func(r *rand.Rand, n int) []float64
}{
	{"lognormal", false, lognormal},
	{"pareto", false, func(r *rand.Rand, n int) []float64 {
		return fill(n, func() float64 { return 0.1 * math.Pow(1-r.Float64(), -1/1.5) })
	}},
	{"exponential", false, func(r *rand.Rand, n int) []float64 { return fill(n, r.ExpFloat64) }},
	{"ties", false, func(r *rand.Rand, n int) []float64 {
		return fill(n, func() float64 { return float64(r.IntN(7)) * 0.25 })
	}},
	{"constant", false, func(r *rand.Rand, n int) []float64 { return fill(n, func() float64 { return 0.125 }) }},
	{"constant runs", false, func(r *rand.Rand, n int) []float64 {
		xs, v := make([]float64, n), r.ExpFloat64()
		for i := range xs {
			if r.IntN(50) == 0 {
				v = r.ExpFloat64()
			}
			xs[i] = v
		}
		return xs
	}},
	{"sorted", false, func(r *rand.Rand, n int) []float64 { return slices.Sorted(slices.Values(lognormal(r, n))) }},
	{"reversed", false, func(r *rand.Rand, n int) []float64 {
		xs := slices.Sorted(slices.Values(lognormal(r, n)))
		slices.Reverse(xs)
		return xs
	}},
	{"subnormal", false, func(r *rand.Rand, n int) []float64 {
		return fill(n, func() float64 { return math.Float64frombits(r.Uint64() & (1<<52 - 1)) })
	}},
	{"+0 and infinities", false, func(r *rand.Rand, n int) []float64 {
		special := []float64{0, math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}
		return fill(n, func() float64 {
			if r.IntN(3) == 0 {
				return special[r.IntN(len(special))]
			}
			return r.NormFloat64()
		})
	}},
	{"any bits but NaN and -0", false, func(r *rand.Rand, n int) []float64 {
		return fill(n, func() float64 {
			for {
				x := math.Float64frombits(r.Uint64())
				if !math.IsNaN(x) && math.Float64bits(x) != signBit {
					return x
				}
			}
		})
	}},
	{"-0 and +0", true, func(r *rand.Rand, n int) []float64 {
		xs := fill(n, func() float64 { return []float64{0, math.Copysign(0, -1), 1, -1}[r.IntN(4)] })
		xs[r.IntN(n)] = math.Copysign(0, -1) // at least one −0, whatever n
		return xs
	}},
	{"NaN", true, func(r *rand.Rand, n int) []float64 {
		xs := lognormal(r, n)
		xs[r.IntN(n)] = math.Float64frombits(expBits | 1 | r.Uint64()&(1<<52-1)) // a NaN with its own payload
		xs[r.IntN(n)] = math.NaN()
		return xs
	}},
}

func fill(n int, f func() float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = f()
	}
	return xs
}

// sameBits reports the first index where got and want differ in their bits
// (so that −0 is not +0 and a NaN is its payload), or -1.
func sameBits(got, want []float64) int {
	if len(got) != len(want) {
		return 0
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return i
		}
	}
	return -1
}

// sortFloats leaves every input exactly as slices.Sort does, bit for bit,
// at every size from 0 through the crossover to 2¹⁶ (and 10⁶, the exact
// quantiles' limit, with OFFLOAD_LONG=1); and the radix path itself
// sorts every input it accepts and refuses only NaN and −0, so that the
// equality above is the radix sort's and not the fallback's.
func TestSortFloatsIsSlicesSort(t *testing.T) {
	sizes := []int{0, 1, 2, 3, radixMin - 1, radixMin, radixMin + 1, 5000, 1 << 16}
	if os.Getenv("OFFLOAD_LONG") != "" {
		sizes = append(sizes, 1_000_000)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, in := range inputs {
		for _, n := range sizes {
			if n == 0 && in.fallback {
				continue // nowhere to put the NaN
			}
			for rep := range 3 {
				xs := in.gen(r, n)
				want := slices.Clone(xs)
				slices.Sort(want)
				got := slices.Clone(xs)
				sortFloats(got)
				if i := sameBits(got, want); i >= 0 {
					t.Fatalf("%s, n %d, rep %d: sortFloats differs from slices.Sort at %d: %v, want %v", in.name, n, rep, i, got[i], want[i])
				}
				if n < 2 {
					continue
				}
				rad := slices.Clone(xs)
				if _, ok := radixSort(rad); ok == in.fallback {
					t.Fatalf("%s, n %d: radixSort accepted %v, want %v", in.name, n, ok, !in.fallback)
				} else if !ok {
					if i := sameBits(rad, xs); i >= 0 {
						t.Fatalf("%s, n %d: refused input changed at %d", in.name, n, i)
					}
				} else if i := sameBits(rad, want); i >= 0 {
					t.Fatalf("%s, n %d, rep %d: radixSort differs from slices.Sort at %d: %v, want %v", in.name, n, rep, i, rad[i], want[i])
				}
			}
		}
	}
}

// Every pattern of digits that vary, from none to all six, takes exactly
// one pass per varying digit (the constant ones are skipped), in both
// parities of the pass count, and sorts as slices.Sort does.
func TestRadixPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	base := key(math.Float64bits(1.0))
	for vary := range 1 << digits {
		xs := make([]float64, 3000)
		for i := range xs {
			for {
				k := base
				for d := range digits {
					if vary&(1<<d) != 0 {
						shift := uint(d * digitBits)
						k = k&^(uint64(buckets-1)<<shift) | (r.Uint64()&(buckets-1))<<shift
					}
				}
				if x := math.Float64frombits(unkey(k)); !math.IsNaN(x) && math.Float64bits(x) != signBit {
					xs[i] = x
					break
				}
			}
		}
		want := slices.Sorted(slices.Values(xs))
		passes, ok := radixSort(xs)
		if bits.OnesCount(uint(vary)) != passes || !ok {
			t.Errorf("digits %06b varying: %d passes (ok %v), want %d", vary, passes, ok, bits.OnesCount(uint(vary)))
		}
		if i := sameBits(xs, want); i >= 0 {
			t.Errorf("digits %06b varying: differs from slices.Sort at %d: %v, want %v", vary, i, xs[i], want[i])
		}
	}
}

// The keys order floats as < does, across the sign, the zeros, the
// subnormals and the infinities, and unkey inverts key.
func TestKeyOrder(t *testing.T) {
	line := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, 0, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 1, math.MaxFloat64, math.Inf(1)}
	for i := 1; i < len(line); i++ {
		a, b := math.Float64bits(line[i-1]), math.Float64bits(line[i])
		if key(a) >= key(b) {
			t.Errorf("key(%v) = %#x, not below key(%v) = %#x", line[i-1], key(a), line[i], key(b))
		}
	}
	r := rand.New(rand.NewPCG(13, 14))
	for range 10000 {
		if u := r.Uint64(); unkey(key(u)) != u {
			t.Fatalf("unkey(key(%#x)) = %#x", u, unkey(key(u)))
		}
	}
}

// A Sample's mean, quantiles and shares over a threshold, which read the
// sorted values, are the very bits gonum gives over slices.Sort's order, at a
// paper-scale run's length.
func TestSampleBitsUnchanged(t *testing.T) {
	xs := lognormal(rand.New(rand.NewPCG(15, 16)), 200_000)
	s := New(0, len(xs))
	for _, x := range xs {
		s.Add(x)
	}
	want := slices.Clone(xs)
	slices.Sort(want)
	if got, w := s.Mean(), stat.Mean(want, nil); math.Float64bits(got) != math.Float64bits(w) {
		t.Errorf("mean %v, want %v", got, w)
	}
	for _, p := range []float64{0, 1e-5, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 1} {
		if got, w := s.Quantile(p), stat.Quantile(p, stat.Empirical, want, nil); math.Float64bits(got) != math.Float64bits(w) {
			t.Errorf("quantile %v: %v, want %v", p, got, w)
		}
	}
	for _, x := range []float64{0.01, 0.05, 0.3, 1} {
		k, _ := slices.BinarySearch(want, math.Nextafter(x, math.Inf(1)))
		if got, w := s.Over(x), float64(len(want)-k)/float64(len(want)); got != w {
			t.Errorf("over %v: %v, want %v", x, got, w)
		}
	}
	if i := sameBits(s.Values(), want); i >= 0 {
		t.Errorf("values differ from slices.Sort's at %d", i)
	}
}

// BenchmarkSort times radixSort (ns/op, allocations) on lognormal
// latencies of three lengths (10⁴, a paper-scale run's 2·10⁵, the exact
// limit 10⁶), and slices.Sort on the same input in the same iteration, and
// reports x-slices: slices.Sort's time over sortFloats', measured side by
// side so that load on a shared machine enters both.
func BenchmarkSort(b *testing.B) {
	for _, n := range []int{10_000, 200_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSort(b, n) })
	}
}

// BenchmarkSortCrossover is BenchmarkSort around radixMin, where the
// radix sort's fixed cost meets slices.Sort's n·log n.
func BenchmarkSortCrossover(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 1536, 1792, 2048, 3072, 4096} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSort(b, n) })
	}
}

func benchSort(b *testing.B, n int) {
	xs := lognormal(rand.New(rand.NewPCG(17, 18)), n)
	work := make([]float64, n)
	var radix, cmp time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(work, xs)
		b.StartTimer()
		t0 := time.Now()
		if _, ok := radixSort(work); !ok {
			b.Fatal("a lognormal sample refused")
		}
		radix += time.Since(t0)
		b.StopTimer()
		copy(work, xs)
		t0 = time.Now()
		slices.Sort(work)
		cmp += time.Since(t0)
		b.StartTimer()
	}
	b.StopTimer()
	if radix > 0 {
		b.ReportMetric(float64(cmp)/float64(radix), "x-slices")
		b.ReportMetric(float64(cmp.Nanoseconds())/float64(b.N), "slices-ns/op")
	}
}
