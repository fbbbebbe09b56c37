package analysis

import (
	"testing"

	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
)

// Every registered policy has a look of its own in the plots: adding a
// policy is a registry row and a style entry.
func TestEveryPolicyHasAStyle(t *testing.T) {
	for _, name := range policies.Names() {
		if !report.HasStyle(name) {
			t.Errorf("policy %s has no style in internal/report/style.go", name)
		}
	}
}
