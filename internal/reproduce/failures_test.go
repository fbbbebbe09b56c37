package reproduce

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// The failures experiment runs end to end on a miniature of its scenario:
// its summary and table carry the outcome shares and goodput, its series
// and figures are written; a scenario in tasks mode is refused.
func TestFailuresExperiment(t *testing.T) {
	sc, err := load("failures", []string{"duration=260", "warmup_time=20", "seeds=2", "policies=[jsq, round-robin]"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := experiment.NewPlan("failures", sc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out bytes.Buffer
	if _, err := runner.Run(context.Background(), failuresSpec().Spec, plan, runner.Args{Window: 10}, runner.Options{Dir: dir, Workers: 2, Format: "png", Out: &out}); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{results.ColLostShare, results.ColTimeoutShare, results.ColRetryShare, results.ColGoodput} {
		if !strings.Contains(string(sum), c) || !strings.Contains(out.String(), c) {
			t.Errorf("%s missing from summary.csv or the table:\n%s", c, out.String())
		}
	}
	for _, f := range append(failuresSpec().Files, "failures_latency.png", "failures_p95.png", "series_runs.csv") {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	sc, err = load("failures", []string{"duration=0", "warmup_time=0", "tasks=500", "warmup=50", "seeds=1"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err = experiment.NewPlan("failures", sc)
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	if _, err := runner.Run(context.Background(), failuresSpec().Spec, plan, runner.Args{Window: 10}, runner.Options{Dir: d, Workers: 1, Format: "png", Out: &out}); err == nil || !strings.Contains(err.Error(), "duration mode") {
		t.Errorf("tasks mode: %v", err)
	}
	if entries, _ := os.ReadDir(d); len(entries) > 0 {
		t.Errorf("tasks mode wrote %d files", len(entries))
	}
}
