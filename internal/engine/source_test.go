package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// TestEngineDrawsFromTheSource: the task records of a run are exactly the
// tasks the workload source draws for the same seed and replicate, whatever
// the policy does with them (the HTTP testbed draws from the same source).
func TestEngineDrawsFromTheSource(t *testing.T) {
	size, _ := workload.New("pareto", 1, 2.5, 0)
	delay, _ := workload.LognormalDelay(0.01, 0.5)
	cfg := &Config{
		Tiers: []TierConfig{tier("a", dispatch.Local, 1, 10, size, workload.Dist{}), tier("b", dispatch.Edge, 4, 25, size, delay),
			tier("c", dispatch.Cloud, 16, 50, size, delay)},
		Arrivals: workload.Schedule{Rate: 40, Bursts: []workload.Burst{{Start: 5, Every: 20, Length: 4, Factor: 3}}},
		Size:     size, Tasks: 3000, Warmup: 200,
	}
	var got []TaskRecord
	cfg.OnTask = func(r *TaskRecord) { got = append(got, *r) }
	if _, err := Run(cfg, uniform(rand.New(rand.NewPCG(5, 5))), workload.NewStreams(9, 3)); err != nil {
		t.Fatal(err)
	}
	src := workload.NewSource(cfg.Workload(), workload.NewStreams(9, 3), nil)
	var want []workload.Task
	for range 3200 {
		var task workload.Task
		src.Next(&task)
		want = append(want, task)
	}
	if len(got) != len(want) {
		t.Fatalf("%d task records, want %d", len(got), len(want))
	}
	for _, r := range got {
		w := want[r.ID]
		if d := src.Delay(&w, r.Tier); r.Arrival != w.Arrival || r.Size != w.Size || r.Delay != d {
			t.Fatalf("task %d: engine arrival %v size %v delay %v; source %v %v %v", r.ID, r.Arrival, r.Size, r.Delay, w.Arrival, w.Size, d)
		}
	}
}
