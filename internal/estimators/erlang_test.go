package estimators

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactErlangC sums the M/M/c stationary distribution in 256-bit floats,
// independently of the Erlang-B recursion:
//
//	P_wait = (a^c/c!)·c/(c−a) / (Σ_{k<c} a^k/k! + (a^c/c!)·c/(c−a))
func exactErlangC(c int, a float64) float64 {
	const prec = 256
	af := new(big.Float).SetPrec(prec).SetFloat64(a)
	term := new(big.Float).SetPrec(prec).SetInt64(1) // a^0/0!
	sum := new(big.Float).SetPrec(prec)
	for k := 0; k < c; k++ {
		sum.Add(sum, term)
		term.Mul(term, af)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(k+1)))
	}
	// term = a^c/c!; scale by c/(c−a).
	cf := new(big.Float).SetPrec(prec).SetInt64(int64(c))
	tail := new(big.Float).SetPrec(prec).Mul(term, cf)
	tail.Quo(tail, new(big.Float).SetPrec(prec).Sub(cf, af))
	sum.Add(sum, tail)
	p, _ := new(big.Float).SetPrec(prec).Quo(tail, sum).Float64()
	return p
}

// near reports |got − want| ≤ rel·|want| + abs.
func near(got, want, rel, abs float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)+abs
}

func TestErlangCAgainstStationaryDistribution(t *testing.T) {
	rhos := []float64{0.01, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99}
	for c := 1; c <= 200; c++ {
		for _, rho := range rhos {
			a := rho * float64(c)
			got, want := ErlangC(c, a), exactErlangC(c, a)
			// The worst relative error measured over this grid is 1.6e-14
			// (about 70 ulps, at c near 200); 1e-13 leaves a margin of ~6.
			// The absolute floor covers results in the subnormal range
			// (c = 200, ρ = 0.01 gives ~1e-315).
			if !near(got, want, 1e-13, 1e-300) {
				t.Errorf("ErlangC(c=%d, a=%g) = %.17g, want %.17g (rel err %.3g)",
					c, a, got, want, math.Abs(got-want)/want)
			}
		}
	}
}

func TestErlangCTextbook(t *testing.T) {
	tests := []struct {
		name string
		c    int
		a    float64
		want float64
	}{
		// M/M/1: P_wait = ρ (Gross et al. 2008, §2.2).
		{"M/M/1 rho=0.5", 1, 0.5, 0.5},
		{"M/M/1 rho=0.9", 1, 0.9, 0.9},
		// M/M/2: P_wait = 2ρ²/(1+ρ) (Gross et al. 2008, §2.3).
		{"M/M/2 a=1", 2, 1, 1.0 / 3},
		{"M/M/2 a=1.6", 2, 1.6, 2 * 0.64 / 1.8},
		// c = 3, a = 2: (8/6·3)/(1 + 2 + 2 + 4) = 4/9, by hand.
		{"c=3 a=2", 3, 2, 4.0 / 9},
		{"unstable a=c", 4, 4, 1},
		{"unstable a>c", 4, 7, 1},
		{"no load", 8, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErlangC(tt.c, tt.a); !near(got, tt.want, 1e-14, 0) {
				t.Errorf("ErlangC(%d, %g) = %.17g, want %.17g", tt.c, tt.a, got, tt.want)
			}
		})
	}
}

func TestErlangBTable(t *testing.T) {
	tests := []struct {
		name string
		c    int
		a    float64
		want float64
	}{
		// B(1, a) = a/(1+a); B(2, 1) = (1/2)/(1+1+1/2) = 1/5, by hand.
		{"c=1 a=1", 1, 1, 0.5},
		{"c=2 a=1", 2, 1, 0.2},
		// Erlang B table: 10 circuits at 5 Erlangs block 1.84%; exactly
		// (5^10/10!)/Σ_{k≤10} 5^k/k! = 0.018384570336...
		{"c=10 a=5", 10, 5, 0.01838457033},
		{"no servers", 0, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErlangB(tt.c, tt.a); !near(got, tt.want, 1e-9, 0) {
				t.Errorf("ErlangB(%d, %g) = %.12g, want %.12g", tt.c, tt.a, got, tt.want)
			}
		})
	}
}

func TestErlangCLargeC(t *testing.T) {
	// Hundreds to thousands of servers: finite, in [0, 1], no NaN.
	for _, c := range []int{300, 500, 1000, 5000} {
		for _, rho := range []float64{1e-6, 0.5, 0.99, 0.999999} {
			got := ErlangC(c, rho*float64(c))
			if math.IsNaN(got) || got < 0 || got > 1 {
				t.Errorf("ErlangC(%d, %g) = %g, want a probability", c, rho*float64(c), got)
			}
		}
	}
}

