package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
)

// precisionRun runs a small two-cell sweep until precise into dir.
func precisionRun(t *testing.T, dir string, target float64, workers int, resume bool) string {
	t.Helper()
	sc, err := load("sweep-load", []string{"sweep.values=[40, 120]", "tasks=400", "warmup=0", "policies=[jsq, jsq-s]", "seeds=3"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := experiment.NewPlan("sweep-load", sc)
	if err != nil {
		t.Fatal(err)
	}
	prec, err := experiment.NewPrecision(target, sc.Seeds, 60, "mean")
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if _, err := Run(context.Background(), summarySpec, plan, Args{}, Options{Dir: dir, Workers: workers, Format: "svg",
		Resume: resume, Precision: prec, Out: &out, Err: &errs}); err != nil {
		t.Fatal(err)
	}
	return errs.String()
}

// summarySpec is an experiment that writes summary.csv alone.
var summarySpec = Spec{Name: "sweep-load", Outputs: func(r *Result) ([]string, error) {
	_, err := WriteSummary(r.Dir, r.Plan, r.Opts, OutcomeRuns(r.Outcomes))
	return nil, err
}}

// TestPrecisionRun checks a run until precise: every policy of a cell has
// the same replicates (they stay paired), at least 10 before the first
// test, each cell either met the target or reached the cap (and said so);
// the bytes do not depend on -j; a folder resumed with a tighter target
// ends byte for byte as a fresh run of it.
func TestPrecisionRun(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	warn := precisionRun(t, a, 0.03, 1, false)
	precisionRun(t, b, 0.03, 3, false)
	precisionRun(t, c, 0.2, 2, false)
	precisionRun(t, c, 0.03, 2, true)
	for _, f := range []string{"runs.csv", "summary.csv"} {
		x, _ := os.ReadFile(filepath.Join(a, f))
		for _, other := range []string{b, c} {
			if y, _ := os.ReadFile(filepath.Join(other, f)); !bytes.Equal(x, y) {
				t.Errorf("%s differs between %s and %s", f, a, other)
			}
		}
	}
	f, err := os.Open(filepath.Join(a, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums, err := results.ReadSummary(f)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[float64]int{}
	capped := 0
	for _, s := range sums {
		if !s.Precise {
			t.Fatalf("%v %s: no precision column", s.Value, s.Policy)
		}
		if n, ok := runs[s.Value]; ok && n != s.Runs {
			t.Errorf("cell %v: %s has %d replicates, another policy %d: not paired", s.Value, s.Policy, s.Runs, n)
		}
		runs[s.Value] = s.Runs
		if s.Runs < 10 || s.Runs > 60 {
			t.Errorf("cell %v: %d replicates, outside [10, 60]", s.Value, s.Runs)
		}
		switch {
		case s.PrecisionMet && s.Precision > 0.03:
			t.Errorf("cell %v %s: met with precision %v > 0.03", s.Value, s.Policy, s.Precision)
		case !s.PrecisionMet && s.Runs != 60:
			t.Errorf("cell %v %s: not met after %d replicates, below the cap", s.Value, s.Policy, s.Runs)
		case !s.PrecisionMet:
			capped++
		}
		t.Logf("cell %v %s: %d replicates, precision %.4f, met %v", s.Value, s.Policy, s.Runs, s.Precision, s.PrecisionMet)
	}
	if (capped > 0) != strings.Contains(warn, "--max-seeds 60") {
		t.Errorf("%d capped rows, but stderr says %q", capped, warn)
	}
}

// TestPrecisionRefusals: a shard cannot know a run until precise's runs in
// advance, and an experiment with FixedSeeds reads every cell's
// replicates as the seeds.
func TestPrecisionRefusals(t *testing.T) {
	prec, err := experiment.NewPrecision(0.05, 3, 20, "p95")
	if err != nil {
		t.Fatal(err)
	}
	if err := checkPrecision(summarySpec, Options{Precision: prec, Shard: experiment.Shard{Index: 0, Count: 2}}); !errors.Is(err, ErrBadInput) {
		t.Errorf("--shard with --precision: %v, want bad input", err)
	}
	if err := checkPrecision(Spec{Name: "staleness", FixedSeeds: true}, Options{Precision: prec}); !errors.Is(err, ErrBadInput) {
		t.Errorf("staleness with --precision: %v, want bad input", err)
	}
	if err := checkPrecision(summarySpec, Options{Precision: prec}); err != nil {
		t.Error(err)
	}
	for _, bad := range []struct {
		r    float64
		max  int
		on   string
		flag string
	}{{0, 20, "mean", "--precision"}, {1, 20, "mean", "--precision"}, {-0.1, 20, "mean", "--precision"}, {0.1, 1, "mean", "--max-seeds"}, {0.1, 20, "p50", "--precision-on"}} {
		if _, err := experiment.NewPrecision(bad.r, 3, bad.max, bad.on); err == nil || !strings.Contains(err.Error(), bad.flag) {
			t.Errorf("experiment.NewPrecision(%v, 3, %d, %q): %v, want an error naming %s", bad.r, bad.max, bad.on, err, bad.flag)
		}
	}
}
