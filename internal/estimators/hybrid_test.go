package estimators

import (
	"math"
	"math/rand/v2"
	"testing"
)

// state is one consistent tier state for the invariant tests: q > 0 only
// when all c servers are busy.
type state struct {
	q, b, c              int
	mu, lam, cs2, rhoMax float64
}

func (s state) wait() float64 {
	return HybridWait(s.q, s.b, s.c, s.mu, s.lam, s.cs2, s.rhoMax)
}

// randomState draws a consistent state over wide ranges: 1–1000 servers,
// μ over 1e-3–1e4, λ̂ from idle to 1000× capacity, C_s² 0–100.
func randomState(r *rand.Rand) state {
	s := state{c: 1 + r.IntN(1000)}
	s.mu = math.Pow(10, -3+7*r.Float64())
	s.lam = s.mu * float64(s.c) * math.Pow(10, -4+7*r.Float64())
	if r.IntN(10) == 0 {
		s.lam = 0
	}
	s.cs2 = 100 * r.Float64() * r.Float64()
	s.rhoMax = 0.01 + 0.98999*r.Float64()
	s.b = r.IntN(s.c + 1)
	if s.b == s.c {
		s.q = r.IntN(3 * s.c)
	}
	return s
}

// checkInvariants verifies every docs/design.md §2 invariant of HybridWait at s.
func checkInvariants(t *testing.T, s state) {
	t.Helper()
	w := s.wait()
	if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
		t.Fatalf("%+v: Ŵ = %g, want finite ≥ 0", s, w)
	}
	// Non-decreasing in λ̂ for the same backlog. The formula is increasing;
	// 1e-12 relative slack absorbs rounding in the Erlang recursion.
	up := s
	up.lam = s.lam*1.01 + s.mu*1e-3
	if wu := up.wait(); wu < w*(1-1e-12) {
		t.Fatalf("%+v: Ŵ = %.17g at λ̂ = %g but %.17g at λ̂ = %g, want non-decreasing", s, w, s.lam, wu, up.lam)
	}
	model := ModelWait(s.c, s.lam, s.mu, s.cs2, s.rhoMax)
	queue := QueueWait(s.q, s.b, s.c, s.mu)
	switch {
	case s.q == 0 && w != model:
		t.Fatalf("%+v: Ŵ = %.17g at q = 0, want W^model = %.17g", s, w, model)
	case s.q >= s.c && w != queue:
		t.Fatalf("%+v: Ŵ = %.17g at q ≥ c, want W^queue = %.17g", s, w, queue)
	}
	if s.q >= s.c {
		next := s
		next.q++
		if wn := next.wait(); wn < w {
			t.Fatalf("%+v: Ŵ = %.17g at q = %d but %.17g at q = %d, want non-decreasing for q ≥ c", s, w, s.q, wn, next.q)
		}
	}
}

func TestHybridWaitInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for range n {
		checkInvariants(t, randomState(r))
	}
}

// FuzzEstimate maps arbitrary inputs onto a consistent tier state and checks
// every docs/design.md §2 invariant there.
func FuzzEstimate(f *testing.F) {
	f.Add(uint16(0), uint16(0), uint16(1), 10.0, 5.0, 0.8, 0.99)
	f.Add(uint16(3), uint16(4), uint16(4), 25.0, 120.0, 0.8, 0.99)
	f.Add(uint16(500), uint16(64), uint16(64), 50.0, 1e9, 0.0, 0.5)
	f.Add(uint16(1), uint16(200), uint16(200), 1e-3, 0.0, 100.0, 0.01)
	f.Fuzz(func(t *testing.T, q, b, c uint16, mu, lam, cs2, rhoMax float64) {
		s := state{c: 1 + int(c)%1000}
		s.b = int(b) % (s.c + 1)
		if s.b == s.c {
			s.q = int(q)
		}
		s.mu = clampFinite(mu, 1e-6, 1e6)
		s.lam = clampFinite(lam, 0, 1e12)
		s.cs2 = clampFinite(cs2, 0, 1e4)
		s.rhoMax = clampFinite(rhoMax, 1e-6, 1-1e-9)
		checkInvariants(t, s)
	})
}

// clampFinite maps x to [lo, hi] by its absolute value; NaN and ±Inf become lo.
func clampFinite(x, lo, hi float64) float64 {
	x = math.Abs(x)
	if math.IsNaN(x) || math.IsInf(x, 0) || x < lo {
		return lo
	}
	return math.Min(x, hi)
}

