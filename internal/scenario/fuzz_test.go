package scenario_test

import (
	"reflect"
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
		s, err := scenario.Parse("fuzz.yaml", data, []string{set})
		if err != nil {
			_ = err.Error()
			return
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed scenario: %v", err)
		}
		again, err := scenario.Parse("resolved.yaml", out, nil)
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