func TestMMcWait(t *testing.T) {
	tests := []struct {
		name             string
		c                int
		lambda, mu, want float64
	}{
		// M/M/1: W_q = ρ/(μ − λ).
		{"M/M/1", 1, 0.5, 1, 1},
		// M/M/2: W_q = ρ²/(μ(1 − ρ²)); ρ = 0.5 → 0.25/0.75 = 1/3.
		{"M/M/2", 2, 1, 1, 1.0 / 3},
		{"idle", 3, 0, 1, 0},
		{"unstable", 2, 2, 1, math.Inf(1)},
		{"overloaded", 2, 5, 1, math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MMcWait(tt.c, tt.lambda, tt.mu)
			if got != tt.want && !near(got, tt.want, 1e-14, 0) {
				t.Errorf("MMcWait(%d, %g, %g) = %.17g, want %.17g", tt.c, tt.lambda, tt.mu, got, tt.want)
			}
		})
	}
}

func TestAllenCunneen(t *testing.T) {
	tests := []struct {
		name                       string
		c                          int
		lambda, mu, ca2, cs2, want float64
	}{
		// M/D/1 at ρ = 0.5: Pollaczek–Khinchine ρ/(2μ(1−ρ)) = 0.5.
		{"M/D/1", 1, 0.5, 1, 1, 0, 0.5},
		// M/G/1 with C_s² = 0.8 at ρ = 0.8, μ = 10: ρ/(μ−λ)·0.9 = 0.8/2·0.9.
		{"M/G/1 pareto 2.5", 1, 8, 10, 1, 0.8, 0.36},
		// c = 2, λ = μ = 1: M/M/2 wait 1/3, × (1 + 0.8)/2 = 0.3.
		{"M/G/2", 2, 1, 1, 1, 0.8, 0.3},
		// D/D/1: no variability, no wait.
		{"D/D/1", 1, 0.5, 1, 0, 0, 0},
		{"unstable", 3, 3, 1, 1, 0.8, math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AllenCunneen(tt.c, tt.lambda, tt.mu, tt.ca2, tt.cs2)
			if got != tt.want && !near(got, tt.want, 1e-14, 0) {
				t.Errorf("AllenCunneen(%d, %g, %g, %g, %g) = %.17g, want %.17g",
					tt.c, tt.lambda, tt.mu, tt.ca2, tt.cs2, got, tt.want)
			}
		})
	}
}

func TestAllenCunneenEqualsMMcWhenSCVsAreOne(t *testing.T) {
	for _, c := range []int{1, 2, 4, 16, 64, 200} {
		for _, rho := range []float64{0.05, 0.5, 0.9, 0.99} {
			mu := 7.0
			lambda := rho * float64(c) * mu
			ac, mmc := AllenCunneen(c, lambda, mu, 1, 1), MMcWait(c, lambda, mu)
			if ac != mmc {
				t.Errorf("c=%d λ=%g μ=%g: AllenCunneen(…, 1, 1) = %.17g, MMcWait = %.17g", c, lambda, mu, ac, mmc)
			}
		}
	}
}

func TestParetoCs2(t *testing.T) {
	tests := []struct {
		alpha, want float64
		wantErr     bool
	}{
		{2.5, 0.8, false},
		{3, 1.0 / 3, false},
		{2, 0, true},
		{1.5, 0, true},
		{math.NaN(), 0, true},
	}
	for _, tt := range tests {
		got, err := ParetoCs2(tt.alpha)
		if (err != nil) != tt.wantErr || (!tt.wantErr && !near(got, tt.want, 1e-15, 0)) {
			t.Errorf("ParetoCs2(%g) = %g, %v; want %g, error %v", tt.alpha, got, err, tt.want, tt.wantErr)
		}
	}
}

// exactErlangB is B(c, a) = (a^c/c!)/Σ_{k≤c} a^k/k! in 256-bit floats,
// summed from k = 0 independently of either way ErlangB computes it.
func exactErlangB(c int, a float64) float64 {
	const prec = 256
	af := new(big.Float).SetPrec(prec).SetFloat64(a)
	term := new(big.Float).SetPrec(prec).SetInt64(1) // a^0/0!
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	for k := 1; k <= c; k++ {
		term.Mul(term, af)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(k)))
		sum.Add(sum, term)
	}
	b, _ := new(big.Float).SetPrec(prec).Quo(term, sum).Float64()
	return b
}

// largeTol is the relative error allowed to ErlangB beyond
// recursionServers at a result b. Its 1/P(N = c) is exp(−E + …): E's
// terms, each at most a few times |E| ≈ |ln b|, round to a few ulps of
// |E| at most, which the exponential turns into a relative error, and the
// sums and the subtraction add a few ulps: 10 roundings of 1 + |ln b|.
// The worst measured over these grids is 4.5 of them (logged).
func largeTol(b float64) float64 {
	return 10 * 0x1p-53 * (1 + math.Abs(math.Log(b)))
}

