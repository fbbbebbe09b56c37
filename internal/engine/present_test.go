package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// TestViewCountsAreTrue: the fresh view at every decision holds each
// tier's true counts, and AreaN the true time-integral of tasks present,
// both tallied by brute force from the tasks' records: a task is present
// at t when it reached by t and finishes after t, in transit when it was
// dispatched before t and reaches after. The tiers cover both ways the
// engine counts (present): 1, 3 and 16 servers read from the workload
// vector, 24 from the heap of finishes; each is loaded to about 0.8, so
// that queues form.
func TestViewCountsAreTrue(t *testing.T) {
	size := mustDist(t, "pareto", 1, 2.5, 0)
	cfg := &Config{
		Tiers: []TierConfig{
			tier("local", dispatch.Local, 1, 10, size, workload.Dist{}),
			tier("edge", dispatch.Edge, 3, 3, size, mustDelay(t, 0.05, 0.5)),
			tier("edge2", dispatch.Edge, kwServers, 0.6, size, mustDelay(t, 0.2, 0.5)),
			tier("cloud", dispatch.Cloud, kwServers+8, 0.4, size, mustDelay(t, 0.5, 0.5)),
		},
		Arrivals: workload.Schedule{Rate: 30},
		Size:     size,
		Large:    size.Quantile(0.9),
		Tasks:    4000,
		Warmup:   500,
	}
	type look struct {
		now    float64
		states []dispatch.State
	}
	var looks []look
	r := rand.New(rand.NewPCG(8, 8))
	pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
		looks = append(looks, look{v.Now, append([]dispatch.State(nil), v.States...)})
		return dispatch.Decision{Tier: r.IntN(len(v.Tiers))}
	})
	var recs []TaskRecord
	cfg.OnTask = func(rec *TaskRecord) { recs = append(recs, *rec) }
	res, err := Run(cfg, pol, workload.NewStreams(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != cfg.Warmup+cfg.Tasks || len(looks) != len(recs) {
		t.Fatalf("%d records and %d decisions of %d tasks", len(recs), len(looks), cfg.Warmup+cfg.Tasks)
	}
	queued := make([]int, len(cfg.Tiers))
	for _, l := range looks {
		for i, tc := range cfg.Tiers {
			n, transit := 0, 0
			for _, x := range recs {
				if x.Tier != i || !(x.Arrival < l.now) {
					continue
				}
				reach, finish := x.Arrival+x.Delay, x.Arrival+x.Latency
				switch {
				case reach > l.now:
					transit++
				case finish > l.now:
					n++
				}
			}
			want := dispatch.State{Busy: min(n, tc.Servers), Queued: max(0, n-tc.Servers), InTransit: transit}
			if l.states[i] != want {
				t.Fatalf("tier %d (%d servers) at %v: view %+v, true %+v", i, tc.Servers, l.now, l.states[i], want)
			}
			queued[i] += want.Queued
		}
	}
	for i, q := range queued {
		if q == 0 {
			t.Errorf("tier %d never had a queue at a decision: the test does not reach the waiting tasks", i)
		}
	}
	// The window opens at the arrival of the last warm-up task and closes
	// at the arrival of the last task.
	end := recs[0].Arrival
	for _, x := range recs {
		end = max(end, x.Arrival)
	}
	start := end - res.Span
	for i := range cfg.Tiers {
		area := 0.0
		for _, x := range recs {
			if x.Tier == i {
				area += max(0, min(x.Arrival+x.Latency, end)-max(x.Arrival+x.Delay, start))
			}
		}
		if got := res.Tier[i].AreaN; math.Abs(got-area) > 1e-9*area {
			t.Errorf("tier %d: AreaN %v, true %v", i, got, area)
		}
	}
}
