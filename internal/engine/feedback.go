package engine

import "github.com/offload-sim/offload/internal/dispatch"

// evDone is a task's completion, told to its device's policy when that
// policy implements dispatch.Feedback. It is a kind of its own, apart from
// the hot path's, pushed only for such devices: a run of built-in policies
// never schedules one.
const evDone eventKind = 1 << 7

// feedback holds the completions scheduled but not yet told: a task's
// transit slot is free once it joins its tier, but its policy hears of it
// only at its completion instant.
type feedback struct {
	pending []pendingDone
	free    []int32
}

// pendingDone is one completion waiting for its instant.
type pendingDone struct {
	dev int32
	c   dispatch.Completion
}

// scheduleDone schedules the completion of the task of rec, which device
// dev's feedback policy will be told at rec's completion instant.
func (s *sim) scheduleDone(dev int32, rec *TaskRecord, vtier int32) {
	f := &s.fb
	var i int32
	if n := len(f.free); n > 0 {
		i, f.free = f.free[n-1], f.free[:n-1]
	} else {
		f.pending = append(f.pending, pendingDone{})
		i = int32(len(f.pending) - 1)
	}
	done := rec.Arrival + rec.Latency
	f.pending[i] = pendingDone{dev: dev, c: dispatch.Completion{Task: rec.ID, Tier: int(vtier), Now: done,
		Latency: rec.Latency, Delay: rec.Delay, Wait: rec.Wait, Service: rec.Service}}
	s.events.push(done, i, 0, evDone)
}

// done tells a completion to its device's policy, now: after every event
// already due at this instant (the departure included), before any later
// arrival's decision.
func (s *sim) done(e *event) {
	f := &s.fb
	p := &f.pending[e.slot]
	s.devs[p.dev].feedback.Done(&p.c)
	f.free = append(f.free, e.slot)
}
