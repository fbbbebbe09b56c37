package scenario

import (
	"reflect"

	"github.com/offload-sim/offload/internal/schema"
)

// The scenario's schema beyond its Go types: a policy entry and a list of
// SLO thresholds have YAML shapes of their own, tiers and policy entries
// are addressed by name in --set paths, and a tier's name stands beside its
// index in messages.
var scenarioSchema = &schema.Schema{
	Custom: []schema.Custom{
		schema.EntryCustom("policy", "policies.hybrid.epsilon", reflect.TypeFor[Estimator]()),
		schema.NumbersCustom(),
		{Type: warmupType, Shape: warmupShape, Walk: walkWarmup},
	},
	IndexPath: "tiers[1].servers",
	NamePath:  "tiers.edge.servers",
	Names:     listNames,
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
