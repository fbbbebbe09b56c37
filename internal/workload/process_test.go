package workload

import (
	"math"
	"math/rand/v2"
	"testing"
)

// t999 is the two-sided 99.9% quantile of Student's t with 19 degrees of
// freedom: the replicate tests below put the theoretical value inside the
// 99.9% interval of 20 independent replicates.
const (
	reps = 20
	t999 = 3.883
)

// within checks that want lies in the 99.9% t-interval of the replicates xs.
func within(t *testing.T, name string, xs []float64, want float64) {
	t.Helper()
	var m, v float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	se := math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
	if math.Abs(m-want) > t999*se {
		t.Errorf("%s: replicate mean %.6g ± %.3g (99.9%%: ±%.3g), theory %.6g", name, m, se, t999*se, want)
	}
}

// arrivals draws n arrival times of a fresh process.
func arrivals(p ProcessSpec, s Schedule, r *rand.Rand, n int) []float64 {
	proc := p.Start(s)
	out := make([]float64, n)
	t := 0.0
	for i := range out {
		t, _ = proc.Arrival(t, r, nil)
		out[i] = t
	}
	return out
}

// gapMoments are the mean and SCV of the inter-arrivals of ts.
func gapMoments(ts []float64) (mean, scv float64) {
	var s, s2 float64
	prev := 0.0
	for _, x := range ts {
		g := x - prev
		prev = x
		s += g
		s2 += g * g
	}
	n := float64(len(ts))
	mean = s / n
	v := (s2 - n*mean*mean) / (n - 1)
	return mean, v / (mean * mean)
}

// A renewal process's inter-arrivals have mean 1/rate and the law's cv²,
// for each law.
func TestRenewalMoments(t *testing.T) {
	const rate, n = 60.0, 100000
	for _, law := range LawNames() {
		for _, cv := range []float64{0.5, 2} {
			l, err := NewLaw(law, cv)
			if err != nil {
				t.Fatal(err)
			}
			means, scvs := make([]float64, reps), make([]float64, reps)
			for i := range reps {
				r := rand.New(rand.NewPCG(uint64(i), 7))
				means[i], scvs[i] = gapMoments(arrivals(NewRenewal(l), Schedule{Rate: rate}, r, n))
			}
			within(t, law+" mean", means, 1/rate)
			within(t, law+" scv", scvs, cv*cv)
		}
	}
}

// Weibull's shape is solved to the last bits: its cv² is the one asked for.
func TestWeibullShape(t *testing.T) {
	for _, cv := range []float64{0.01, 0.3, 1, 3, 10, 100} {
		l, err := NewLaw("weibull", cv)
		if err != nil {
			t.Fatal(err)
		}
		if got := weibullCs2(l.Shape()); math.Abs(got-cv*cv) > 1e-11*cv*cv {
			t.Errorf("cv %g: shape %g gives cv² %.17g", cv, l.Shape(), got)
		}
	}
	if l, _ := NewLaw("weibull", 1); math.Abs(l.Shape()-1) > 1e-12 {
		t.Errorf("weibull cv 1: shape %.17g, want 1 (the exponential)", l.Shape())
	}
}

// A renewal process runs in operational time: a burst of factor f makes
// its arrivals f times as dense.
func TestRenewalBurstSpeedsClock(t *testing.T) {
	l, _ := NewLaw("gamma", 2)
	s := Schedule{Rate: 10, Bursts: []Burst{{Start: 0, Every: 20, Length: 10, Factor: 4}}}
	const span = 20000.0
	in, out := make([]float64, reps), make([]float64, reps)
	for i := range reps {
		proc := NewRenewal(l).Start(s)
		r := rand.New(rand.NewPCG(uint64(i), 9))
		var nin, nout int
		for x, _ := proc.Arrival(0, r, nil); x < span; x, _ = proc.Arrival(x, r, nil) {
			if math.Mod(x, 20) < 10 {
				nin++
			} else {
				nout++
			}
		}
		in[i], out[i] = float64(nin)/(span/2), float64(nout)/(span/2)
	}
	within(t, "rate in bursts", in, 40)
	within(t, "rate between", out, 10)
}

// mmppIDC is the index of dispersion Var N(w)/E N(w) of a stationary
// two-state MMPP's counts in a window w (Fischer & Meier-Hellstern 1993):
// with σ_i = 1/m_i the rates of leaving phase i, s = σ₀+σ₁,
// Var N(w) = λ̄w + 2π₀π₁(λ₀−λ₁)²/s²·(sw − 1 + e^(−sw)); as w → ∞,
// 1 + 2σ₀σ₁(λ₀−λ₁)²/(s²(λ₀σ₁+λ₁σ₀)).
func mmppIDC(r0, r1, m0, m1, w float64) float64 {
	s := 1/m0 + 1/m1
	p0, p1 := m0/(m0+m1), m1/(m0+m1)
	mean := p0*r0 + p1*r1
	d := r0 - r1
	return 1 + 2*p0*p1*d*d/(s*s)*(s*w-1+math.Exp(-s*w))/(mean*w)
}

