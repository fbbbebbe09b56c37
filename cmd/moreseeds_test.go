package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/runner"
)

// TestResumeWithMoreSeeds: --resume --seeds N over a finished folder of
// fewer replicates keeps its runs and runs only the new replicates, and the
// files equal a fresh run with N; fewer replicates than the folder holds
// are still refused.
func TestResumeWithMoreSeeds(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", small)
	part, full := filepath.Join(dir, "part"), filepath.Join(dir, "full")
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", part, "--seeds", "2", "--format", "svg"); code != 0 {
		t.Fatal(stderr)
	}
	// Mark one kept run: if --resume ran it again, the mark would go.
	runs := filepath.Join(part, "runs.csv")
	lines := strings.Split(readFile(t, runs), "\n")
	fields := strings.Split(lines[1], ",")
	orig := fields[6]
	fields[6] = "12345"
	lines[1] = strings.Join(fields, ",")
	if err := os.WriteFile(runs, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", part, "--seeds", "4", "--resume", "--format", "svg"); code != 0 {
		t.Fatalf("--resume --seeds 4 exited %d: %s", code, stderr)
	}
	if got := strings.Split(strings.Split(readFile(t, runs), "\n")[1], ",")[6]; got != "12345" {
		t.Fatalf("the kept run's mean latency is %s: it was run again", got)
	}
	m, err := runner.ReadManifest(part)
	if err != nil || m.Seeds != 4 || !m.Complete || m.RunsDone != m.Runs {
		t.Errorf("manifest after adding replicates: %+v, %v", m, err)
	}
	// With the mark undone, every file is a fresh 4-replicate run's.
	if err := os.WriteFile(runs, []byte(strings.Replace(readFile(t, runs), ",12345,", ","+orig+",", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", part, "--seeds", "4", "--resume", "--format", "svg"); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", full, "--seeds", "4", "--format", "svg"); code != 0 {
		t.Fatal(stderr)
	}
	for _, name := range []string{"runs.csv", "summary.csv", "scenario.yaml", "mean_latency.svg"} {
		if readFile(t, filepath.Join(full, name)) != readFile(t, filepath.Join(part, name)) {
			t.Errorf("%s differs from a fresh run with --seeds 4", name)
		}
	}
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", part, "--seeds", "3", "--resume", "--format", "svg")
	if code != ExitUsage || !strings.Contains(stderr, "seeds") {
		t.Errorf("--resume with fewer replicates: exit %d, %q; want %d naming seeds", code, stderr, ExitUsage)
	}
}
