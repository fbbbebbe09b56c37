package workload

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMoments checks each sampler's mean and SCV against the formula, with a
// tolerance of 5 standard errors of the sample mean.
func TestMoments(t *testing.T) {
	cases := []struct {
		name            string
		kind            string
		mean, alpha, cv float64
	}{
		{"exponential", "exponential", 2, 0, 0},
		{"pareto-alpha5", "pareto", 1, 5, 0},
		{"lognormal", "lognormal", 0.5, 0, 0.8},
		{"deterministic", "deterministic", 3, 0, 0},
	}
	const n = 400000
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := New(c.kind, c.mean, c.alpha, c.cv)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			var s, s2 float64
			for range n {
				x := d.Sample(r)
				s += x
				s2 += x * x
			}
			m := s / n
			v := s2/n - m*m
			se := math.Sqrt(d.Cs2()*d.Mean()*d.Mean()/n) + 1e-12
			if math.Abs(m-c.mean) > 5*se {
				t.Errorf("mean = %v, want %v ± %v", m, c.mean, 5*se)
			}
			if got, want := v/(m*m), d.Cs2(); math.Abs(got-want) > 0.05*want+1e-9 {
				t.Errorf("scv = %v, want %v", got, want)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	d, _ := New("pareto", 1, 2.5, 0)
	// x_m = 0.6; q(0.9) = 0.6 · 0.1^(−0.4).
	if got, want := d.Quantile(0.9), 0.6*math.Pow(0.1, -0.4); math.Abs(got-want) > 1e-12 {
		t.Errorf("pareto q(0.9) = %v, want %v", got, want)
	}
	if got := d.Cs2(); math.Abs(got-0.8) > 1e-12 {
		t.Errorf("pareto α=2.5 Cs2 = %v, want 0.8", got)
	}
	l, _ := LognormalDelay(1, 0.5)
	if got := l.Quantile(0.5); math.Abs(got-math.Exp(l.mu)) > 1e-12 {
		t.Errorf("lognormal median = %v, want %v", got, math.Exp(l.mu))
	}
	e, _ := New("exponential", 1, 0, 0)
	if got, want := e.Quantile(0.5), math.Ln2; math.Abs(got-want) > 1e-12 {
		t.Errorf("exponential median = %v, want %v", got, want)
	}
}

func TestNewRejects(t *testing.T) {
	bad := []struct {
		name            string
		kind            string
		mean, alpha, cv float64
	}{
		{"alpha2", "pareto", 1, 2, 0},
		{"zero mean", "exponential", 0, 0, 0},
		{"unknown", "weibull", 1, 0, 0},
		{"negative cv", "lognormal", 1, 0, -1},
	}
	for _, c := range bad {
		if _, err := New(c.kind, c.mean, c.alpha, c.cv); err == nil {
			t.Errorf("%s: New(%q, %v, %v, %v) accepted", c.name, c.kind, c.mean, c.alpha, c.cv)
		}
	}
}
