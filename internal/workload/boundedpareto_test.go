package workload

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bpNaive is BPMoment's formula as written, for k ≠ α.
func bpNaive(k, a, l, h float64) float64 {
	return a * math.Pow(l, a) * (math.Pow(h, k-a) - math.Pow(l, k-a)) / ((k - a) * (1 - math.Pow(l/h, a)))
}

// bpQuad is E[X^k] by composite Simpson in u = ln x: the integrand
// α·L^α·e^((k−α)u)/norm is smooth, so 2·10⁵ panels give 1e-13.
func bpQuad(k, a, l, h float64) float64 {
	const n = 200000
	lo, hi := math.Log(l), math.Log(h)
	dh := (hi - lo) / n
	f := func(u float64) float64 { return math.Exp((k-a)*u + a*lo) }
	s := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(lo+float64(i)*dh)
	}
	return a * s * dh / 3 / (1 - math.Pow(l/h, a))
}

// The closed-form moments against the formula as written and against
// quadrature, including k = α and k near α.
func TestBoundedParetoMoments(t *testing.T) {
	for _, c := range [][3]float64{{1.1, 0.1, 1000}, {2, 1, 100}, {1, 0.5, 50}, {0.5, 1, 10}, {3.5, 2, 1e4}, {2.0000001, 1, 100}, {1.5, 1, 1.01}} {
		a, l, h := c[0], c[1], c[2]
		for _, k := range []float64{1, 2} {
			got := BPMoment(k, a, l, h)
			if q := bpQuad(k, a, l, h); math.Abs(got-q) > 1e-12*q {
				t.Errorf("α %g [%g, %g] k %g: %.17g, quadrature %.17g", a, l, h, k, got, q)
			}
			if math.Abs(k-a) > 1e-3 {
				if n := bpNaive(k, a, l, h); math.Abs(got-n) > 1e-12*n {
					t.Errorf("α %g [%g, %g] k %g: %.17g, formula %.17g", a, l, h, k, got, n)
				}
			}
		}
	}
	// k = α exactly: α·L^α·ln(H/L)/(1 − (L/H)^α).
	if got, want := BPMoment(2, 2, 1, 100), 2*math.Log(100)/(1-1e-4); math.Abs(got-want) > 1e-14*want {
		t.Errorf("k = α: %.17g, want %.17g", got, want)
	}
}

// Dist's mean and C_s² are the closed forms; sampling by inversion gives
// a sample mean within 4σ; the quantile, CDF, partial moments and work
// quantile agree with each other.
func TestBoundedParetoDist(t *testing.T) {
	const a, l, h = 1.1, 0.1, 1000.0
	d, err := NewBoundedPareto(a, l, h)
	if err != nil {
		t.Fatal(err)
	}
	m1, m2 := BPMoment(1, a, l, h), BPMoment(2, a, l, h)
	if d.Mean() != m1 || math.Abs(d.Cs2()-(m2/(m1*m1)-1)) > 1e-14*d.Cs2() {
		t.Fatalf("mean %g cs2 %g, want %g %g", d.Mean(), d.Cs2(), m1, m2/(m1*m1)-1)
	}
	if d.Moment(2) != m2 || d.Moment(0) != 1 {
		t.Errorf("Moment(2) %g, Moment(0) %g", d.Moment(2), d.Moment(0))
	}
	r := rand.New(rand.NewPCG(1, 1))
	const n = 1000000
	var s float64
	for range n {
		x := d.Sample(r)
		if x < l || x > h {
			t.Fatalf("sample %g outside [%g, %g]", x, l, h)
		}
		s += x
	}
	sigma := math.Sqrt((m2 - m1*m1) / n)
	if math.Abs(s/n-m1) > 4*sigma {
		t.Errorf("sample mean %g, mean %g (4σ %g)", s/n, m1, 4*sigma)
	}
	for _, p := range []float64{1e-9, 0.1, 0.5, 0.9, 0.999999} {
		x := d.Quantile(p)
		if got := d.CDF(x); math.Abs(got-p) > 1e-12 {
			t.Errorf("CDF(Quantile(%g)) = %.17g", p, got)
		}
	}
	for _, w := range []float64{0.1, 0.5, 0.9, 0.99} {
		x := d.WorkQuantile(w)
		if got := d.PartialMoment(1, 0, x); math.Abs(got-w*m1) > 1e-12*m1 {
			t.Errorf("work quantile %g: E[X; X ≤ %g] = %.17g, want %.17g", w, x, got, w*m1)
		}
	}
	for k := range 3 {
		x := d.Quantile(0.3)
		if lo, hi := d.PartialMoment(k, 0, x), d.PartialMoment(k, x, math.Inf(1)); math.Abs(lo+hi-d.Moment(k)) > 1e-12*d.Moment(k) {
			t.Errorf("k %d: parts %g + %g ≠ %g", k, lo, hi, d.Moment(k))
		}
	}
	if _, err := NewBoundedPareto(1, 2, 2); err == nil {
		t.Error("low = high accepted")
	}
	if _, err := NewBoundedPareto(0, 1, 2); err == nil {
		t.Error("alpha 0 accepted")
	}
}
