package policies

import (
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// hybrid-energy adds energy_weight × the task's expected energy: with two
// tiers alike but for their energy, a heavy weight picks the one whose
// energy for this task is lower, and which one that is depends on the
// task's data (View.Data), which the device knows.
func TestHybridEnergyWeighsTheTasksEnergy(t *testing.T) {
	tiers := identicalTiers(2)
	// Tier 0: 20 W of dynamic power (2 J per task at μ = 10), no radio cost.
	// Tier 1: no dynamic power, 10⁻⁶ J/bit to send.
	tiers[0].IdlePower, tiers[0].MaxPower = 5, 25
	tiers[1].TxEnergy = 1e-6
	p := DefaultParams()
	p.Epsilon = 0
	b := fullBuild(tiers, 1)
	b.Params = p
	pol, err := Make(Entry{Name: NameHybridEnergy, Options: map[string]any{"energy_weight": 100.0}}, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bits float64
		want int
	}{{1e5, 1}, {1e7, 0}} { // 0.1 J or 10 J to send, against 2 J to compute
		v := view(0, tiers, dispatch.State{}, dispatch.State{})
		v.Data = c.bits
		if got := pol.Decide(v).Tier; got != c.want {
			t.Errorf("data %g bits: tier %d, want %d", c.bits, got, c.want)
		}
	}
}

// The weight's option is checked, and hybrid-energy is ours, not the paper's.
func TestHybridEnergyOption(t *testing.T) {
	s, ok := Lookup(NameHybridEnergy)
	if !ok || s.paper || !s.predicts {
		t.Fatalf("registry row %+v, %v: want a predicting policy outside the paper's set", s, ok)
	}
	for _, bad := range []any{-1.0, "heavy", 2e6} {
		if probs := Check(NameHybridEnergy, map[string]any{"energy_weight": bad}, []string{"local", "edge"}); len(probs) == 0 {
			t.Errorf("energy_weight %v accepted", bad)
		}
	}
}
