package estimators

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// The online C_a² reads the SCV of the gaps it holds: constant gaps 0,
// exponential ones 1 and hyperexponential ones their known SCV, within
// 4σ of the estimate's spread over replicates.
func TestCa2WindowAgainstTheory(t *testing.T) {
	// A two-phase hyperexponential: with prob p mean m1, else m2.
	const p, m1, m2 = 0.2, 4.0, 0.25
	mean := p*m1 + (1-p)*m2
	second := 2 * (p*m1*m1 + (1-p)*m2*m2)
	h2 := second/(mean*mean) - 1
	for _, c := range []struct {
		name string
		gap  func(r *rand.Rand) float64
		want float64
	}{
		{"exponential", func(r *rand.Rand) float64 { return r.ExpFloat64() }, 1},
		{"hyperexponential", func(r *rand.Rand) float64 {
			if r.Float64() < p {
				return m1 * r.ExpFloat64()
			}
			return m2 * r.ExpFloat64()
		}, h2},
	} {
		var xs []float64
		for rep := range 40 {
			r := rand.New(rand.NewPCG(uint64(rep), 3))
			w := NewCa2Window(1e9)
			now := 0.0
			for range Ca2Gaps + 1 {
				now += c.gap(r)
				w.Add(now)
			}
			xs = append(xs, w.Ca2(now))
		}
		var m, v float64
		for _, x := range xs {
			m += x
		}
		m /= float64(len(xs))
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		se := math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
		// The ratio estimator's bias is O(1/n), far below se at n = 1024.
		if math.Abs(m-c.want) > 4*se {
			t.Errorf("%s: online C_a² %.4g ± %.2g, theory %.4g", c.name, m, se, c.want)
		}
	}
	w := NewCa2Window(10)
	for i := range 100 {
		w.Add(float64(i) * 0.05)
	}
	if got := w.Ca2(5); got > 1e-9 {
		t.Errorf("constant gaps: C_a² %g, want 0", got)
	}
}

// Gaps that ended before now − w leave the estimate; with too few left it
// is PoissonCa2.
func TestCa2WindowExpires(t *testing.T) {
	w := NewCa2Window(10)
	for i := range 100 {
		w.Add(float64(i) * 0.05)
	}
	if got := w.Ca2(14.5); got != PoissonCa2 {
		t.Errorf("after the window: %g, want %g", got, PoissonCa2)
	}
	// A long run whose sums are refreshed many times stays exact.
	r := rand.New(rand.NewPCG(9, 9))
	now := 0.0
	for range 50 * Ca2Gaps {
		now += r.ExpFloat64() * 1e-3
		w.Add(now)
	}
	var s1, s2 float64
	for k := range w.n {
		g := w.gap[(w.head+k)%Ca2Gaps]
		s1 += g
		s2 += g * g
	}
	if math.Abs(s1-w.s1) > 1e-12*s1 || math.Abs(s2-w.s2) > 1e-9*s2 {
		t.Errorf("running sums drifted: %g %g vs %g %g", w.s1, w.s2, s1, s2)
	}
}

// An online estimator's model component is the Allen–Cunneen wait at the
// tier's online C_a²; the Poisson estimator's is ModelWait's.
func TestEstimatorOnlineCa2(t *testing.T) {
	tiers := threeTiers()
	cfg := defaultConfig(ModeModel)
	cfg.Ca2 = Ca2Online
	e, err := NewEstimator(tiers, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Gaps alternating 0.001 and 0.021 s: mean 0.011, SCV (0.01/0.011)².
	now := 1.0
	for i := range 800 {
		now += 0.001 + 0.02*float64(i%2)
		e.Observe(now, 1)
	}
	v := &dispatch.View{Now: now, Tiers: tiers, States: []dispatch.State{{}, {}, {}}}
	got := e.Components(v, 1)
	ca2 := e.tiers[1].ca2.Ca2(now)
	if want := (0.01 / 0.011) * (0.01 / 0.011); math.Abs(ca2-want) > 1e-2*want {
		t.Errorf("C_a² %g, want ≈ %g", ca2, want)
	}
	if want := ModelWaitCa2(4, got.LambdaHat, 25, ca2, 0.8, 0.99); got.Model != want {
		t.Errorf("model %g, want %g", got.Model, want)
	}
	if ModelWaitCa2(4, 90, 25, PoissonCa2, 0.8, 0.99) != ModelWait(4, 90, 25, 0.8, 0.99) {
		t.Error("ModelWait is not ModelWaitCa2 at C_a² = 1")
	}
}
