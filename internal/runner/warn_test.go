package runner

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
)

// planWarnings warns of a plan of hours and of runs too short to mean
// anything, and says nothing of the paper's own sweep on many cores.
func TestPlanWarnings(t *testing.T) {
	plan := func(sets ...string) *experiment.Plan {
		t.Helper()
		sc, err := load("sweep-load", sets)
		if err != nil {
			t.Fatal(err)
		}
		p, err := experiment.NewPlan(sc.Name, sc)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if ws := planWarnings(plan(), 16, experiment.Shard{}); len(ws) != 0 {
		t.Errorf("the paper's sweep-load on 16 workers: %q, want no warning", ws)
	}
	if ws := planWarnings(plan("seeds=100"), 1, experiment.Shard{}); len(ws) != 1 || !strings.Contains(ws[0], "of simulation") {
		t.Errorf("100 seeds on one worker: %q, want the long-run warning", ws)
	}
	if ws := planWarnings(plan("seeds=100"), 1, experiment.Shard{Index: 0, Count: 100}); len(ws) != 0 {
		t.Errorf("one shard of 100: %q, want no warning", ws)
	}
	if ws := planWarnings(plan("tasks=500"), 16, experiment.Shard{}); len(ws) != 1 || !strings.Contains(ws[0], "500 measured tasks per run") {
		t.Errorf("500 tasks: %q, want the short-run warning", ws)
	}
	// One exec entry beside jsq: its round trip per task makes a plan
	// that jsq alone would finish in minutes a long one.
	if ws := planWarnings(plan("policies=[jsq]"), 1, experiment.Shard{}); len(ws) != 0 {
		t.Errorf("jsq alone: %q, want no warning", ws)
	}
	if ws := planWarnings(plan("policies=[jsq, {name: exec, as: mine, command: [./p]}]"), 1, experiment.Shard{}); len(ws) != 1 ||
		!strings.Contains(ws[0], "at ~25.25 µs a task") {
		t.Errorf("an exec entry beside jsq: %q, want the long-run warning at the mean of 0.5 and 50 µs", ws)
	}
	ws := planWarnings(plan("tasks=0", "warmup=0", "duration=20"), 16, experiment.Shard{})
	if len(ws) != 1 || !strings.Contains(ws[0], "200 measured tasks (about: 20 s at 10 tasks/s)") {
		t.Errorf("20 s at a swept rate from 10/s: %q, want the short-run warning at the lowest rate", ws)
	}
}