// An MMPP's rate is π₀r₀ + π₁r₁ and its counts' index of dispersion the
// closed form's.
func TestMMPPRateAndDispersion(t *testing.T) {
	const r0, r1, m0, m1 = 20.0, 200.0, 2.0, 0.5
	const w, windows = 50.0, 200
	p, mean, err := NewMMPP(r0, r1, m0, m1)
	if err != nil {
		t.Fatal(err)
	}
	if want := (20*2 + 200*0.5) / 2.5; math.Abs(mean-want) > 1e-12*want {
		t.Fatalf("stationary rate %g, want %g", mean, want)
	}
	rates, idcs := make([]float64, reps), make([]float64, reps)
	for i := range reps {
		proc := p.Start(Schedule{Rate: mean})
		r := rand.New(rand.NewPCG(uint64(i), 11))
		counts := make([]float64, windows)
		total := 0
		for x, _ := proc.Arrival(0, r, nil); x < w*windows; x, _ = proc.Arrival(x, r, nil) {
			counts[int(x/w)]++
			total++
		}
		var m, v float64
		for _, c := range counts {
			m += c
		}
		m /= windows
		for _, c := range counts {
			v += (c - m) * (c - m)
		}
		rates[i] = float64(total) / (w * windows)
		idcs[i] = v / (windows - 1) / m
	}
	within(t, "mmpp rate", rates, mean)
	want := mmppIDC(r0, r1, m0, m1, w)
	within(t, "mmpp IDC", idcs, want)
	if inf := 1 + 2*0.5*2*180.0*180/(2.5*2.5*(20*2+200*0.5)); math.Abs(mmppIDC(r0, r1, m0, m1, 1e12)-inf) > 1e-6*inf {
		t.Errorf("IDC(∞) %g, closed form %g", mmppIDC(r0, r1, m0, m1, 1e12), inf)
	}
}

// A diurnal process's counts in each quarter of the period are Poisson
// with mean the integrated rate over it: within 4σ, σ² = that mean.
func TestDiurnalQuarters(t *testing.T) {
	const rate, amp, period, periods = 50.0, 0.8, 100.0, 400
	p, err := NewDiurnal(amp, period)
	if err != nil {
		t.Fatal(err)
	}
	proc := p.Start(Schedule{Rate: rate})
	r := rand.New(rand.NewPCG(3, 13))
	var counts [4]float64
	for x, _ := proc.Arrival(0, r, nil); x < period*periods; x, _ = proc.Arrival(x, r, nil) {
		counts[int(4*math.Mod(x, period)/period)]++
	}
	for q := range 4 {
		a, b := 2*math.Pi*float64(q)/4, 2*math.Pi*float64(q+1)/4
		want := periods * rate * (period/4 + amp*period/(2*math.Pi)*(math.Cos(a)-math.Cos(b)))
		if math.Abs(counts[q]-want) > 4*math.Sqrt(want) {
			t.Errorf("quarter %d: %g arrivals, Λ = %g (4σ = %.0f)", q, counts[q], want, 4*math.Sqrt(want))
		}
	}
}

// The diurnal inversion solves the integrated rate to full precision, at
// any phase and far from the origin.
func TestDiurnalSolve(t *testing.T) {
	p, _ := NewDiurnal(0.95, 86400)
	d := p.Start(Schedule{Rate: 1}).(*diurnal)
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a := r.Float64() * 1e7
		y := r.ExpFloat64() * math.Pow(10, 6*r.Float64()-2)
		x := d.solve(a, y)
		if got := d.integral(a, x); math.Abs(got-y) > 1e-13*y {
			t.Fatalf("a %g, y %g: solve %g integrates to %.17g", a, y, x, got)
		}
	}
}

// Diurnal with bursts: the factors multiply the sinusoidal rate.
func TestDiurnalBurstsMultiply(t *testing.T) {
	p, _ := NewDiurnal(0.5, 40)
	s := Schedule{Rate: 20, Bursts: []Burst{{Start: 0, Every: 40, Length: 10, Factor: 3}}}
	proc := p.Start(s)
	r := rand.New(rand.NewPCG(5, 6))
	const periods = 500
	var in float64
	for x, _ := proc.Arrival(0, r, nil); x < 40*periods; x, _ = proc.Arrival(x, r, nil) {
		if math.Mod(x, 40) < 10 {
			in++
		}
	}
	// ∫₀¹⁰ 3·20·(1 + 0.5 sin(2πt/40)) dt = 60·(10 + 0.5·40/(2π)).
	want := periods * 60 * (10 + 0.5*40/(2*math.Pi))
	if math.Abs(in-want) > 4*math.Sqrt(want) {
		t.Errorf("%g arrivals in bursts, Λ = %g", in, want)
	}
}

// A closed stop channel ends an MMPP's walk through fast phase changes.
func TestMMPPStops(t *testing.T) {
	p, mean, _ := NewMMPP(0, 1e-6, 1e-6, 1e-6)
	stop := make(chan struct{})
	close(stop)
	if _, ok := p.Start(Schedule{Rate: mean}).Arrival(0, rand.New(rand.NewPCG(1, 1)), stop); ok {
		t.Error("arrival placed despite stop")
	}
}

// Poisson through Start is Schedule itself, draw for draw.
func TestPoissonStartIsSchedule(t *testing.T) {
	s := Schedule{Rate: 3, Bursts: []Burst{{Start: 1, Every: 5, Length: 2, Factor: 4}}}
	a := rand.New(rand.NewPCG(1, 2))
	b := rand.New(rand.NewPCG(1, 2))
	proc := ProcessSpec{}.Start(s)
	x, y := 0.0, 0.0
	for range 1000 {
		x = s.Next(x, a)
		y, _ = proc.Arrival(y, b, nil)
		if x != y {
			t.Fatalf("schedule %v, process %v", x, y)
		}
	}
}
