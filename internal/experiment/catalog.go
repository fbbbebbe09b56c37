package experiment

import (
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/scenario"
)

// Catalog is the policy registry as a scenario sees it: the names, the
// paper's default set and each entry's checks. scenario stays a leaf; this
// adapter is the one place the two meet.
func Catalog() scenario.Policies { return catalog{} }

type catalog struct{}

func (catalog) Names() []string    { return policies.Names() }
func (catalog) Defaults() []string { return policies.Defaults() }

func (catalog) Check(name string, options map[string]any, kinds []string) []scenario.Problem {
	var out []scenario.Problem
	for _, p := range policies.Check(name, options, kinds) {
		out = append(out, scenario.Problem{Option: p.Option, Msg: p.Msg})
	}
	return out
}

// entries turns a scenario's policy entries into the registry's.
func entries(sc *scenario.Scenario) []policies.Entry {
	es := make([]policies.Entry, len(sc.Policies))
	for i, e := range sc.Policies {
		es[i] = policies.Entry{Name: e.Name, Label: e.Label(), Options: e.Options}
	}
	return es
}
