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
	moved   dispatch.Completion // told at once: a field, so that it is not allocated
}

// pendingDone is one completion waiting for its instant.
type pendingDone struct {
	dev int32
	c   dispatch.Completion
}

// scheduleDone schedules the completion of the task of rec, which device
// dev's feedback policy will be told at rec's completion instant; latency
// is its attempt's, from its last send.
func (s *sim) scheduleDone(dev int32, rec *TaskRecord, vtier int32, latency float64) {
	done := rec.Arrival + rec.Latency
	s.scheduleEnd(dev, dispatch.Completion{Task: rec.ID, Tier: int(vtier), Now: done,
		Latency: latency, Delay: rec.Delay, Wait: rec.Wait, Service: rec.Service})
}

// scheduleEnd schedules the end of an attempt, c, which device dev's
// feedback policy will be told at c.Now.
func (s *sim) scheduleEnd(dev int32, c dispatch.Completion) {
	f := &s.fb
	var i int32
	if n := len(f.free); n > 0 {
		i, f.free = f.free[n-1], f.free[:n-1]
	} else {
		f.pending = append(f.pending, pendingDone{})
		i = int32(len(f.pending) - 1)
	}
	f.pending[i] = pendingDone{dev: dev, c: c}
	s.events.Push(c.Now, i, 0, evDone)
}

// done tells a completion to its device's policy, now: after every event
// already due at this instant (the departure included), before any later
// arrival's decision.
func (s *sim) done(e *event) {
	f := &s.fb
	p := &f.pending[e.Slot]
	s.devs[p.dev].feedback.Done(&p.c)
	f.free = append(f.free, e.Slot)
}
