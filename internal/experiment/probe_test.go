package experiment

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/policies"
)

// A window with no decision has no sample: the decision at t = 12 (window
// [10, 15)) describes that window, not the empty [5, 10) before it.
func TestProbeLeavesEmptyWindowsUnsampled(t *testing.T) {
	tiers := []dispatch.Tier{{Name: "e", Kind: dispatch.Edge, Servers: 2, Speed: 1, Mu: 1}}
	insp, err := policies.NewPredictor(policies.NameHybrid, tiers, policies.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	pr := newProbe(dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }), insp, 5, 1).(*probe)
	for _, now := range []float64{0.5, 1, 12} {
		v := &dispatch.View{Now: now, Tiers: tiers, States: []dispatch.State{{Queued: int(now)}}}
		pr.Decide(v)
		pr.Dispatched(now, 0)
	}
	if len(pr.sample) != 9 {
		t.Fatalf("%d samples for 3 windows of 1 tier, want 9: %v", len(pr.sample), pr.sample)
	}
	beta := func(w int) float64 { return pr.sample[3*w+1] }
	if beta(0) != 0 || !math.IsNaN(beta(1)) || beta(2) != 1 { // q = 0 at t = 0.5; q = 12 ≥ c at t = 12
		t.Errorf("β per window %v, %v, %v; want 0, NaN (no decision in [5, 10)), 1", beta(0), beta(1), beta(2))
	}
}
