package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A short balancers experiment: the devices sweep runs, each balancer
// with its own counts; a scenario that sweeps nothing the experiment is
// about is refused.
func TestBalancersExperiment(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b")
	code, stdout, stderr := run(t, context.Background(), append([]string{"balancers", "-o", out, "--policy", "least-conn,jsq",
		"--set", "sweep.values=[1, 10]"}, short...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, rows := readTable(t, filepath.Join(out, "runs.csv"))
	if len(rows) != 2*2*2 {
		t.Errorf("%d runs, want 8", len(rows))
	}
	checkPNG(t, filepath.Join(out, "mean_latency.png"))
	if !strings.Contains(stdout, "least-conn") {
		t.Errorf("stdout:\n%s", stdout)
	}
	f := writeFile(t, dir, "nosweep.yaml", pool3)
	code, _, stderr = run(t, context.Background(), "balancers", "-f", f, "-o", filepath.Join(dir, "x"), "--quiet")
	if code != ExitUsage || !strings.Contains(stderr, "must sweep devices") {
		t.Errorf("no sweep: exit %d, %s", code, stderr)
	}
}
