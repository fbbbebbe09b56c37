package policies

import (
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

func TestNames(t *testing.T) {
	want := []string{"hybrid", "model-only", "queue-only", "jsq", "jsq-s", "edge-first", "random", "oracle"}
	if got := Names(); !slices.Equal(got[:len(want)], want) {
		t.Errorf("Names() = %v, want the paper's %v first", got, want)
	}
	Names()[0] = "mutated"
	if Names()[0] != "hybrid" {
		t.Error("Names() shares its slice between calls")
	}
	for _, n := range want {
		if got, want := HasEstimator(n), n == "hybrid" || n == "model-only" || n == "queue-only"; got != want {
			t.Errorf("HasEstimator(%q) = %v, want %v", n, got, want)
		}
		if _, err := Make(Entry{Name: n}, fullBuild(threeTiers(), 1)); err != nil {
			t.Errorf("Make(%q) on the default tiers: %v", n, err)
		}
	}
}

func TestNewErrors(t *testing.T) {
	noEdge := []dispatch.Tier{threeTiers()[0], threeTiers()[2]}
	bad := func(f func(*Params)) Params { p := DefaultParams(); f(&p); return p }
	tests := []struct {
		name, policy string
		tiers        []dispatch.Tier
		p            Params
		wantInErr    string
	}{
		{"unknown name", "jsq2", threeTiers(), DefaultParams(), "allowed: hybrid, model-only, queue-only, jsq, jsq-s, edge-first, random, oracle"},
		{"edge-first without edge", "edge-first", noEdge, DefaultParams(), "no tier has kind edge"},
		{"no tiers", "jsq", nil, DefaultParams(), "no tiers"},
		{"epsilon > 1", "hybrid", threeTiers(), bad(func(p *Params) { p.Epsilon = 1.5 }), "epsilon"},
		{"window 0", "model-only", threeTiers(), bad(func(p *Params) { p.Window = 0 }), "window"},
		{"rho_max 1", "queue-only", threeTiers(), bad(func(p *Params) { p.RhoMax = 1 }), "rho_max"},
		{"theta 1", "hybrid", threeTiers(), bad(func(p *Params) { p.PenaltyThreshold = 1 }), "threshold"},
		{"k < 0", "hybrid", threeTiers(), bad(func(p *Params) { p.PenaltyK = -1 }), "penalty k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.policy, tt.tiers, tt.p, newRNG(1))
			if err == nil || !strings.Contains(err.Error(), tt.wantInErr) {
				t.Errorf("New(%q): error %v, want one containing %q", tt.policy, err, tt.wantInErr)
			}
		})
	}
	if _, err := New("jsq", threeTiers(), DefaultParams(), nil); err == nil {
		t.Error("New with a nil rng: want an error")
	}
	if _, err := New("jsq", threeTiers(), Params{}, newRNG(1)); err != nil {
		t.Errorf("jsq ignores estimator params, got %v", err)
	}
}

