package report

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// TestReadSummaryRoundTrip: what results.WriteSummary writes, results.ReadSummary reads
// back, value for value (NaN as missing), whatever the columns.
func TestReadSummaryRoundTrip(t *testing.T) {
	sums := sweepSummaries()
	var b bytes.Buffer
	if err := results.WriteSummary(&b, cols, sums); err != nil {
		t.Fatal(err)
	}
	got, err := results.ReadSummary(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(sums) {
		t.Fatalf("%d summaries back, want %d", len(got), len(sums))
	}
	for i, s := range sums {
		g := got[i]
		if g.Policy != s.Policy || g.Value != s.Value || g.Unstable != s.Unstable || g.Runs != s.Runs || len(g.Cols) != len(cols) {
			t.Fatalf("row %d: %+v, want %+v", i, g, s)
		}
		for j := range cols {
			if !sameNum(g.Mean[j], s.Mean[j]) || !sameNum(g.CI95[j], s.CI95[j]) {
				t.Fatalf("row %d column %s: %v ± %v, want %v ± %v", i, cols[j].Name, g.Mean[j], g.CI95[j], s.Mean[j], s.CI95[j])
			}
		}
	}
	for _, bad := range []string{"", "experiment,param\n", "experiment,param,value,policy,runs,a,b,unstable\n",
		"experiment,param,value,policy,runs,a,a_ci95,unstable\ne,,,p,2,1,x,0\n"} {
		if _, err := results.ReadSummary(strings.NewReader(bad)); err == nil {
			t.Errorf("results.ReadSummary(%q): no error", bad)
		}
	}
}

// TestReadSummaryPrecision: a run until precise's summary.csv ends with
// precision and precision_met, which read back; plain summaries have none.
func TestReadSummaryPrecision(t *testing.T) {
	sums := sweepSummaries()
	for i := range sums {
		sums[i].Precise, sums[i].Precision, sums[i].PrecisionMet = true, 0.01*float64(i), i%2 == 0
	}
	var b bytes.Buffer
	if err := results.WriteSummary(&b, cols, sums); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := strings.Cut(b.String(), "\n"); !strings.HasSuffix(h, ",unstable,precision,precision_met") {
		t.Fatalf("header %q", h)
	}
	got, err := results.ReadSummary(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sums {
		g := got[i]
		if !g.Precise || g.Precision != s.Precision || g.PrecisionMet != s.PrecisionMet || g.Unstable != s.Unstable || len(g.Cols) != len(cols) {
			t.Fatalf("row %d: %+v, want %+v", i, g, s)
		}
	}
	b.Reset()
	if err := results.WriteSummary(&b, cols, sweepSummaries()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "precision") {
		t.Error("a plain summary.csv has precision columns")
	}
}

func sameNum(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// TestSVGTextIsOutlined: an SVG figure carries no <text> (whose look would
// depend on the viewer's fonts) but the glyphs' paths; the default figure
// keeps its caption, the options leave it out and set the size.
func TestSVGTextIsOutlined(t *testing.T) {
	d := memFolder{}
	if err := PlotMetric(d, "a", "svg", sweepSummaries(), testLegend, results.ColMeanLatency, "Mean latency", "rate", "s", true); err != nil {
		t.Fatal(err)
	}
	o := chart.FigureOptions{XLabel: "rate", YLabel: "s", Width: 5 * 72, Height: 4 * 72}
	if err := PlotMetricWith(d, "b", "svg", sweepSummaries(), testLegend, results.ColMeanLatency, o); err != nil {
		t.Fatal(err)
	}
	a, b := string(d["a.svg"]), string(d["b.svg"])
	for name, s := range map[string]string{"a": a, "b": b} {
		if strings.Contains(s, "<text") || strings.Count(s, "<path") < 200 {
			t.Errorf("%s.svg: %d <text>, %d <path>; want text as paths", name, strings.Count(s, "<text"), strings.Count(s, "<path"))
		}
	}
	if !strings.Contains(b, `width="360pt" height="288pt"`) {
		t.Errorf("b.svg is not 5 × 4 in: %.200s", b)
	}
	if len(b) >= len(a) {
		t.Errorf("the figure without caption and title (%d bytes) is not smaller than the default (%d)", len(b), len(a))
	}
	if err := PlotMetricWith(d, "c", "svg", sweepSummaries(), testLegend, results.ColMeanLatency, chart.FigureOptions{Width: 72, Height: 72}); err == nil {
		t.Error("a 1 × 1 in figure: no error")
	}
}

// TestPlotDiffs draws a sweep's and a single cell's differences and leaves
// unstable cells out.
func TestPlotDiffs(t *testing.T) {
	d := memFolder{}
	ds := []results.Difference{
		{Value: 10, Policy: "hybrid", Diff: 0.001, CI95: 0.0002, Pairs: 5},
		{Value: 20, Policy: "hybrid", Diff: -0.002, CI95: 0.0005, Pairs: 5},
		{Value: 20, Policy: "random", Diff: 300, CI95: 5, Pairs: 5, Unstable: true},
	}
	if err := PlotDiffs(d, "sweep.svg", "svg", ds, testLegend, chart.FigureOptions{}); err != nil {
		t.Fatal(err)
	}
	one := []results.Difference{{Value: math.NaN(), Policy: "jsq", Diff: 1, CI95: 0.1, Pairs: 3}, {Value: math.NaN(), Policy: "hybrid", Diff: -1, CI95: 0.1, Pairs: 3}}
	if err := PlotDiffs(d, "one.png", "png", one, testLegend, chart.FigureOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := PlotDiffs(d, "none.png", "png", ds[2:], testLegend, chart.FigureOptions{}); err == nil {
		t.Error("only unstable cells: no error")
	}
	var b bytes.Buffer
	if err := results.WriteCompare(&b, ds); err != nil || !strings.Contains(b.String(), ",20,random,,,5,0,0,300,5,higher,1\n") {
		t.Errorf("compare CSV: %v\n%s", err, b.String())
	}
}

// memFolder is a Folder in memory.
type memFolder map[string][]byte

func (m memFolder) WriteFile(name string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	m[name] = b.Bytes()
	return nil
}
