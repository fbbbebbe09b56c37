package analysis

import (
	"testing"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/policies"
)

// Every registered policy has a look of its own in the plots: adding a
// policy is a registry row and a style entry.
func TestEveryPolicyHasAStyle(t *testing.T) {
	for _, name := range policies.Names() {
		if !chart.HasStyle(name) {
			t.Errorf("policy %s has no style in internal/chart/style.go", name)
		}
	}
}