func TestNewPredictor(t *testing.T) {
	if _, err := NewPredictor("jsq", threeTiers(), DefaultParams()); err == nil ||
		!strings.Contains(err.Error(), "allowed: hybrid, model-only, queue-only") {
		t.Errorf("NewPredictor(jsq): error %v, want the three estimator names", err)
	}
	tiers := threeTiers()
	v := view(30, tiers, dispatch.State{Busy: 1, Queued: 2}, dispatch.State{Busy: 4, Queued: 1}, dispatch.State{Busy: 10})
	for _, name := range []string{"hybrid", "model-only", "queue-only"} {
		sh, err := NewPredictor(name, tiers, DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		pol := mustNew(t, name, tiers, DefaultParams(), 1).(*estimating)
		for tier, n := range []int{50, 700, 2000} {
			feed(sh, tier, n, 20, 30)
			feed(pol, tier, n, 20, 30)
		}
		for tier := range tiers {
			if got, want := sh.PredictWait(v, tier), pol.PredictWait(v, tier); got != want {
				t.Errorf("%s tier %d: shadow predicts %g, policy %g", name, tier, got, want)
			}
		}
	}
}

func TestEdgeFirstPicksFirstEdge(t *testing.T) {
	tiers := append(threeTiers(), threeTiers()[1])
	tiers[0], tiers[2] = tiers[2], tiers[0] // cloud, edge, local, edge
	p := mustNew(t, "edge-first", tiers, Params{}, 1)
	busy := view(0, tiers, dispatch.State{}, dispatch.State{Busy: 4, Queued: 100}, dispatch.State{}, dispatch.State{})
	if got := p.Decide(busy).Tier; got != 1 {
		t.Errorf("edge-first on [cloud edge local edge] with the first edge swamped = tier %d, want 1", got)
	}
}

func TestRandomIsUniform(t *testing.T) {
	tiers := threeTiers()
	p := mustNew(t, "random", tiers, Params{}, 7)
	counts := make([]int, len(tiers))
	v := view(0, tiers, dispatch.State{Busy: 1, Queued: 50}, dispatch.State{}, dispatch.State{})
	for range 30000 {
		counts[p.Decide(v).Tier]++
	}
	checkUniform(t, "random", counts)
}

func TestTiesAreBrokenUniformly(t *testing.T) {
	tiers := identicalTiers(3)
	zeroEps := DefaultParams()
	zeroEps.Epsilon = 0
	for _, name := range []string{"hybrid", "model-only", "queue-only", "jsq", "jsq-s", "oracle"} {
		t.Run(name, func(t *testing.T) {
			p := mustNew(t, name, tiers, zeroEps, 3)
			v := view(5, tiers, dispatch.State{Busy: 1}, dispatch.State{Busy: 1}, dispatch.State{Busy: 1})
			v.Oracle = &fakeOracle{done: []float64{2, 2, 2}}
			counts := make([]int, len(tiers))
			for range 30000 {
				counts[p.Decide(v).Tier]++
			}
			checkUniform(t, name+" on three identical tiers", counts)
		})
	}
}

// TestBlindPoliciesReadNoCounts: a policy that declares dispatch.Blind
// decides the same with true counts and with made-up ones, since the
// simulator leaves a blind policy's counts as they were (two copies on the
// same seed, a thousand decisions, the counts of one view drawn at random
// at each). The policies that are not blind are listed, so that a new
// policy is placed on one side or the other.
func TestBlindPoliciesReadNoCounts(t *testing.T) {
	tiers := threeTiers()
	notBlind := map[string]bool{NameHybrid: true, NameModelOnly: true, NameQueueOnly: true, NameJSQ: true, NameJSQS: true,
		NamePowerOfD: true, NameHybridAge: true, NameJIQ: true, NameHybridEnergy: true, NameExec: true, NamePrequal: true}
	for _, name := range Names() {
		if name == NameExec {
			continue // an external program: not blind (it is sent the view)
		}
		a, b := mustNew(t, name, tiers, DefaultParams(), 3), mustNew(t, name, tiers, DefaultParams(), 3)
		_, blind := a.(dispatch.Blind)
		if blind == notBlind[name] {
			t.Errorf("%s: blind %v, but listed as blind %v", name, blind, !notBlind[name])
			continue
		}
		if !blind {
			continue
		}
		fuzz := newRNG(9)
		oa, ob := &fakeOracle{done: []float64{3, 1, 2}}, &fakeOracle{done: []float64{3, 1, 2}}
		for k := range 1000 {
			va, vb := view(float64(k), tiers, make([]dispatch.State, 3)...), view(float64(k), tiers, make([]dispatch.State, 3)...)
			for i := range vb.States {
				vb.States[i] = dispatch.State{Busy: fuzz.IntN(100), Queued: fuzz.IntN(100), InTransit: fuzz.IntN(100)}
			}
			va.Task, vb.Task, va.Oracle, vb.Oracle = k, k, oa, ob
			oa.done[k%3], ob.done[k%3] = float64(k%7), float64(k%7)
			da, db := a.Decide(va), b.Decide(vb)
			if da != db {
				t.Fatalf("%s, decision %d: %+v with true counts, %+v with others", name, k, da, db)
			}
			for _, p := range []dispatch.Policy{a, b} {
				if o, ok := p.(dispatch.Observer); ok {
					o.Dispatched(float64(k), da.Tier)
				}
			}
		}
	}
}
