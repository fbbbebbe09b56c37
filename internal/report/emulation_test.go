package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

func TestEmulationRunsHeaderExtendsTheSimulators(t *testing.T) {
	c := results.RunColumns(results.Layout{Tiers: []string{"edge", "cloud"}})
	h := EmulationRunsHeader(c)
	sim := RunsHeader(c)
	if strings.Join(h[:len(sim)], ",") != strings.Join(sim, ",") ||
		strings.Join(h[len(sim):], ",") != "sent,completed,rejected,failed,valid" {
		t.Errorf("header %v: want the simulator's then sent,completed,rejected,failed,valid", h)
	}
}

func TestWriteEmulationRuns(t *testing.T) {
	nan := math.NaN()
	ec := results.RunColumns(results.Layout{Tiers: []string{"edge", "cloud"}})
	run := results.NewRun(ec, map[string]float64{results.ColTasks: 3,
		results.ColMeanLatency: 0.25, results.ColP50Latency: 0.2, results.ColP95Latency: 0.5, results.ColP99Latency: 0.5,
		results.ColMaxLatency: 0.5, results.ColMeanWait: 0.01, results.ColMAPE: 12.5,
		"share_edge": 0.5, "share_cloud": 0.5, "util_edge": 0.1, "util_cloud": 0.2})
	run.Experiment, run.Value, run.Policy, run.Seed = "emulate", nan, "hybrid", 1
	r := EmulatedRun{Run: run, Sent: 5, Completed: 3, Rejected: 1, Failed: 1, Valid: true}
	var buf bytes.Buffer
	if err := WriteEmulationRuns(&buf, ec, []EmulatedRun{r}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "emulation_runs.csv", buf.Bytes())
	r.Cols = results.RunColumns(results.Layout{Tiers: []string{"edge"}})
	if err := WriteEmulationRuns(&buf, ec, []EmulatedRun{r}); err == nil {
		t.Error("a run with the columns of 1 tier under a header of 2: no error")
	}
}

func comparisons() []Comparison {
	emu := []results.Summary{
		summary("hybrid", 0, map[string]float64{results.ColMeanLatency: 0.11, results.ColP95Latency: 0.3}, map[string]float64{results.ColMeanLatency: 0.01, results.ColP95Latency: 0.02}),
		summary("edge-first", 0, map[string]float64{results.ColMeanLatency: 2.2, results.ColP95Latency: 4}, map[string]float64{results.ColMeanLatency: 0.1, results.ColP95Latency: 0.2}),
	}
	sim := []results.Summary{
		summary("edge-first", 0, map[string]float64{results.ColMeanLatency: 2, results.ColP95Latency: 4}, map[string]float64{results.ColMeanLatency: 0.1, results.ColP95Latency: 0.2}),
		summary("hybrid", 0, map[string]float64{results.ColMeanLatency: 0.1, results.ColP95Latency: 0.25}, map[string]float64{results.ColMeanLatency: 0.01, results.ColP95Latency: 0.02}),
	}
	return Compare(emu, sim, func(p string) (float64, int) {
		if p == "hybrid" {
			return 0.01, 2
		}
		return 0, 0
	})
}

func TestCompareAndWrite(t *testing.T) {
	cs := comparisons()
	if len(cs) != 2 || cs[0].Policy != "hybrid" || math.Abs(cs[0].MeanDiffPct-10) > 1e-9 || math.Abs(cs[1].P95DiffPct) > 0 || cs[0].Failed != 2 {
		t.Fatalf("comparisons %+v", cs)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, cs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != strings.Join(ComparisonHeader, ",") || !strings.HasPrefix(lines[1], "hybrid,2,0.11,0.01,0.1,0.01,") || !strings.HasSuffix(lines[1], ",0.01,2,0") {
		t.Errorf("csv:\n%s", buf.String())
	}
}

func TestPlotComparison(t *testing.T) {
	dir := t.TempDir()
	if err := PlotComparison(Dir(dir), "emulated_vs_simulated", "png", comparisons(), testLegend); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "emulated_vs_simulated.png"))
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("png: %v, %d bytes", err, len(b))
	}
	if err := PlotComparison(Dir(dir), "none", "png", nil, testLegend); err == nil {
		t.Error("no data: no error")
	}
}