// TestErlangBLargeAgainstExact checks ErlangB beyond recursionServers
// against the 256-bit sum, at light and heavy load, at saturation and
// overload (the a ≥ c sum), on a grid and at random points, light loads
// (where B is near the float range's end and E is large) included.
func TestErlangBLargeAgainstExact(t *testing.T) {
	type point struct {
		c int
		a float64
	}
	var pts []point
	rhos := []float64{0.01, 0.02, 0.03, 0.05, 0.1, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1, 1.001, 1.2, 2, 10}
	cs := []int{recursionServers + 1, 264, 300, 1000, 4000, 20000}
	if testing.Short() {
		cs = cs[:4]
	}
	for _, c := range cs {
		for _, rho := range rhos {
			pts = append(pts, point{c, rho * float64(c)})
		}
	}
	for k := range 200 { // ρ from 0.02 to 0.06 at 264 servers, where E is near 700 and d's rounding would count most
		pts = append(pts, point{264, 264 * (0.02 + 0.0002*float64(k))})
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 300 { // c from 257 to 1,000, ρ log-uniform over 0.005 to 2
		c := recursionServers + 1 + r.IntN(744)
		pts = append(pts, point{c, float64(c) * 0.005 * math.Pow(400, r.Float64())})
	}
	worst, worstRel, recRel := 0.0, 0.0, 0.0
	for _, p := range pts {
		got, want := ErlangB(p.c, p.a), exactErlangB(p.c, p.a)
		if want < 0x1p-1022 { // a subnormal B, which 1/B cannot give to the bit: tiny is right
			if got > 0x1p-1020 {
				t.Errorf("ErlangB(c=%d, a=%g) = %g, want about %g", p.c, p.a, got, want)
			}
			continue
		}
		if !near(got, want, largeTol(want), 0) {
			t.Errorf("ErlangB(c=%d, a=%.17g) = %.17g, want %.17g (rel err %.3g, allowed %.3g)",
				p.c, p.a, got, want, math.Abs(got-want)/want, largeTol(want))
		}
		worst = max(worst, math.Abs(got-want)/want/largeTol(want)*10)
		worstRel = max(worstRel, math.Abs(got-want)/want)
		recRel = max(recRel, math.Abs(1/invErlangB(p.c, p.a)-want)/want)
	}
	t.Logf("worst error: %.2f roundings of 1 + |ln B|, %.2g relative (the recursion's at the same points: %.2g)", worst, worstRel, recRel)
}

// TestErlangBLargeAgainstRecursion compares the two ways of ErlangB where
// either may run, up to the 100,000 servers a scenario may have: they
// agree within the sum of their errors (the recursion's, at most c
// roundings of 2 ulps).
func TestErlangBLargeAgainstRecursion(t *testing.T) {
	rhos := []float64{1e-3, 0.3, 0.7, 0.9, 0.99, 0.9999, 1, 1.5, 3}
	for _, c := range []int{recursionServers + 1, 1000, 10000, 100000} {
		for _, rho := range rhos {
			a := rho * float64(c)
			got, want := 1/invErlangBLarge(c, a), 1/invErlangB(c, a)
			if want == 0 {
				if got != 0 {
					t.Errorf("c=%d a=%g: %g by the sums, 0 by the recursion", c, a, got)
				}
				continue
			}
			tol := largeTol(want) + 4*float64(c)*0x1p-53
			if !near(got, want, tol, 0) {
				t.Errorf("c=%d a=%g: %.17g by the sums, %.17g by the recursion (rel diff %.3g, allowed %.3g)",
					c, a, got, want, math.Abs(got-want)/want, tol)
			}
		}
	}
}

// TestErlangBLargeNaN: a NaN load gives NaN, as the recursion does, rather
// than a sum that never ends.
func TestErlangBLargeNaN(t *testing.T) {
	for _, c := range []int{recursionServers, recursionServers + 1} {
		if got := ErlangB(c, math.NaN()); !math.IsNaN(got) {
			t.Errorf("ErlangB(%d, NaN) = %v, want NaN", c, got)
		}
	}
	if got := log1pmx(math.NaN()); !math.IsNaN(got) {
		t.Errorf("log1pmx(NaN) = %v", got)
	}
}

// TestLog1pmx checks ln(1+x) − x against its series summed in 256-bit
// floats, over |x| ≤ 0.3 (the series' range and past it), to 4 ulps.
func TestLog1pmx(t *testing.T) {
	const prec = 256
	r := rand.New(rand.NewPCG(9, 10))
	xs := []float64{0, 1e-300, -1e-300, 1e-8, -1e-8, 0.25, -0.25, 0.3, -0.3}
	for range 2000 {
		xs = append(xs, (r.Float64()*2-1)*0.3*math.Pow(10, -6*r.Float64()))
	}
	for _, x := range xs {
		// −Σ_{k≥2} (−x)^k / k, to 300 terms: |x|^300 is far below 2⁻²⁵⁶.
		xf := new(big.Float).SetPrec(prec).SetFloat64(-x)
		p := new(big.Float).SetPrec(prec).Set(xf)
		sum := new(big.Float).SetPrec(prec)
		for k := 2; k <= 300; k++ {
			p.Mul(p, xf)
			sum.Sub(sum, new(big.Float).SetPrec(prec).Quo(p, new(big.Float).SetPrec(prec).SetInt64(int64(k))))
		}
		want, _ := sum.Float64()
		if got := log1pmx(x); !near(got, want, 4*0x1p-52, 0) {
			t.Errorf("log1pmx(%.17g) = %.17g, want %.17g", x, got, want)
		}
	}
}
