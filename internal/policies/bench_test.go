package policies

import (
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// BenchmarkDecide measures one decision per policy on a three-tier state
// (local 1 server, edge 4, cloud 64). Estimator policies are
// warmed with 5000 dispatches, and each iteration advances the clock by
// 10 ms, reports the dispatch back (as the engine does, so Dispatched is
// included in the figure) and cycles through a few tier states, so that the
// windows slide and the model memo sees realistic λ̂ changes. Oracle reads a
// fake dispatch.Oracle with fixed completion times: its figure is the
// policy's own cost, excluding the engine's FCFS Completion computation.
// A policy that learns from completions (dispatch.Feedback) is told each
// task's completion eight decisions after it was decided, so that its
// counts stay bounded; the figure includes that call.
// exec is skipped: its decision is a round trip to a user's program, which
// needs the program and a started process, and extpolicy's
// BenchmarkRoundTrip measures it with a minimal program.
func BenchmarkDecide(b *testing.B) {
	tiers := threeTiers()
	views := benchViews(tiers)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			if name == NameExec {
				b.Skip("exec is a round trip to a user's program: see BenchmarkRoundTrip in internal/extpolicy")
			}
			p := mustNew(b, name, tiers, DefaultParams(), 1)
			obs, _ := p.(dispatch.Observer)
			fb, _ := p.(dispatch.Feedback)
			var sent [8]int
			var c dispatch.Completion
			now := 0.0
			if obs != nil {
				for i := range 5000 {
					now += 0.01
					obs.Dispatched(now, i%3)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				now += 0.01
				v := views[i&(len(views)-1)]
				v.Now = now
				v.Task = i
				d := p.Decide(v)
				if obs != nil {
					obs.Dispatched(now, d.Tier)
				}
				if fb != nil {
					if i >= 8 {
						c = dispatch.Completion{Task: i - 8, Tier: sent[i&7], Now: now, Latency: 0.08, Wait: 0.01, Service: 0.05}
						fb.Done(&c)
					}
					sent[i&7] = d.Tier
				}
			}
		})
	}
}

// benchViews returns 8 views of moderately loaded tiers, each with a fake
// oracle.
func benchViews(tiers []dispatch.Tier) []*dispatch.View {
	states := [][3]dispatch.State{
		{{}, {Busy: 2}, {Busy: 20}},
		{{Busy: 1}, {Busy: 3}, {Busy: 25}},
		{{Busy: 1, Queued: 1}, {Busy: 4}, {Busy: 30}},
		{{Busy: 1}, {Busy: 4, Queued: 1}, {Busy: 28}},
		{{Busy: 1, Queued: 2}, {Busy: 4, Queued: 3}, {Busy: 40, InTransit: 3}},
		{{}, {Busy: 4, Queued: 6}, {Busy: 64, Queued: 2}},
		{{Busy: 1}, {Busy: 1}, {Busy: 10}},
		{{}, {}, {}},
	}
	views := make([]*dispatch.View, len(states))
	for i, s := range states {
		views[i] = &dispatch.View{Tiers: tiers, States: s[:],
			Oracle: &fakeOracle{done: []float64{0.3 + 0.01*float64(i), 0.2, 0.25}}}
	}
	return views
}