// TestBlendNotMonotoneBelowC pins the paper's blend for 0 < q < c. With all
// c servers busy, one more waiting task moves weight 1/c from W^model to
// W^queue = (q+1)/(cμ), so
//
//	Ŵ(q+1) − Ŵ(q) = (2(q+1)/(cμ) − W^model)/c,
//
// negative while W^model > 2(q+1)/(cμ): at high estimated load a tier whose
// queue starts to fill looks *faster* than one whose queue is empty, until
// the observed backlog outweighs the model. This is the method as published
// (β = min(1, q/c)), not a bug, and is kept.
func TestBlendNotMonotoneBelowC(t *testing.T) {
	const c, mu, cs2, rhoMax = 16, 1.0, 0.8, 0.99
	lam := 0.95 * c * mu // ρ̂ = 0.95: W^model ≈ 0.88 s, far above 2(q+1)/(cμ) for small q
	model := ModelWait(c, lam, mu, cs2, rhoMax)
	prev := HybridWait(0, c, c, mu, lam, cs2, rhoMax)
	for q := 1; q < c; q++ {
		got := HybridWait(q, c, c, mu, lam, cs2, rhoMax)
		wantFall := model > 2*float64(q)/(c*mu) // step from q−1 to q
		if fell := got < prev; fell != wantFall {
			t.Errorf("c=%d μ=%g λ̂=%g: Ŵ(q=%d) = %.6g, Ŵ(q=%d) = %.6g; W^model = %.6g vs 2q/(cμ) = %.6g, want fall=%v",
				c, mu, lam, q-1, prev, q, got, model, 2*float64(q)/(c*mu), wantFall)
		}
		prev = got
	}
	if low, high := HybridWait(1, c, c, mu, lam, cs2, rhoMax), HybridWait(0, c, c, mu, lam, cs2, rhoMax); !(low < high) {
		t.Errorf("Ŵ(q=1) = %g, Ŵ(q=0) = %g: want the blend to dip below the empty-queue estimate", low, high)
	}
}

func TestBlendMovesFromModelToQueue(t *testing.T) {
	const c, mu = 4, 25.0
	tests := []struct {
		q    int
		want float64
	}{{0, 0}, {1, 0.25}, {2, 0.5}, {3, 0.75}, {4, 1}, {40, 1}}
	for _, tt := range tests {
		if got := Blend(tt.q, c); got != tt.want {
			t.Errorf("Blend(q=%d, c=%d) = %g, want %g", tt.q, c, got, tt.want)
		}
	}
	model := ModelWait(c, 60, mu, 0.8, 0.99)
	if got := HybridWait(0, c, c, mu, 60, 0.8, 0.99); got != model {
		t.Errorf("q=0: Ŵ = %g, want W^model = %g", got, model)
	}
	if got, want := HybridWait(c, c, c, mu, 60, 0.8, 0.99), float64(c+1)/(c*mu); got != want {
		t.Errorf("q=c: Ŵ = %g, want W^queue = (q+1)/(cμ) = %g", got, want)
	}
}

func TestQueueWait(t *testing.T) {
	tests := []struct {
		name    string
		q, b, c int
		mu      float64
		want    float64
	}{
		{"idle", 0, 0, 4, 10, 0},
		{"free server", 0, 3, 4, 10, 0},
		{"all busy, empty queue", 0, 4, 4, 10, 1.0 / 40},
		{"backlog", 7, 4, 4, 10, 8.0 / 40},
	}
	for _, tt := range tests {
		if got := QueueWait(tt.q, tt.b, tt.c, tt.mu); got != tt.want {
			t.Errorf("%s: QueueWait(q=%d, b=%d, c=%d, μ=%g) = %g, want %g", tt.name, tt.q, tt.b, tt.c, tt.mu, got, tt.want)
		}
	}
}

func TestModelWaitCapped(t *testing.T) {
	const c, mu, cs2, rhoMax = 4, 25.0, 0.8, 0.99
	capped := AllenCunneen(c, rhoMax*c*mu, mu, 1, cs2)
	for _, lam := range []float64{99, 100, 1e3, 1e9} {
		got := ModelWait(c, lam, mu, cs2, rhoMax)
		if lam >= rhoMax*c*mu && !near(got, capped, 1e-12, 0) {
			t.Errorf("ModelWait(λ̂=%g) = %g, want the ρ_max value %g", lam, got, capped)
		}
	}
	if got, want := ModelWait(c, 50, mu, cs2, rhoMax), AllenCunneen(c, 50, mu, 1, cs2); !near(got, want, 1e-12, 0) {
		t.Errorf("ModelWait below the cap = %g, want AllenCunneen = %g", got, want)
	}
}

func TestPenalty(t *testing.T) {
	tests := []struct {
		name                       string
		score, rho, theta, k, want float64
	}{
		{"below threshold", 2, 0.5, 0.9, 1, 2},
		{"at threshold", 2, 0.9, 0.9, 1, 2},
		{"halfway", 2, 0.95, 0.9, 1, 3},
		{"saturated k=1", 2, 1, 0.9, 1, 4},
		{"switched off", 2, 5, 0.9, 0, 2},
		{"k=3", 1, 1, 0.5, 3, 4},
	}
	for _, tt := range tests {
		if got := Penalty(tt.score, tt.rho, tt.theta, tt.k); !near(got, tt.want, 1e-12, 0) {
			t.Errorf("%s: Penalty(%g, ρ=%g, θ=%g, k=%g) = %g, want %g", tt.name, tt.score, tt.rho, tt.theta, tt.k, got, tt.want)
		}
	}
}
