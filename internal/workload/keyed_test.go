package workload

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Philox2x64-10 gives Random123's known answers (kat_vectors, "philox2x64
// 10"): the generator is the published one, not a look-alike.
func TestPhiloxKnownAnswers(t *testing.T) {
	for _, kat := range []struct{ c0, c1, k, o0, o1 uint64 }{
		{0, 0, 0, 0xca00a0459843d731, 0x66c24222c9a845b5},
		{math.MaxUint64, math.MaxUint64, math.MaxUint64, 0x65b021d60cd8310f, 0x4d02f3222f86df20},
		{0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x0a5e742c2997341c, 0xb0f883d38000de5d},
	} {
		if a, b := philox2x64(kat.c0, kat.c1, kat.k); a != kat.o0 || b != kat.o1 {
			t.Errorf("philox2x64(%#x, %#x; %#x) = %#x %#x, want %#x %#x", kat.c0, kat.c1, kat.k, a, b, kat.o0, kat.o1)
		}
	}
}

// A task's delay to a tier is the same whether it is read first, last,
// twice or alone (common random numbers with draws on demand), differs
// between tiers of one law and between replicates, and a source's delays
// do not depend on the other streams' draws.
func TestDelayIsKeyedByTaskAndTier(t *testing.T) {
	size, _ := New("pareto", 1, 2.5, 0)
	delay, _ := LognormalDelay(0.01, 0.5)
	spec := Spec{Arrivals: Schedule{Rate: 50}, Size: size, Delays: []Dist{{}, delay, delay, delay}}
	const n = 500
	forward := NewSource(spec, NewStreams(4, 1), nil)
	backward := NewSource(spec, NewStreams(4, 1), nil)
	other := NewSource(spec, NewStreams(4, 2), nil)
	var x, y, z Task
	same := 0
	for k := range n {
		forward.Next(&x)
		backward.Next(&y)
		other.Next(&z)
		var f [4]float64
		for i := range 4 {
			f[i] = forward.Delay(&x, i)
		}
		for i := 3; i >= 0; i-- {
			if b := backward.Delay(&y, i); b != f[i] || backward.Delay(&y, i) != b {
				t.Fatalf("task %d, tier %d: %v read backwards or twice, %v forwards", k, i, b, f[i])
			}
		}
		if f[0] != 0 || f[1] == f[2] || f[2] == f[3] {
			t.Fatalf("task %d: delays %v", k, f)
		}
		if other.Delay(&z, 1) == f[1] {
			same++
		}
		// Only tier 2 read, every other task: the next tasks' delays are unmoved.
		if k%2 == 0 {
			_ = backward.Delay(&y, 2)
		}
	}
	if same > 0 {
		t.Errorf("%d delays equal across replicates", same)
	}
}

// Keyed draws have the law they are drawn from: the lognormal delay's mean
// and coefficient of variation, and the uniformity of a Float64 over the
// pairs (a chi-square over 64 cells), to the bounds of their sampling
// error at 2·10⁵ pairs (5 standard errors; the cv's from the lognormal's
// fourth moment).
func TestKeyedDrawsFollowTheLaw(t *testing.T) {
	const n = 200000
	delay, _ := LognormalDelay(0.02, 0.5)
	pr := newPairRand(NewKeyed(11, 0, DelayStream))
	var s1, s2 float64
	var cells [64]int
	for k := range n {
		x := delay.Sample(pr.at(k/4, k%4))
		s1 += x
		s2 += x * x
		cells[int(pr.at(k, 7).Float64()*64)]++
	}
	mean := s1 / n
	sd := math.Sqrt(s2/n - mean*mean)
	if se := 0.5 * 0.02 / math.Sqrt(n); math.Abs(mean-0.02) > 5*se {
		t.Errorf("mean %v, want 0.02 ± %v", mean, 5*se)
	}
	// Var of the sample variance ≈ (μ₄ − σ⁴)/n; the lognormal's
	// μ₄/σ⁴ = w⁴ + 2w³ + 3w² − 3 with w = 1 + cv².
	w := 1.25
	kurt := w*w*w*w + 2*w*w*w + 3*w*w - 3
	sigma := 0.5 * 0.02
	if se := sigma * math.Sqrt(kurt-1) / (2 * math.Sqrt(n)); math.Abs(sd-sigma) > 5*se {
		t.Errorf("sd %v, want %v ± %v", sd, sigma, 5*se)
	}
	var chi float64
	for _, c := range cells {
		d := float64(c) - n/64.0
		chi += d * d / (n / 64.0)
	}
	// χ² with 63 degrees of freedom: mean 63, sd √126 ≈ 11.2; 5 sd.
	if chi > 63+5*math.Sqrt(126) {
		t.Errorf("χ² %v over 64 cells of uniforms", chi)
	}
}

// Neighbouring pairs are uncorrelated: the Pearson correlation of the
// standard normals of (task, tier) and (task, tier+1), and of (task, tier)
// and (task+1, tier), is within 5/√n of 0 — the counter's structure shows
// through no draw.
func TestKeyedNeighboursAreUncorrelated(t *testing.T) {
	const n = 100000
	pr := newPairRand(NewKeyed(3, 7, DelayStream))
	z := func(task, tier int) float64 { return pr.at(task, tier).NormFloat64() }
	var sTier, sTask float64
	for k := range n {
		a := z(k, 3)
		sTier += a * z(k, 4)
		sTask += a * z(k+1, 3)
	}
	for name, s := range map[string]float64{"tier": sTier, "task": sTask} {
		if r := s / n; math.Abs(r) > 5/math.Sqrt(n) {
			t.Errorf("correlation of neighbouring %ss %v", name, r)
		}
	}
}

var sinkDelay float64

// BenchmarkKeyedDelay draws one lognormal delay from the keyed stream, as
// the engine does for the chosen tier: one op is one delay.
func BenchmarkKeyedDelay(b *testing.B) {
	delay, _ := LognormalDelay(0.01, 0.2)
	pr := newPairRand(NewKeyed(1, 0, DelayStream))
	b.ReportAllocs()
	for k := range b.N {
		sinkDelay += delay.Sample(pr.at(k, 2))
	}
}

// BenchmarkSequentialDelay draws the same law from a PCG stream, as every
// delay was drawn before the keyed stream.
func BenchmarkSequentialDelay(b *testing.B) {
	delay, _ := LognormalDelay(0.01, 0.2)
	r := rand.New(rand.NewPCG(1, 3))
	b.ReportAllocs()
	for range b.N {
		sinkDelay += delay.Sample(r)
	}
}
