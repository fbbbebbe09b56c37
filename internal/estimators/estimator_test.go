package estimators

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
)

func threeTiers() []dispatch.Tier { return dispatchtest.ThreeTiers(64) }

func defaultConfig(m Mode) Config {
	return Config{Window: 10, RhoMax: 0.99, Mode: m, PenaltyThreshold: 0.9, PenaltyK: 1}
}

func TestEstimatorComponents(t *testing.T) {
	tiers := threeTiers()
	e, err := NewEstimator(tiers, defaultConfig(ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 900 { // 90 tasks/s to the edge over (1, 10]
		e.Observe(1+float64(i)/100, 1)
	}
	v := &dispatch.View{Now: 10, Tiers: tiers, States: []dispatch.State{{}, {Queued: 2, Busy: 4}, {}}}
	got := e.Components(v, 1)
	model := ModelWait(4, 90, 25, 0.8, 0.99)
	queue := 3.0 / 100
	want := Components{LambdaHat: 90, Rho: 0.9, Beta: 0.5, Model: model, Queue: queue, Wait: 0.5*model + 0.5*queue}
	if !near(got.LambdaHat, want.LambdaHat, 1e-12, 0) || !near(got.Rho, want.Rho, 1e-12, 0) ||
		got.Beta != want.Beta || !near(got.Model, want.Model, 1e-12, 0) || got.Queue != want.Queue ||
		!near(got.Wait, want.Wait, 1e-12, 0) {
		t.Errorf("edge at λ̂=90, q=2, b=4: got %+v, want %+v", got, want)
	}
	scores, waits := make([]float64, 3), make([]float64, 3)
	e.Scores(v, scores, waits)
	score, wait := scores[1], waits[1]
	wantScore := Penalty(want.Wait, 0.9, 0.9, 1) + 1.0/25 + 0.005
	if !near(score, wantScore, 1e-12, 0) || !near(wait, want.Wait, 1e-12, 0) {
		t.Errorf("Scores: tier 1 %g, %g; want %g, %g", score, wait, wantScore, want.Wait)
	}
}

func TestEstimatorModes(t *testing.T) {
	tiers := threeTiers()
	v := &dispatch.View{Now: 20, Tiers: tiers, States: []dispatch.State{{}, {Queued: 1, Busy: 4}, {}}}
	tests := []struct {
		mode     Mode
		wantBeta float64
	}{{ModeHybrid, 0.25}, {ModeModel, 0}, {ModeQueue, 1}}
	for _, tt := range tests {
		e, err := NewEstimator(tiers, defaultConfig(tt.mode))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 500 {
			e.Observe(10+float64(i)/50, 1)
		}
		c := e.Components(v, 1)
		if c.Beta != tt.wantBeta || c.Wait != Hybrid(tt.wantBeta, c.Model, c.Queue) {
			t.Errorf("mode %d, q=1 c=4: β = %g, Ŵ = %g; want β = %g, Ŵ = %g", tt.mode, c.Beta, c.Wait, tt.wantBeta, Hybrid(tt.wantBeta, c.Model, c.Queue))
		}
	}
}

func TestEstimatorMemoMatchesFormula(t *testing.T) {
	tiers := threeTiers()
	e, _ := NewEstimator(tiers, defaultConfig(ModeModel))
	v := &dispatch.View{Tiers: tiers, States: make([]dispatch.State, 3)}
	for i := range 20000 {
		now := float64(i) / 1000 // 1000 tasks/s, cycling tiers
		v.Now = now
		for tier := range tiers {
			got := e.Wait(v, tier)
			lam := e.tiers[tier].window.Rate(now)
			want := ModelWait(tiers[tier].Servers, lam, tiers[tier].Mu, tiers[tier].Cs2, 0.99)
			if got != want {
				t.Fatalf("t=%g tier %d λ̂=%g: memoised W^model = %.17g, formula %.17g", now, tier, lam, got, want)
			}
			// λ̂ and ρ̂ come from the memo too.
			c := e.Components(v, tier)
			if rho := lam / (float64(tiers[tier].Servers) * tiers[tier].Mu); c.LambdaHat != lam || c.Rho != rho {
				t.Fatalf("t=%g tier %d: memoised λ̂ = %.17g, ρ̂ = %.17g; formula %.17g, %.17g", now, tier, c.LambdaHat, c.Rho, lam, rho)
			}
		}
		e.Observe(now, i%3)
	}
}

func TestNewEstimatorErrors(t *testing.T) {
	good := defaultConfig(ModeHybrid)
	bad := func(f func(*Config)) Config { c := good; f(&c); return c }
	badTier := func(f func(*dispatch.Tier)) []dispatch.Tier { ts := threeTiers(); f(&ts[1]); return ts }
	tests := []struct {
		name  string
		tiers []dispatch.Tier
		cfg   Config
	}{
		{"no tiers", nil, good},
		{"window 0", threeTiers(), bad(func(c *Config) { c.Window = 0 })},
		{"rho_max 1", threeTiers(), bad(func(c *Config) { c.RhoMax = 1 })},
		{"theta 1", threeTiers(), bad(func(c *Config) { c.PenaltyThreshold = 1 })},
		{"k negative", threeTiers(), bad(func(c *Config) { c.PenaltyK = -1 })},
		{"mode", threeTiers(), bad(func(c *Config) { c.Mode = 9 })},
		{"servers 0", badTier(func(t *dispatch.Tier) { t.Servers = 0 }), good},
		{"mu 0", badTier(func(t *dispatch.Tier) { t.Mu = 0 }), good},
		{"cs2 NaN", badTier(func(t *dispatch.Tier) { t.Cs2 = math.NaN() }), good},
		{"delay negative", badTier(func(t *dispatch.Tier) { t.MeanDelay = -1 }), good},
	}
	for _, tt := range tests {
		if _, err := NewEstimator(tt.tiers, tt.cfg); err == nil {
			t.Errorf("%s: NewEstimator: want an error", tt.name)
		}
	}
}

// TestScoresAgreeWithComponents: the score and Ŵ that Scores gives every
// tier at once are, bit for bit, Penalty(Ŵ, ρ̂, θ, k) + 1/μ + D̄ and Ŵ of
// the same tier's Components and Wait, in every β rule and C_a² mode, over
// decisions at random times, states and observation ages, with the tiers
// fed at different rates so that their windows and memos differ; and under
// the plain settings, ScoreTier gives each tier's the same.
func TestScoresAgreeWithComponents(t *testing.T) {
	tiers := threeTiers()
	r := rand.New(rand.NewPCG(5, 6))
	for _, mode := range []Mode{ModeHybrid, ModeModel, ModeQueue, ModeAge} {
		for _, ca2 := range []Ca2Mode{Ca2Poisson, Ca2Online} {
			cfg := defaultConfig(mode)
			cfg.Ca2 = ca2
			e, err := NewEstimator(tiers, cfg)
			if err != nil {
				t.Fatal(err)
			}
			v := &dispatch.View{Tiers: tiers, States: make([]dispatch.State, 3), Observed: make([]float64, 3)}
			score, wait := make([]float64, 3), make([]float64, 3)
			var none, some, all, penalised int // Ŵ's three cases and the penalty, each reached
			now := 0.0
			for range 5000 {
				now += r.ExpFloat64() / 40
				e.Observe(now, min(r.IntN(4), 2)) // the cloud twice as often
				v.Now = now
				for i, tr := range tiers {
					v.States[i] = dispatch.State{Queued: r.IntN(2 * tr.Servers), Busy: r.IntN(tr.Servers + 1)}
					v.Observed[i] = now - r.Float64()
				}
				e.Scores(v, score, wait)
				for i := range tiers {
					c := e.Components(v, i)
					switch {
					case c.Beta == 0:
						none++
					case c.Beta == 1:
						all++
					default:
						some++
					}
					if c.Rho > cfg.PenaltyThreshold {
						penalised++
					}
					want := Penalty(c.Wait, c.Rho, cfg.PenaltyThreshold, cfg.PenaltyK) + (1/tiers[i].Mu + tiers[i].MeanDelay)
					if math.Float64bits(score[i]) != math.Float64bits(want) || math.Float64bits(wait[i]) != math.Float64bits(c.Wait) ||
						math.Float64bits(e.Wait(v, i)) != math.Float64bits(c.Wait) {
						t.Fatalf("mode %d ca2 %d t=%g tier %d: Scores %v, %v; Components %+v give %v; Wait %v",
							mode, ca2, now, i, score[i], wait[i], c, want, e.Wait(v, i))
					}
					if e.Plain() {
						if s, w := e.ScoreTier(v, i); math.Float64bits(s) != math.Float64bits(score[i]) || math.Float64bits(w) != math.Float64bits(wait[i]) {
							t.Fatalf("mode %d t=%g tier %d: ScoreTier %v, %v; Scores %v, %v", mode, now, i, s, w, score[i], wait[i])
						}
					}
				}
			}
			if mode == ModeHybrid && (none == 0 || some == 0 || all == 0) || penalised == 0 {
				t.Errorf("mode %d ca2 %d: β = 0 %d times, in (0, 1) %d, 1 %d, penalised %d: a case is not reached", mode, ca2, none, some, all, penalised)
			}
		}
	}
}
