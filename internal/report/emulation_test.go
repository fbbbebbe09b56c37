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
	tiers := []string{"edge", "cloud"}
	h := EmulationRunsHeader(tiers)
	sim := RunsHeader(tiers)
	if strings.Join(h[:len(sim)], ",") != strings.Join(sim, ",") ||
		strings.Join(h[len(sim):], ",") != "sent,completed,rejected,failed" {
		t.Errorf("header %v: want the simulator's then sent,completed,rejected,failed", h)
	}
}

func TestWriteEmulationRuns(t *testing.T) {
	nan := math.NaN()
	r := EmulatedRun{Run: results.Run{Experiment: "emulate", Value: nan, Policy: "hybrid", Seed: 1, Tasks: 3,
		MeanLatency: 0.25, P50Latency: 0.2, P95Latency: 0.5, P99Latency: 0.5, MaxLatency: 0.5, MeanWait: 0.01,
		MeanLarge: nan, P95Large: nan, MAPE: 12.5, DecisionNs: nan, Share: []float64{0.5, 0.5}, Util: []float64{0.1, 0.2}},
		Sent: 5, Completed: 3, Rejected: 1, Failed: 1}
	var buf bytes.Buffer
	if err := WriteEmulationRuns(&buf, []string{"edge", "cloud"}, []EmulatedRun{r}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := "emulate,,,hybrid,1,3,0.25,0.2,0.5,0.5,0.5,0.01,,,12.5,,0.5,0.5,0.1,0.2,5,3,1,1"
	if len(lines) != 2 || lines[1] != want {
		t.Errorf("rows:\n%s\nwant\n%s", buf.String(), want)
	}
	r.Share = []float64{1}
	if err := WriteEmulationRuns(&buf, []string{"edge", "cloud"}, []EmulatedRun{r}); err == nil {
		t.Error("a run with 1 share for 2 tiers: no error")
	}
}

func comparisons() []Comparison {
	emu := []results.Summary{
		{Policy: "hybrid", Runs: 2, Mean: results.Metrics{MeanLatency: 0.11, P95Latency: 0.3}, CI95: results.Metrics{MeanLatency: 0.01, P95Latency: 0.02}},
		{Policy: "edge-first", Runs: 2, Mean: results.Metrics{MeanLatency: 2.2, P95Latency: 4}, CI95: results.Metrics{MeanLatency: 0.1, P95Latency: 0.2}},
	}
	sim := []results.Summary{
		{Policy: "edge-first", Runs: 2, Mean: results.Metrics{MeanLatency: 2, P95Latency: 4}, CI95: results.Metrics{MeanLatency: 0.1, P95Latency: 0.2}},
		{Policy: "hybrid", Runs: 2, Mean: results.Metrics{MeanLatency: 0.1, P95Latency: 0.25}, CI95: results.Metrics{MeanLatency: 0.01, P95Latency: 0.02}},
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
	if lines[0] != strings.Join(ComparisonHeader, ",") || !strings.HasPrefix(lines[1], "hybrid,2,0.11,0.01,0.1,0.01,") || !strings.HasSuffix(lines[1], ",0.01,2") {
		t.Errorf("csv:\n%s", buf.String())
	}
}

func TestPlotComparison(t *testing.T) {
	dir := t.TempDir()
	if err := PlotComparison(dir, "emulated_vs_simulated", "png", comparisons()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "emulated_vs_simulated.png"))
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("png: %v, %d bytes", err, len(b))
	}
	if err := PlotComparison(dir, "none", "png", nil); err == nil {
		t.Error("no data: no error")
	}
}
