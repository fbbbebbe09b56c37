package analysis

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

func comparisons() []results.Comparison {
	emu := []results.Summary{
		cmpSummary("hybrid", 0, map[string]float64{results.ColMeanLatency: 0.11, results.ColP95Latency: 0.3}, map[string]float64{results.ColMeanLatency: 0.01, results.ColP95Latency: 0.02}),
		cmpSummary("edge-first", 0, map[string]float64{results.ColMeanLatency: 2.2, results.ColP95Latency: 4}, map[string]float64{results.ColMeanLatency: 0.1, results.ColP95Latency: 0.2}),
	}
	sim := []results.Summary{
		cmpSummary("edge-first", 0, map[string]float64{results.ColMeanLatency: 2, results.ColP95Latency: 4}, map[string]float64{results.ColMeanLatency: 0.1, results.ColP95Latency: 0.2}),
		cmpSummary("hybrid", 0, map[string]float64{results.ColMeanLatency: 0.1, results.ColP95Latency: 0.25}, map[string]float64{results.ColMeanLatency: 0.01, results.ColP95Latency: 0.02}),
	}
	return results.Compare(emu, sim, func(p string) (float64, int) {
		if p == "hybrid" {
			return 0.01, 2
		}
		return 0, 0
	})
}

var cmpLegend = chart.Legend{Labels: []string{"hybrid", "edge-first"}, Policies: []string{"hybrid", "edge-first"}}

// cmpSummary is a summary of the mean and P95 latency columns alone.
func cmpSummary(pol string, value float64, mean, ci map[string]float64) results.Summary {
	cols := []results.Column{{Name: results.ColMeanLatency}, {Name: results.ColP95Latency}}
	s := results.Summary{Policy: pol, Value: value, Runs: 2, Cols: cols, Mean: results.NaNs(2), CI95: results.NaNs(2)}
	for i, c := range cols {
		if v, ok := mean[c.Name]; ok {
			s.Mean[i] = v
		}
		if v, ok := ci[c.Name]; ok {
			s.CI95[i] = v
		}
	}
	return s
}

// TestReadComparison reads back what WriteComparison writes.
func TestReadComparison(t *testing.T) {
	var buf bytes.Buffer
	if err := results.WriteComparison(&buf, comparisons()); err != nil {
		t.Fatal(err)
	}
	cs, err := readComparison(buf.Bytes())
	if err != nil || len(cs) != 2 || cs[1].Policy != "edge-first" || cs[1].EmuMean != 2.2 || cs[0].SimP95CI95 != 0.02 {
		t.Fatalf("%+v, %v", cs, err)
	}
	if _, err := readComparison([]byte("policy,runs\nhybrid,1\n")); err == nil {
		t.Error("no latency columns: no error")
	}
}

func TestCompareAndWrite(t *testing.T) {
	cs := comparisons()
	if len(cs) != 2 || cs[0].Policy != "hybrid" || math.Abs(cs[0].MeanDiffPct-10) > 1e-9 || math.Abs(cs[1].P95DiffPct) > 0 || cs[0].Failed != 2 {
		t.Fatalf("comparisons %+v", cs)
	}
	var buf bytes.Buffer
	if err := results.WriteComparison(&buf, cs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != strings.Join(results.ComparisonHeader, ",") || !strings.HasPrefix(lines[1], "hybrid,2,0.11,0.01,0.1,0.01,") || !strings.HasSuffix(lines[1], ",0.01,2,0") {
		t.Errorf("csv:\n%s", buf.String())
	}
}

func TestPlotComparison(t *testing.T) {
	dir := t.TempDir()
	if err := PlotComparison(chart.Dir(dir), "emulated_vs_simulated", "png", comparisons(), cmpLegend); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "emulated_vs_simulated.png"))
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("png: %v, %d bytes", err, len(b))
	}
	if err := PlotComparison(chart.Dir(dir), "none", "png", nil, cmpLegend); err == nil {
		t.Error("no data: no error")
	}
}
