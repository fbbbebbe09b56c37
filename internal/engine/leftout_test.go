package engine_test

import (
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/workload"
)

// retryWatch wraps a policy, keeping its capabilities, and watches its
// retries: the tier each was sent to (through the observer every dispatch
// reaches) and the tier the policy itself chose.
type retryWatch struct {
	p         dispatch.Policy
	caps      dispatch.Capabilities
	failed    int // the failed tier of the retry being decided; -1 between retries
	retries   int
	own, back int // the policy's own choice was the failed tier; the dispatch was
}

func (w *retryWatch) Decide(v *dispatch.View) dispatch.Decision {
	d := w.p.Decide(v)
	if v.Retry != nil {
		w.failed, w.retries = v.Retry.Failed, w.retries+1
		if d.Tier == w.failed {
			w.own++
		}
	}
	return d
}

func (w *retryWatch) Dispatched(now float64, tier int) {
	if w.failed >= 0 && tier == w.failed {
		w.back++
	}
	w.failed = -1
	if w.caps.Observer != nil {
		w.caps.Observer.Dispatched(now, tier)
	}
}

func (w *retryWatch) Capabilities() dispatch.Capabilities {
	c := w.caps
	c.Observer = w
	return c
}

// TestRetryLeavesTheFailedTierOut: for every registered policy, a retry
// never goes to the tier its attempt failed at, while the run's tiers fail
// in turn and tasks time out; and the policies that rank the tiers by what
// the view shows (counts, a sample of them, the oracle's completions)
// leave it out by their own rule, the engine's fallback unused. The others
// (blind rules, balancers' own counts) are logged: how often the engine
// overrode them.
func TestRetryLeavesTheFailedTierOut(t *testing.T) {
	// The rules that rank every tier they read by the view (the hybrids'
	// ε-greedy draws aside, jiq's draw when no tier is idle).
	byRule := map[string]bool{policies.NameJSQ: true, policies.NameJSQS: true, policies.NameOracle: true, policies.NamePowerOfD: true}
	for _, name := range policies.Names() {
		spec, _ := policies.Lookup(name)
		if spec.Program {
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			cfg := engine.ThreeTier(t, 300, 20000)
			cfg.Tiers[1].Capacity.Episodes = []engine.Episode{{Start: 10, End: 20, Down: true}}
			cfg.Tiers[2].Capacity.Episodes = []engine.Episode{{Start: 30, End: 40, Down: true}}
			cfg.Tiers[0].Capacity.Episodes = []engine.Episode{{Start: 50, End: 55, Down: true}}
			cfg.Timeout, cfg.Retries = 0.4, 2
			p := engine.RegistryPolicy(t, spec.Name, cfg, 1)
			w := &retryWatch{p: p, caps: dispatch.CapabilitiesOf(p), failed: -1}
			res, err := engine.Run(cfg, w, workload.NewStreams(3, 0))
			if err != nil {
				t.Fatal(err)
			}
			if w.retries == 0 {
				t.Fatalf("no retry in %+v", res.Out)
			}
			if w.back > 0 {
				t.Errorf("%d of %d retries sent back to the tier that failed", w.back, w.retries)
			}
			if byRule[spec.Name] && w.own > 0 {
				t.Errorf("the policy itself chose the failed tier at %d of %d retries", w.own, w.retries)
			}
			t.Logf("%d retries, the policy's own choice the failed tier at %d", w.retries, w.own)
		})
	}
}
