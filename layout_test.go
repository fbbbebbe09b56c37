package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayout keeps the dependency graph reading top-down (docs/layout.md):
// library packages never reach the CLI, the engine never reaches the
// policies, scenarios or reports, and the testbed never reaches the engine.
func TestLayout(t *testing.T) {
	const mod = "github.com/offload-sim/offload/"
	forbidden := map[string][]string{
		"internal/dispatch":   {"internal/", "cmd"},
		"internal/workload":   {"internal/", "cmd"},
		"internal/engine":     {"internal/policies", "internal/estimators", "internal/scenario", "internal/report", "internal/experiment", "cmd"},
		"internal/estimators": {"internal/engine", "internal/policies", "internal/scenario", "internal/report", "cmd"},
		"internal/policies":   {"internal/engine", "internal/scenario", "internal/report", "cmd"},
		"internal/scenario":   {"internal/", "cmd"},
		"internal/results":    {"internal/engine", "internal/policies", "internal/experiment", "cmd"},
		"internal/report":     {"internal/engine", "internal/policies", "internal/experiment", "cmd"},
		"internal/experiment": {"internal/report", "cmd"},
		"internal/testbed":    {"internal/engine", "cmd"},
	}
	for pkg, bad := range forbidden {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			if strings.Contains(pkg, "testbed") {
				continue // not every checkout has it yet
			}
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			rel, ok := strings.CutPrefix(dep, mod)
			if !ok || rel == pkg {
				continue
			}
			for _, b := range bad {
				if strings.HasPrefix(rel, b) {
					t.Errorf("%s imports %s", pkg, rel)
				}
			}
		}
	}
}
