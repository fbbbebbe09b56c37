package dispatch_test

import (
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

// oracleLike observes, learns from completions, needs the oracle and is
// blind: every capability a policy's interfaces can state but Sampler.
type oracleLike struct{ seen, done int }

func (*oracleLike) Decide(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: 1} }
func (p *oracleLike) Dispatched(float64, int)               { p.seen++ }
func (p *oracleLike) Done(*dispatch.Completion)             { p.done++ }
func (*oracleLike) Clairvoyant()                            {}
func (*oracleLike) Blind()                                  {}

// TestWrapKeepsCapabilities: a policy wrapped by Wrap has its inner
// policy's capabilities, its observer and feedback the inner policy
// itself, and decides by the wrapper's function without allocating.
func TestWrapKeepsCapabilities(t *testing.T) {
	inner := &oracleLike{}
	want := dispatch.Capabilities{Observer: inner, Feedback: inner, Clairvoyant: true, Blind: true}
	if got := dispatch.CapabilitiesOf(inner); got != want {
		t.Fatalf("capabilities %+v, want %+v", got, want)
	}
	calls := 0
	w := dispatch.Wrap(inner, func(v *dispatch.View) dispatch.Decision { calls++; return inner.Decide(v) })
	if got := dispatch.CapabilitiesOf(w); got != want {
		t.Errorf("wrapped: capabilities %+v, want %+v", got, want)
	}
	if _, ok := w.(dispatch.Clairvoyant); ok {
		t.Errorf("the wrapper's type states a capability: callers must read CapabilitiesOf")
	}
	var v dispatch.View
	allocs := testing.AllocsPerRun(100, func() {
		if w.Decide(&v).Tier != 1 {
			t.Fatal("the wrapper did not return the inner decision")
		}
	})
	if allocs != 0 || calls == 0 {
		t.Errorf("%v allocations a decision, %d calls of decide", allocs, calls)
	}
	if got := dispatch.CapabilitiesOf(dispatch.PolicyFunc(inner.Decide)); got != (dispatch.Capabilities{}) {
		t.Errorf("a bare function: capabilities %+v, want none", got)
	}
}

// idleLike reads only which tiers are idle.
type idleLike struct{}

func (idleLike) Decide(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }
func (idleLike) IdleReader()                             {}

// TestIsIdle: a tier is idle in a view by View.Idle when it is set, else
// by its counts (a free server and no queue); an IdleReader states the
// capability.
func TestIsIdle(t *testing.T) {
	tiers := []dispatch.Tier{{Servers: 2}, {Servers: 2}, {Servers: 2}, {Servers: 1}}
	v := dispatch.View{Tiers: tiers, States: []dispatch.State{{Busy: 1}, {Busy: 2}, {Busy: 1, Queued: 1}, {InTransit: 3}}}
	for i, want := range []bool{true, false, false, true} {
		if got := v.IsIdle(i); got != want {
			t.Errorf("counts: tier %d idle %v, want %v", i, got, want)
		}
	}
	v.Idle = []bool{false, true, true, false}
	for i, want := range v.Idle {
		if got := v.IsIdle(i); got != want {
			t.Errorf("Idle set: tier %d idle %v, want %v", i, got, want)
		}
	}
	if c := dispatch.CapabilitiesOf(idleLike{}); c != (dispatch.Capabilities{Idle: true}) {
		t.Errorf("an idle reader: capabilities %+v", c)
	}
}

// fixed reads every tier as one busy server, and completes at tier i at i.
type fixed struct{}

func (fixed) State(int) dispatch.State { return dispatch.State{Busy: 1} }
func (fixed) TaskSize() float64        { return 2 }
func (fixed) Completion(i int) float64 { return float64(i) }

// TestLeftOut: the tier left out reads unavailable and never completes;
// the others as the wrapped reader and oracle give them.
func TestLeftOut(t *testing.T) {
	l := &dispatch.LeftOut{Failed: 1, Servers: 4, Reader: fixed{}, Oracle: fixed{}}
	if st := l.State(1); st.Busy != 4 || st.Queued != dispatch.LeftOutQueue {
		t.Errorf("left-out tier reads %+v", st)
	}
	if st := l.State(0); st.Busy != 1 || st.Queued != 0 {
		t.Errorf("tier 0 reads %+v", st)
	}
	if l.Completion(1) < 1e300 || l.Completion(2) != 2 || l.TaskSize() != 2 {
		t.Errorf("completions %v, %v; size %v", l.Completion(1), l.Completion(2), l.TaskSize())
	}
}
