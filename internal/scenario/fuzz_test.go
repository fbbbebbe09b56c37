package scenario_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// FuzzParse feeds arbitrary files and overrides to Parse: errors are fine,
// panics are not, and whatever parses must survive Marshal and Parse.
func FuzzParse(f *testing.F) {
	for _, file := range fixtureFiles(f, "*.yaml") {
		f.Add(readFixture(f, file), "tiers.0.servers=2")
	}
	f.Add([]byte("a: &a [*a, *a]\n"), "sweep={param: arrivals.rate, values: [1]}")
	f.Add([]byte("tiers: [{<<: &x {name: a}, <<: *x}]\n"), "workload.size.dist=lognormal")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		s, err := scenario.Parse("fuzz.yaml", data, []string{set}, catalog)
		if err != nil {
			_ = err.Error()
			return
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed scenario: %v", err)
		}
		again, err := scenario.Parse("resolved.yaml", out, nil, catalog)
		if err != nil {
			t.Fatalf("Parse(Marshal()) failed: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("Parse(Marshal()) = %+v, want %+v\n%s", again, s, out)
		}
		if _, err := s.Cells(); err != nil {
			t.Fatalf("Cells() of a valid scenario: %v", err)
		}
	})
}

// TestParseHostile pins inputs that once could, or easily could, blow up:
// they must fail fast with a message, not hang or panic.
func TestParseHostile(t *testing.T) {
	var merges strings.Builder
	merges.WriteString("tasks: 1\narrivals: {rate: 1}\ntiers:\n  - &t0 {name: a, kind: edge, servers: 1, speed: 1}\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&merges, "  - &t%d {<<: [*t%d, *t%d, *t%d]}\n", i, i-1, i-1, i-1)
	}
	tests := []struct{ name, data, want string }{
		{"merge bomb", merges.String(), "the document expands to more than"},
		{"self merge", "tasks: 1\nestimator: &e {<<: *e}\n", "estimator"},
		{"alias cycle", "tiers: &t [*t]\n", `tiers[0]: a list is not allowed: want a mapping`},
		{"scalar document", "5\n", `"5" is not allowed: a scenario is a mapping`},
		{"merge of a scalar", "estimator: {<<: 5}\n", `estimator: "5" is not allowed in a merge`},
		{"key is a list", "[a]: 1\n", "a list is not allowed as a key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenario.Parse("hostile.yaml", []byte(tt.data), nil, catalog)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%.60q) = %v, want an error containing %q", tt.data, err, tt.want)
			}
		})
	}
}
