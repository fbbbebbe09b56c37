package engine

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// TestDelayedSeesTheLostLeave: under the delayed model a dispatcher reads
// a tier's count as it was a delay ago. Tasks lost when their tier fails
// leave it at that instant, so from the failure plus the delay until the
// tier comes back the view shows it empty; just after the failure, the
// stale view still shows the tasks it held. A history that kept the lost
// tasks until their own finish would show them past the failure.
func TestDelayedSeesTheLostLeave(t *testing.T) {
	size := mustDist(t, "exponential", 1, 0, 0)
	const lag = 0.5
	downs := [][2]float64{{30, 35}, {80, 90}, {200, 204}}
	cfg := &Config{
		Tiers: []TierConfig{tier("a", dispatch.Edge, 2, 4, size, mustDelay(t, 0.01, 0.5)),
			tier("b", dispatch.Cloud, 2, 1, size, mustDelay(t, 0.02, 0.5))},
		Arrivals: workload.Schedule{Rate: 6}, Size: size, Large: math.Inf(1), Tasks: 1500, Warmup: 0,
		Observe: Observation{Model: Delayed, Delay: mustDist(t, "deterministic", lag, 0, 0)},
	}
	for _, d := range downs {
		cfg.Tiers[1].Capacity.Episodes = append(cfg.Tiers[1].Capacity.Episodes, Episode{Start: d[0], End: d[1], Down: true})
	}
	staleSeen, emptyLooks := 0, 0
	pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
		n := v.States[1].Present()
		for _, d := range downs {
			switch {
			case v.Now >= d[0]+lag && v.Now < d[1]:
				emptyLooks++
				if n != 0 {
					t.Errorf("at %.3f s the view shows %d tasks at a tier down since %.0f s (lag %.1f s)", v.Now, n, d[0], lag)
				}
			case v.Now >= d[0] && v.Now < d[0]+lag && n > 0:
				staleSeen++
			}
		}
		return dispatch.Decision{Tier: v.Task % 2}
	})
	res, err := Run(cfg, pol, workload.NewStreams(11, 0))
	if err != nil {
		t.Fatal(err)
	}
	if res.Out.Lost == 0 || emptyLooks < 50 || staleSeen == 0 {
		t.Fatalf("the run does not test it: %d lost, %d looks while down, %d stale looks", res.Out.Lost, emptyLooks, staleSeen)
	}
}

// TestMovedRetryCarriesNoPrediction: a retry whose policy chooses the tier
// that failed is moved to the next one by the engine; the prediction was
// for the failed tier, so it is not scored against the latency at the
// other. Tasks that reach the first tier's live spans are scored.
func TestMovedRetryCarriesNoPrediction(t *testing.T) {
	size := mustDist(t, "exponential", 1, 0, 0)
	cfg := &Config{
		Tiers: []TierConfig{tier("a", dispatch.Edge, 2, 4, size, mustDelay(t, 0.01, 0.5)),
			tier("b", dispatch.Cloud, 2, 4, size, mustDelay(t, 0.02, 0.5))},
		Arrivals: workload.Schedule{Rate: 3}, Size: size, Large: math.Inf(1), Tasks: 3000, Warmup: 0,
		Timeout: 5, Retries: 1,
	}
	cfg.Tiers[0].Capacity.Episodes = []Episode{{Start: 100, End: 400, Down: true}}
	pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
		return dispatch.Decision{Tier: 0, PredWait: 1e6, HasPred: true} // always the first, however it fares
	})
	res, err := Run(cfg, pol, workload.NewStreams(4, 0))
	if err != nil {
		t.Fatal(err)
	}
	if res.Out.Retried == 0 || res.Out.Completed != cfg.Tasks {
		t.Fatalf("the run does not test it: %+v", res.Out)
	}
	if res.Predicted != res.Out.Completed-res.Out.Retried {
		t.Errorf("%d predictions scored, want the %d tasks that ran where predicted", res.Predicted, res.Out.Completed-res.Out.Retried)
	}
}
