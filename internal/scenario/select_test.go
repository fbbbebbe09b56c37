package scenario_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// --policy names entries by label, and any other policy of the catalog by
// name: a scenario whose list lacks hybrid runs it all the same, with its
// default options. A label wins over a policy of the same name; a name
// that is neither is refused with both lists; the new list is validated
// (edge-first needs an edge tier).
func TestSelectPolicies(t *testing.T) {
	const base = "tasks: 1000\narrivals: {rate: 10}\ntiers: [{name: local, kind: local, servers: 1, speed: 10}%s]\n" +
		"policies: [jsq, {name: random, as: hybrid}, {name: power-of-d, as: p2, d: 2}]\n"
	parse := func(extra string) *scenario.Scenario {
		t.Helper()
		s, err := scenario.Parse("s.yaml", []byte(strings.Replace(base, "%s", extra, 1)), nil, catalog)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	edge := ", {name: edge, kind: edge, servers: 2, speed: 20}"

	s := parse(edge)
	if err := s.SelectPolicies([]string{"p2", "jsq-s", "hybrid", "edge-first", "jsq-s"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.Policies {
		got = append(got, e.Name+" as "+e.Label())
	}
	if want := []string{"power-of-d as p2", "jsq-s as jsq-s", "random as hybrid", "edge-first as edge-first"}; !slices.Equal(got, want) {
		t.Errorf("policies %v, want %v", got, want)
	}
	if s.Policies[0].Options["d"] != 2 {
		t.Errorf("p2's options %v: the entry's own, d = 2", s.Policies[0].Options)
	}

	for _, c := range []struct{ extra, name, want string }{
		{edge, "fastest", `"fastest" is neither a label of the scenario's policies (jsq, hybrid, p2) nor a policy (hybrid, model-only`},
		{"", "edge-first", "no tier has kind edge"},
	} {
		if err := parse(c.extra).SelectPolicies([]string{"jsq", c.name}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--policy jsq,%s: %v, want %q", c.name, err, c.want)
		}
	}
}
