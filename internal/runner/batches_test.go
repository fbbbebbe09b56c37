package runner

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// batchRun runs the M/M/2 of queueCases with extra settings under
// --batches k into dir and returns its runs and stderr.
func batchRun(t *testing.T, dir string, k int, sets ...string) ([]results.Run, string) {
	t.Helper()
	q := queueCases()[0]
	sc, err := scenario.Parse("mm2.yaml", []byte(q.yaml), sets, experiment.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := experiment.NewPlan("run", sc)
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if _, err := Run(context.Background(), summarySpec, plan, Args{}, Options{Dir: dir, Workers: 2, Format: "svg",
		Batches: k, Out: &out, Err: &errs}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := results.ReadRunsAny(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return runs, errs.String()
}

// TestBatchesOneLongRun: under --batches each run's batch columns are
// there, its interval holds the exact mean sojourn of an M/M/2 at a
// moderate load with batches long enough to be uncorrelated; batches too
// short for a heavy load are flagged, and stderr says so; the summary
// carries the columns.
func TestBatchesOneLongRun(t *testing.T) {
	dir := t.TempDir()
	q := queueCases()[0]
	runs, warn := batchRun(t, filepath.Join(dir, "a"), 20, "seeds=1", "tasks=100000")
	if len(runs) != 1 || warn != "" {
		t.Fatalf("%d runs, stderr %q", len(runs), warn)
	}
	r := runs[0]
	m, h, lag := r.Get(results.ColMeanLatency), r.Get(results.ColBatchCI95), r.Get(results.ColBatchLag1)
	t.Logf("M/M/2 ρ=0.6, 100,000 tasks in 20 batches: %.5g ± %.3g (exact %.5g), lag-1 %.3f", m, h, q.exact, lag)
	if !(h > 0) || math.Abs(m-q.exact) > h || r.Get(results.ColBatchCorrelated) != 0 || math.Abs(lag) > 0.5 {
		t.Errorf("batch means: %v ± %v, lag-1 %v, correlated %v; exact %v", m, h, lag, r.Get(results.ColBatchCorrelated), q.exact)
	}
	// At ρ = 0.95 batches of 100 tasks are far shorter than the
	// relaxation time (about 400 service times for the M/M/1 at that load).
	runs, warn = batchRun(t, filepath.Join(dir, "b"), 200, "seeds=1", "tasks=20000", "arrivals.rate=1.9")
	if runs[0].Get(results.ColBatchCorrelated) != 1 || runs[0].Get(results.ColBatchLag1) < 0.5 || !strings.Contains(warn, "correlated batch means") {
		t.Errorf("short batches at ρ = 0.95: lag-1 %v, correlated %v, stderr %q", runs[0].Get(results.ColBatchLag1), runs[0].Get(results.ColBatchCorrelated), warn)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "a", "summary.csv"))
	if err != nil || !strings.Contains(string(sum), ",batch_ci95,batch_ci95_ci95,batch_lag1,") {
		t.Errorf("summary.csv lacks the batch columns (%v):\n%s", err, sum)
	}
}

// TestBatchesRefusals: fewer than 3 batches, and --batches with
// --precision, are bad input naming the flag.
func TestBatchesRefusals(t *testing.T) {
	prec, err := experiment.NewPrecision(0.05, 3, 20, "mean")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Batches: 2}, {Batches: -1}, {Batches: 10, Precision: prec}} {
		if err := checkBatches(o); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--batches") {
			t.Errorf("batches %d, precision %v: %v, want bad input naming --batches", o.Batches, o.Precision != nil, err)
		}
	}
	if err := checkBatches(Options{Batches: 3}); err != nil {
		t.Error(err)
	}
}
