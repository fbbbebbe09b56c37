package scenario

import (
	"reflect"

	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// The scenario's schema beyond its Go types: a policy entry and a list of
// SLO thresholds have YAML shapes of their own, tiers and policy entries
// are addressed by name in --set paths, and a tier's name stands beside its
// index in messages.
var (
	// thresholdsType is intercepted by the walker: a scalar is one threshold.
	thresholdsType = reflect.TypeFor[Thresholds]()

	scenarioSchema = &schema.Schema{
		Custom: []schema.Custom{schema.EntryCustom("policy", "policies.hybrid.epsilon", reflect.TypeFor[Estimator]()), {
			Type:  thresholdsType,
			Shape: "a number or a list of numbers",
			Walk:  walkThresholds,
		}},
		IndexPath: "tiers[1].servers",
		NamePath:  "tiers.edge.servers",
		Names:     listNames,
	}
)

// walkThresholds checks a scalar as one threshold; a list is walked as
// any list of numbers.
func walkThresholds(w *schema.Walker, n *yaml.Node, segs []string) bool {
	if n.Kind != yaml.ScalarNode || schema.IsNull(n) {
		return false
	}
	w.Scalar(n, reflect.TypeFor[float64](), segs)
	return true
}

// listNames names the items of tiers (by name) and policies (by label)
// for --set paths.
func listNames(list reflect.Value) (string, []string) {
	var names []string
	switch l := list.Interface().(type) {
	case []Tier:
		for _, t := range l {
			names = append(names, t.Name)
		}
		return "tier", names
	case []PolicyEntry:
		for _, e := range l {
			names = append(names, e.Label())
		}
		return "policy", names
	}
	return "", nil
}

// describe says what a value of type t looks like in YAML.
func describe(t reflect.Type) string { return scenarioSchema.Describe(t) }
