package policies

import (
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
)

func noExplore() Params { p := DefaultParams(); p.Epsilon = 0; return p }

func TestHybridDeterministicWithoutEpsilon(t *testing.T) {
	// The edge is swamped (q = 40 on 4 servers: Ŵ = 0.41 s), local has one
	// waiting task (Ŵ = 0.2 s), the cloud is idle: cloud by a wide margin.
	tiers := threeTiers()
	v := view(12, tiers, dispatch.State{Busy: 1, Queued: 1}, dispatch.State{Busy: 4, Queued: 40}, dispatch.State{Busy: 3})
	for seed := range uint64(200) {
		p := mustNew(t, "hybrid", tiers, noExplore(), seed)
		feed(p.(dispatch.Observer), 1, 900, 2, 12)
		if d := p.Decide(v); d.Tier != 2 {
			t.Fatalf("seed %d: hybrid with ε = 0 chose tier %d, want the idle cloud (2)", seed, d.Tier)
		}
	}
}

func TestBlendMovesFromModelToQueueAsQGrows(t *testing.T) {
	tiers := threeTiers()
	p := mustNew(t, "hybrid", tiers, noExplore(), 1).(*estimating)
	feed(p, 1, 800, 10, 20) // edge λ̂ = 80/s, ρ̂ = 0.8
	model := estimators.ModelWait(4, 80, 25, 0.8, 0.99)
	for q := 0; q <= 6; q++ {
		v := view(20, tiers, dispatch.State{}, dispatch.State{Busy: 4, Queued: q}, dispatch.State{})
		_, beta, rho := p.Inspect(v, 1)
		queue := float64(q+1) / 100
		wantBeta := min(1, float64(q)/4)
		want := (1-wantBeta)*model + wantBeta*queue
		got := p.PredictWait(v, 1)
		if beta != wantBeta || rho < 0.8-1e-12 || rho > 0.8+1e-12 || diff(got, want) > 1e-12*want {
			t.Errorf("edge q=%d: β = %g, ρ̂ = %g, Ŵ = %.6g; want β = %g, ρ̂ = 0.8, Ŵ = %.6g (model %.6g, queue %.6g)",
				q, beta, rho, got, wantBeta, want, model, queue)
		}
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestDecisionDoesNotCountItsOwnTask(t *testing.T) {
	tiers := threeTiers()
	p := mustNew(t, "hybrid", tiers, noExplore(), 1).(*estimating)
	feed(p, 1, 50, 0, 10)
	v := view(10, tiers, dispatch.State{}, dispatch.State{}, dispatch.State{})
	before, _, _ := p.Inspect(v, 1)
	d := p.Decide(v)
	during, _, _ := p.Inspect(v, d.Tier)
	p.Dispatched(10, d.Tier)
	after, _, _ := p.Inspect(v, d.Tier)
	if before != 5 || during != before || diff(after-during, 0.1) > 1e-12 {
		t.Errorf("λ̂ before %g (want 5); around the dispatch %g → %g, want +1/w = 0.1", before, during, after)
	}
}

func TestEpsilonExploresAndStillPredicts(t *testing.T) {
	tiers := threeTiers()
	p := DefaultParams()
	p.Epsilon = 1
	for _, name := range []string{"hybrid", "model-only", "queue-only"} {
		pol := mustNew(t, name, tiers, p, 9).(*estimating)
		sh, _ := NewPredictor(name, tiers, p)
		feed(pol, 1, 700, 5, 15)
		feed(sh, 1, 700, 5, 15)
		v := view(15, tiers, dispatch.State{Busy: 1, Queued: 30}, dispatch.State{Busy: 4, Queued: 2}, dispatch.State{})
		counts := make([]int, len(tiers))
		for range 30000 {
			d := pol.Decide(v)
			counts[d.Tier]++
			if want := sh.PredictWait(v, d.Tier); !d.HasPred || d.PredWait != want {
				t.Fatalf("%s ε = 1 chose tier %d with prediction %g (HasPred %v), want the unpenalised Ŵ %g", name, d.Tier, d.PredWait, d.HasPred, want)
			}
		}
		checkUniform(t, name+" with ε = 1", counts)
	}
}

// TestPenaltyAppliesToEveryEstimator builds, for each β rule, two tiers where
// the congested one (ρ̂ = 0.95 > θ) wins on the unpenalised score by half the
// penalty's increment: with k = 1 the policy must avoid it, with k = 0 pick it.
func TestPenaltyAppliesToEveryEstimator(t *testing.T) {
	for _, name := range []string{"hybrid", "model-only", "queue-only"} {
		hot := dispatch.Tier{Name: "hot", Kind: dispatch.Edge, Servers: 4, Mu: 25, Cs2: 0.8}
		cool := dispatch.Tier{Name: "cool", Kind: dispatch.Cloud, Servers: 4, Mu: 25, Cs2: 0.8}
		states := []dispatch.State{{Busy: 4, Queued: 1}, {Busy: 4, Queued: 1}}
		load := func(o dispatch.Observer) { feed(o, 0, 950, 10, 20); feed(o, 1, 200, 10, 20) }
		sh, _ := NewPredictor(name, []dispatch.Tier{hot, cool}, DefaultParams())
		load(sh)
		v := view(20, []dispatch.Tier{hot, cool}, states...)
		wHot, wCool := sh.PredictWait(v, 0), sh.PredictWait(v, 1)
		increment := estimators.Penalty(wHot, 0.95, 0.9, 1) - wHot
		hot.MeanDelay = 0.1
		cool.MeanDelay = 0.1 + wHot - wCool + increment/2
		tiers := []dispatch.Tier{hot, cool}
		for _, k := range []float64{1, 0} {
			p := noExplore()
			p.PenaltyK = k
			pol := mustNew(t, name, tiers, p, 1)
			load(pol.(dispatch.Observer))
			want := map[float64]int{1: 1, 0: 0}[k]
			if got := pol.Decide(view(20, tiers, states...)).Tier; got != want {
				t.Errorf("%s, k = %g: chose tier %d, want %d (Ŵ hot %.4g, cool %.4g, penalty +%.4g)", name, k, got, want, wHot, wCool, increment)
			}
		}
	}
}
