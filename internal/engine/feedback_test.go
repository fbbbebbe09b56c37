package engine

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// learner decides uniformly and records every decision and completion, in
// the order the engine makes them.
type learner struct {
	rng    *rand.Rand
	events []fbEvent
}

type fbEvent struct {
	decide bool
	task   int
	at     float64
	c      dispatch.Completion
}

func (l *learner) Decide(v *dispatch.View) dispatch.Decision {
	l.events = append(l.events, fbEvent{decide: true, task: v.Task, at: v.Now})
	return dispatch.Decision{Tier: l.rng.IntN(len(v.Tiers))}
}

func (l *learner) Done(c *dispatch.Completion) {
	l.events = append(l.events, fbEvent{task: c.Task, at: c.Now, c: *c})
}

// A feedback policy hears of each task's completion at its instant, with
// the trace's numbers, before any later decision and after every earlier
// one; every task that completes before the last decision is told; and
// the feedback changes nothing else of the run.
func TestFeedbackAtCompletion(t *testing.T) {
	cfg := threeTier(t, 60, 3000)
	var recs []TaskRecord
	cfg.OnTask = func(r *TaskRecord) { recs = append(recs, *r) }
	l := &learner{rng: rand.New(rand.NewPCG(1, 2))}
	withFB, err := Run(cfg, l, workload.NewStreams(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	cfg.OnTask = nil
	plain, err := RunDevices(cfg, []Device{{Policy: &learner{rng: rand.New(rand.NewPCG(1, 2))}, Streams: workload.NewStreams(1, 0)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withFB, plain) {
		t.Error("telling completions changed the run's result")
	}
	byID := map[int]TaskRecord{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	told := map[int]bool{}
	last, lastDecision := 0.0, 0.0
	for i, e := range l.events {
		if e.at < last {
			t.Fatalf("event %d (%+v) at %v, before the previous one at %v", i, e, e.at, last)
		}
		last = e.at
		if e.decide {
			lastDecision = e.at
			if e.task != i-len(told) {
				t.Fatalf("decision %d has task id %d", i-len(told), e.task)
			}
			continue
		}
		r, ok := byID[e.task]
		if !ok || told[e.task] {
			t.Fatalf("completion of task %d: unknown or told twice", e.task)
		}
		told[e.task] = true
		want := dispatch.Completion{Task: r.ID, Tier: r.Tier, Now: r.Arrival + r.Latency, Latency: r.Latency, Delay: r.Delay, Wait: r.Wait, Service: r.Service}
		if e.c != want {
			t.Errorf("completion %+v, want %+v", e.c, want)
		}
	}
	for _, r := range recs {
		if done := r.Arrival + r.Latency; done < lastDecision && !told[r.ID] {
			t.Errorf("task %d completed at %v, before the last decision at %v, and was never told", r.ID, done, lastDecision)
		}
	}
	if len(told) < len(recs)/2 || math.IsNaN(lastDecision) {
		t.Errorf("%d of %d completions told", len(told), len(recs))
	}
}
