package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The unstable flag tells instability from chance. A hundred single-server
// tiers at load 0.9 (random dispatch), two replicates of 20,000 tasks: the
// point rule flagged this stable system, since the mean load of one of the
// hundred tiers measures above 1 by chance. random at 60 tasks/s in the
// default scenario overloads the local tier (20 tasks/s against μ = 10)
// and stays flagged.
func TestUnstableIsNotACoinToss(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "many.yaml", "name: many\nseed: 1\nseeds: 2\ntasks: 20000\nwarmup: 1000\narrivals: {rate: 900}\n"+
		"workload:\n  size: {dist: exponential, mean: 1.0}\n"+singleServerTiers(100)+"policies: [random]\n")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"100 tiers at 0.9", []string{"run", "-f", f}, "0"},
		{"random at 60", []string{"run", "--policy", "random", "--seeds", "3", "--tasks", "20000"}, "1"},
	} {
		out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
		if code, _, stderr := run(t, context.Background(), append(c.args, "-o", out, "--quiet")...); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		rows := readCSV(t, filepath.Join(out, "summary.csv"))
		if len(rows) != 1 || rows[0]["unstable"] != c.want {
			t.Errorf("%s: unstable %q, want %s", c.name, rows[0]["unstable"], c.want)
		}
	}
}
