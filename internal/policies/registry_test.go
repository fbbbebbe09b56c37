package policies

import (
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
)

func TestRegistryDefaultsArePapersEight(t *testing.T) {
	want := []string{"hybrid", "model-only", "queue-only", "jsq", "jsq-s", "edge-first", "random", "oracle"}
	if got := Defaults(); !slices.Equal(got, want) {
		t.Errorf("Defaults() = %v, want the paper's eight %v", got, want)
	}
	seen := map[string]bool{}
	for _, s := range registry() {
		if seen[s.Name] {
			t.Errorf("registry lists %q twice", s.Name)
		}
		seen[s.Name] = true
		if s.construct == nil || s.summary == "" {
			t.Errorf("%s: registry row without constructor or summary", s.Name)
		}
		if !strings.Contains(Help(), s.Name) {
			t.Errorf("Help() does not list %s", s.Name)
		}
		if got := HasEstimator(s.Name); got != s.predicts {
			t.Errorf("HasEstimator(%q) = %v, want %v", s.Name, got, s.predicts)
		}
	}
	if !slices.Equal(Names()[:len(want)], want) {
		t.Errorf("Names() = %v: the paper's eight come first", Names())
	}
}

// Every registered policy builds on the default tiers (edge-first needs
// the edge), and never as a typed nil.
func TestEveryPolicyBuilds(t *testing.T) {
	for _, name := range Names() {
		e := Entry{Name: name}
		if name == NameExec { // built, not started: nothing runs
			e.Options = map[string]any{"command": []any{"true"}}
		}
		p, err := Make(e, fullBuild(threeTiers(), 1))
		if err != nil || p == nil {
			t.Errorf("Make(%q): %v, %v", name, p, err)
		}
	}
	// Without the scenario's size law and rate, the policies computed from
	// them say what they miss.
	for _, name := range []string{nameSITAE, nameSITAOpt, NameStaticOpt} {
		if p, err := New(name, threeTiers(), DefaultParams(), newRNG(1)); err == nil || p != nil || !strings.Contains(err.Error(), "needs the scenario's") {
			t.Errorf("New(%q) without sizes or rate: %v, %v", name, p, err)
		}
	}
	noEdge := []dispatch.Tier{threeTiers()[0], threeTiers()[2]}
	p, err := New(NameEdgeFirst, noEdge, DefaultParams(), newRNG(1))
	if err == nil || p != nil {
		t.Errorf("edge-first without an edge: policy %#v (nil interface: %v), error %v; want a nil interface and an error", p, p == nil, err)
	}
}

func TestEntryOptions(t *testing.T) {
	tests := []struct {
		name    string
		entry   Entry
		wantErr string
	}{
		{"epsilon override", Entry{Name: "hybrid", Label: "h0", Options: map[string]any{"epsilon": 0}}, ""},
		{"penalty override", Entry{Name: "queue-only", Options: map[string]any{"penalty": map[string]any{"k": 0}}}, ""},
		{"unknown option", Entry{Name: "hybrid", Options: map[string]any{"epsilonn": 0}}, `unknown option "epsilonn" (allowed: epsilon, window, rho_max, penalty, ca2)`},
		{"jsq takes none", Entry{Name: "jsq", Options: map[string]any{"d": 2}}, "takes no options"},
		{"epsilon out of range", Entry{Name: "model-only", Options: map[string]any{"epsilon": 1.5}}, "1.5 is out of range: must be in [0, 1]"},
		{"penalty not a mapping", Entry{Name: "hybrid", Options: map[string]any{"penalty": 3}}, "want a mapping (threshold, k)"},
		{"penalty bad key", Entry{Name: "hybrid", Options: map[string]any{"penalty": map[string]any{"theta": 1}}}, `penalty: theta: unknown option "theta"`},
		{"string for number", Entry{Name: "hybrid", Options: map[string]any{"window": "10s"}}, `"10s" is not allowed: want a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Make(tt.entry, fullBuild(threeTiers(), 1))
			switch {
			case tt.wantErr == "" && (err != nil || p == nil):
				t.Errorf("Make(%+v): %v", tt.entry, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Make(%+v): error %v, want one containing %q", tt.entry, err, tt.wantErr)
			}
			probs := Check(tt.entry.Name, tt.entry.Options, []string{"local", "edge", "cloud"})
			if (len(probs) == 0) != (tt.wantErr == "") {
				t.Errorf("Check(%+v) = %v, want problems exactly when Make fails", tt.entry, probs)
			}
		})
	}
	if probs := Check("edge-first", nil, []string{"local", "cloud"}); len(probs) != 1 || !strings.Contains(probs[0].Msg, "no tier has kind edge") {
		t.Errorf("Check(edge-first) without an edge tier = %v", probs)
	}
}

// An entry's epsilon overrides the scenario's: hybrid with ε = 0 on the
// swamped-edge state never explores, while the default ε = 0.05 does.
func TestEntryEpsilonOverridesParams(t *testing.T) {
	tiers := threeTiers()
	v := view(12, tiers, dispatch.State{Busy: 1, Queued: 1}, dispatch.State{Busy: 4, Queued: 40}, dispatch.State{Busy: 3})
	count := func(opts map[string]any) int {
		p, err := Make(Entry{Name: "hybrid", Options: opts}, fullBuild(tiers, 3))
		if err != nil {
			t.Fatal(err)
		}
		off := 0
		for range 4000 {
			if p.Decide(v).Tier != 2 {
				off++
			}
		}
		return off
	}
	if n := count(map[string]any{"epsilon": 0}); n != 0 {
		t.Errorf("hybrid with epsilon: 0 left the idle cloud %d times of 4000", n)
	}
	if n := count(nil); n < 60 || n > 220 { // ε·(2/3)·4000 ≈ 133 expected
		t.Errorf("hybrid with the default ε left the cloud %d times of 4000, want about 133", n)
	}
}

// nilPolicy is a policy whose constructor forgets to build it.
type nilPolicy struct{ tier int }

func (p *nilPolicy) Decide(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: p.tier} }

// TestMakeRefusesTypedNil: a constructor that returns a nil pointer and no
// error is refused when the policy is built, with an error naming it,
// rather than handed out to fail at the run's first decision.
func TestMakeRefusesTypedNil(t *testing.T) {
	spec := Spec{Name: "forgetful", construct: func(Build) (dispatch.Policy, error) { return (*nilPolicy)(nil), nil }}
	p, err := makeFrom(spec, Entry{Name: "forgetful", Label: "f1"}, fullBuild(threeTiers(), 1))
	if err == nil || p != nil {
		t.Fatalf("a typed nil from the constructor: policy %v, error %v; want an error", p, err)
	}
	if msg := err.Error(); !strings.Contains(msg, `policy "f1"`) || !strings.Contains(msg, "*policies.nilPolicy") {
		t.Errorf("error %q does not name the policy and the nil type", msg)
	}
	spec.construct = func(Build) (dispatch.Policy, error) { return &nilPolicy{}, nil }
	if p, err := makeFrom(spec, Entry{Name: "forgetful"}, fullBuild(threeTiers(), 1)); err != nil || p == nil {
		t.Errorf("a built policy: %v, %v", p, err)
	}
}
