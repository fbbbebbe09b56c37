package testbed

import (
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
)

// The shadow replays FCFS on nominal times as the simulator does: tasks
// reaching no later than this one count, in reach order; later ones do not.
func TestShadowCompletion(t *testing.T) {
	tiers := []dispatch.Tier{{Name: "edge", Kind: dispatch.Edge, Servers: 1, Speed: 2, Mu: 2}}
	s := newShadow(tiers)
	s.dispatched(0, 0.5, 2) // reached: serves [0.5, 1.5)
	s.reached(0, 0.5, 2)
	s.dispatched(0, 1.2, 1) // in transit, reaches before ours: serves [1.5, 2)
	s.dispatched(0, 3.0, 4) // in transit, reaches after ours: overtaken
	s.set(1.0, 3, []float64{0.25})
	if got, want := s.Completion(0), 2+1.5; got != want {
		t.Errorf("Completion = %v, want %v (start 2 after the two ahead, service 3/2)", got, want)
	}
	if s.TaskSize() != 3 {
		t.Errorf("TaskSize = %v", s.TaskSize())
	}
	s.reached(0, 1.2, 1)
	if len(s.transit[0]) != 1 || s.free[0][0] != 2 {
		t.Errorf("after reaching: transit %v, free %v", s.transit[0], s.free[0])
	}
}

// Oracle runs in emulation from the client's bookkeeping.
func TestClientRunsOracle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol, err := policies.New("oracle", twoTiers, policies.DefaultParams(), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(t.Context(), Config{Tiers: twoTiers, Policy: pol, Workload: every(0.001, 0, 0.005),
			Transport: sleeper(10 * time.Millisecond), TimeScale: 1, Duration: 100 * time.Millisecond})
		if err != nil || res.Completed != res.Sent || res.Sent == 0 {
			t.Fatalf("oracle: %v, %+v", err, res)
		}
		// Edge (1 server, 10 ms per task) cannot take a task every 1 ms: the
		// oracle must use the cloud too.
		if m := res.Metrics(results.RunColumns(results.Layout{Tiers: tierNames(res)})); !(m.Values[results.Index(m.Cols, "share_"+tierNames(res)[1])] > 0.5) {
			t.Errorf("oracle shares %v: want most work on the 4-server cloud", m.Values)
		}
	})
}
