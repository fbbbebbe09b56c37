package cmd

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// --policy NAME runs any registered policy, not only the entries the
// scenario lists (hybrid on a scenario without it was refused); a label of
// the scenario's still names its entry, and wins over a policy's name.
func TestPolicyFlagTakesRegistryNames(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", strings.Replace(small, "policies: [hybrid, jsq, edge-first, random, oracle]",
		"policies: [jsq, {name: random, as: edge-first}]", 1))
	out := filepath.Join(dir, "out")
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "--seeds", "1", "--tasks", "500", "--set", "sweep=null",
		"--policy", "hybrid,edge-first,jsq-s", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []string
	for _, r := range readCSV(t, filepath.Join(out, "summary.csv")) {
		got = append(got, r["policy"])
	}
	if want := []string{"hybrid", "edge-first", "jsq-s"}; !slices.Equal(got, want) {
		t.Errorf("policies %v, want %v", got, want)
	}
	// edge-first is the scenario's random, labelled so: it sends tasks to
	// the local tier, which the built-in edge-first never does.
	for _, r := range readCSV(t, filepath.Join(out, "runs.csv")) {
		if r["policy"] == "edge-first" && r["share_local"] == "0" {
			t.Errorf("edge-first sent nothing to local: the built-in ran, not the scenario's entry of that label")
		}
	}
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", filepath.Join(dir, "bad"), "--policy", "fastest"); code != ExitUsage ||
		!strings.Contains(stderr, `"fastest" is neither a label of the scenario's policies (jsq, edge-first) nor a policy (hybrid,`) {
		t.Errorf("--policy fastest: exit %d, %s", code, stderr)
	}
}
