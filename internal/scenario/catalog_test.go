package scenario_test

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/offload-sim/offload/internal/scenario"
)

// fakePolicies is the catalog the tests parse with: the eight policies of
// the paper (the defaults), and power-of-d, which is not a default. It
// checks just enough options to test the plumbing: the estimator options on
// the three estimator policies, d on power-of-d, and edge-first's need of
// an edge tier.
type fakePolicies struct{}

// catalog is what every test passes to Parse.
var catalog scenario.Policies = fakePolicies{}

var paperPolicies = []string{"hybrid", "model-only", "queue-only", "jsq", "jsq-s", "edge-first", "random", "oracle"}

func (fakePolicies) Names() []string    { return append(slices.Clone(paperPolicies), "power-of-d") }
func (fakePolicies) Defaults() []string { return slices.Clone(paperPolicies) }

// optionRules lists each policy's options and what each allows.
var optionRules = map[string]map[string]func(any) string{
	"hybrid":     estimatorOptions,
	"model-only": estimatorOptions,
	"queue-only": estimatorOptions,
	"power-of-d": {"d": func(v any) string {
		if n, ok := integer(v); !ok || n < 1 {
			return fmt.Sprintf("%v is not allowed: must be an integer ≥ 1", v)
		}
		return ""
	}},
}

var estimatorOptions = map[string]func(any) string{
	"epsilon": numberIn("must be in [0, 1] (a probability)", func(x float64) bool { return x >= 0 && x <= 1 }),
	"window":  numberIn("must be > 0 (s)", func(x float64) bool { return x > 0 && x <= 1e9 }),
	"rho_max": numberIn("must be in (0, 1)", func(x float64) bool { return x > 0 && x < 1 }),
	"penalty": func(v any) string {
		// A mapping is checked key by key in Check.
		return fmt.Sprintf("%v is not allowed: want a mapping (threshold, k)", v)
	},
}

func (fakePolicies) Check(name string, options map[string]any, tierKinds []string) []scenario.Problem {
	var ps []scenario.Problem
	if name == "edge-first" && !slices.Contains(tierKinds, "edge") {
		ps = append(ps, scenario.Problem{Msg: `"edge-first" is not allowed: no tier has kind edge (edge-first sends every task to the first edge tier)`})
	}
	rules := optionRules[name]
	for _, k := range sortedKeys(options) {
		r, ok := rules[k]
		if !ok {
			allowed := sortedKeys(rules)
			if len(allowed) == 0 {
				allowed = []string{"none"}
			}
			ps = append(ps, scenario.Problem{Option: k, Msg: fmt.Sprintf("unknown option %q of %s (allowed: %s)", k, name, strings.Join(allowed, ", "))})
			continue
		}
		if m, ok := options[k].(map[string]any); ok && k == "penalty" {
			// One Problem per key, at its dotted path.
			for _, kk := range sortedKeys(m) {
				if msg := penaltyRule(kk, m[kk]); msg != "" {
					ps = append(ps, scenario.Problem{Option: k + "." + kk, Msg: msg})
				}
			}
			continue
		}
		if msg := r(options[k]); msg != "" {
			ps = append(ps, scenario.Problem{Option: k, Msg: msg})
		}
	}
	return ps
}

func penaltyRule(k string, v any) string {
	switch k {
	case "threshold":
		return numberIn("must be in [0, 1)", func(x float64) bool { return x >= 0 && x < 1 })(v)
	case "k":
		return numberIn("must be ≥ 0", func(x float64) bool { return x >= 0 && x <= 1e6 })(v)
	}
	return fmt.Sprintf("unknown field %q (allowed: threshold, k)", k)
}

func numberIn(rule string, ok func(float64) bool) func(any) string {
	return func(v any) string {
		var x float64
		switch n := v.(type) {
		case int:
			x = float64(n)
		case float64:
			x = n
		default:
			return fmt.Sprintf("%#v is not allowed: want a number", v)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprintf("%v is not allowed: must be a finite number", x)
		}
		if !ok(x) {
			return fmt.Sprintf("%v is not allowed: %s", v, rule)
		}
		return ""
	}
}

// integer reads an int, or a float64 that is one (a swept option is a
// float64).
func integer(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1e15 {
			return int(n), true
		}
	}
	return 0, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
