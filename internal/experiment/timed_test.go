package experiment

import (
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/workload"
)

// TestWrappersKeepCapabilities: the timing wrapper hands the engine exactly
// the capabilities of every registered policy it wraps; the probe keeps
// its oracle and observes every dispatch, but reads the view, so is never
// blind.
func TestWrappersKeepCapabilities(t *testing.T) {
	tiers := []dispatch.Tier{{Name: "e", Kind: dispatch.Edge, Servers: 1, Speed: 1, Mu: 1}}
	for _, name := range policies.Names() {
		e := policies.Entry{Name: name}
		if name == policies.NameExec { // built, not started: its capabilities are its type's
			e.Options = map[string]any{"command": []any{"true"}}
		}
		p, err := policies.Make(e, policies.Build{Tiers: tiers, Params: policies.DefaultParams(),
			Rand: PolicyRand(1, 0), Sizes: workload.Const(1), Rate: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		want := dispatch.CapabilitiesOf(p)
		tp, _ := timed(p)
		if got := dispatch.CapabilitiesOf(tp); got != want {
			t.Errorf("%s timed: capabilities %+v, want %+v", name, got, want)
		}
		insp, _ := policies.NewPredictor(policies.NameHybrid, tiers, policies.DefaultParams())
		got := dispatch.CapabilitiesOf(newProbe(p, insp, 1, 1))
		if got.Clairvoyant != want.Clairvoyant || got.Observer == nil || got.Blind || got.Sampler {
			t.Errorf("%s probed: capabilities %+v, want clairvoyant %v, an observer, not blind nor a sampler",
				name, got, want.Clairvoyant)
		}
	}
}

// testPolicy sends every task to tier 0 and notes what the engine showed
// and told it.
type testPolicy struct {
	busy, oracle, done int // decisions that saw a busy server, that had the oracle; completions told
}

func (p *testPolicy) Decide(v *dispatch.View) dispatch.Decision {
	if v.States[0].Busy > 0 {
		p.busy++
	}
	if v.Oracle != nil {
		p.oracle++
	}
	return dispatch.Decision{}
}

type blindPolicy struct{ testPolicy }

func (*blindPolicy) Blind() {}

type clairvoyantPolicy struct{ testPolicy }

func (*clairvoyantPolicy) Clairvoyant() {}

type feedbackPolicy struct{ testPolicy }

func (p *feedbackPolicy) Done(*dispatch.Completion) { p.done++ }

// TestTimedKeepsBehaviour: under --time-decisions the engine treats a
// policy as it does without: a blind policy's view is not counted (its
// Busy stays unset, where a policy that reads the view sees busy servers),
// the oracle is given View.Oracle, a feedback policy hears of its
// completions.
func TestTimedKeepsBehaviour(t *testing.T) {
	const n = 2000
	cfg := &engine.Config{
		Tiers:    []engine.TierConfig{{Tier: dispatch.Tier{Name: "e", Kind: dispatch.Edge, Servers: 1, Speed: 1, Mu: 1}}},
		Arrivals: workload.Schedule{Rate: 0.8},
		Size:     workload.Const(1),
		Large:    1,
		Tasks:    n,
	}
	run := func(p dispatch.Policy, inner *testPolicy) testPolicy {
		t.Helper()
		tp, clock := timed(p)
		if _, err := engine.Run(cfg, tp, workload.NewStreams(1, 0)); err != nil {
			t.Fatal(err)
		}
		if clock.n != n {
			t.Errorf("%T: %d decisions timed, want %d", p, clock.n, n)
		}
		return *inner
	}
	var reads testPolicy
	if got := run(&reads, &reads); got.busy == 0 || got.oracle != 0 || got.done != 0 {
		t.Errorf("a policy that reads the view: %+v, want busy servers seen, no oracle, no completion", got)
	}
	var blind blindPolicy
	if got := run(&blind, &blind.testPolicy); got.busy != 0 {
		t.Errorf("a blind policy, timed, saw a busy server at %d of %d decisions: its view was counted", got.busy, n)
	}
	var cv clairvoyantPolicy
	if got := run(&cv, &cv.testPolicy); got.oracle != n {
		t.Errorf("a clairvoyant policy, timed, had the oracle at %d of %d decisions", got.oracle, n)
	}
	var bare, fb feedbackPolicy // the run ends before the last completions: as many as without the timer
	if _, err := engine.Run(cfg, &bare, workload.NewStreams(1, 0)); err != nil {
		t.Fatal(err)
	}
	if got := run(&fb, &fb.testPolicy); got.done == 0 || got.done != bare.done {
		t.Errorf("a feedback policy, timed, heard of %d completions, untimed %d", got.done, bare.done)
	}
}
