package runner

import (
	"slices"
	"testing"
)

// scenarioDiff names the top-level keys that differ, including a key only
// one side has, and nothing for documents that are not mappings.
func TestScenarioDiff(t *testing.T) {
	a := []byte("name: x\nseeds: 2\ntiers:\n  - {name: edge, servers: 4}\npolicies: [hybrid]\n")
	b := []byte("name: x\nseeds: 3\ntiers:\n  - {name: edge, servers: 5}\npolicies: [hybrid]\nwarmup: 10\n")
	if got, want := scenarioDiff(a, b), []string{"seeds", "tiers", "warmup"}; !slices.Equal(got, want) {
		t.Errorf("scenarioDiff = %v, want %v", got, want)
	}
	if got := scenarioDiff(a, a); len(got) != 0 {
		t.Errorf("identical documents differ in %v", got)
	}
	if got := scenarioDiff([]byte("- a\n"), a); got != nil {
		t.Errorf("a list is not a scenario: got %v", got)
	}
}
