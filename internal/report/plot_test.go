package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

var plotDir = flag.String("plotdir", "", "also write the test plots into this folder, to look at them")

var allPolicies = []string{"hybrid", "model-only", "queue-only", "jsq", "jsq-s", "edge-first", "random", "oracle"}

// sweepSummaries fakes a sweep-load result: latency rising with the rate,
// each policy at its own level, edge-first saturating (unstable) at the two
// highest rates, and wide intervals at high load.
func sweepSummaries() []results.Summary {
	rates := []float64{10, 20, 40, 60, 80, 100, 120, 150, 200}
	var sums []results.Summary
	for pi, pol := range allPolicies {
		for _, r := range rates {
			base := 0.05 * (1 + 0.15*float64(pi))
			mean := base / (1 - r/(230+10*float64(pi)))
			cloud := math.Min(0.9, 0.1+0.004*r*(1+0.1*float64(pi)))
			mean95, utilEdge := 3*mean, r/220 // below capacity, and its interval too
			unstable := pol == "edge-first" && r >= 150
			if unstable {
				utilEdge, mean, mean95 = r/140, 20*mean, 20*mean95
			}
			s := summary(pol, r, map[string]float64{results.ColMeanLatency: mean, results.ColP95Latency: mean95,
				"share_local": 0.1, "share_edge": 0.9 - cloud, "share_cloud": cloud, "util_local": 0.2, "util_edge": utilEdge, "util_cloud": 0.3},
				map[string]float64{results.ColMeanLatency: 0.05 * mean * r / 100, results.ColP95Latency: 0.6 * mean95 * r / 100,
					"share_local": 0.01, "share_edge": 0.02, "share_cloud": 0.01 + cloud/20})
			s.Experiment, s.Param, s.Runs, s.Unstable = "sweep-load", "arrivals.rate", 10, unstable
			sums = append(sums, s)
		}
	}
	return sums
}

func TestPlotMetricPNG(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		file, metric, ylabel string
		logY                 bool
	}{
		{"mean_latency", "mean_latency_s", "mean latency (s)", true},
		{"p95_latency", "p95_latency_s", "P95 latency (s)", false},
		{"share_cloud", "share_cloud", "share of tasks sent to cloud", false},
	}
	for i, c := range cases {
		if testing.Short() && i > 0 {
			// -short (the race detector's pass, where rasterising and
			// compressing a 3 Mpx image under instrumentation takes
			// seconds): the first case stands for the PNG path.
			break
		}
		err := PlotMetric(chart.Dir(dir), c.file, "png", sweepSummaries(), testLegend, c.metric, "sweep-load: "+c.ylabel, "arrival rate λ (tasks/s)", c.ylabel, c.logY)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		checkPNG(t, filepath.Join(dir, c.file+".png"))
	}
	assertNoTemp(t, dir)
}

// checkPNG decodes a rendered plot and checks its size: 7 in wide at 300 dpi,
// taller than the 4.6 in plot by the legend, and that it says 300 dpi.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, format, err := image.Decode(bytes.NewReader(b))
	if err != nil || format != "png" {
		t.Fatalf("%s: not a PNG (format %q): %v", path, format, err)
	}
	if sz := img.Bounds().Size(); sz.X != 2100 || sz.Y <= 1380 || sz.Y > 1800 {
		t.Errorf("%s: %v pixels, want 2100 wide and 1380–1800 high", path, sz)
	}
	if dpi := pngDPI(b); dpi != chart.PNGDPI {
		t.Errorf("%s: its pHYs chunk says %v dpi, want %d", path, dpi, chart.PNGDPI)
	}
	if *plotDir != "" {
		_ = os.WriteFile(filepath.Join(*plotDir, filepath.Base(path)), b, 0o644)
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestPlotMAPEAndFormats(t *testing.T) {
	dir := t.TempDir()
	var sums []results.Summary
	for i, est := range []string{"hybrid", "model", "queue"} {
		for _, r := range []float64{10, 40, 80, 120} {
			s := summary(est, r, map[string]float64{results.ColMAPE: 20 + float64(i)*15 + r/10}, map[string]float64{results.ColMAPE: 2})
			s.Experiment, s.Param, s.Runs = "mape", "arrivals.rate", 5
			sums = append(sums, s)
		}
	}
	for _, f := range []string{"png", "svg", "pdf"} {
		o := chart.FigureOptions{Title: "mape: prediction error of the estimators", XLabel: "arrival rate λ (tasks/s)", YLabel: "MAPE (%)"}
		if err := PlotMetricWith(chart.Dir(dir), "mape", f, sums, testLegend, results.ColMAPE, o); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fi, err := os.Stat(filepath.Join(dir, "mape."+f))
		if err != nil || fi.Size() < 1000 {
			t.Errorf("mape.%s: %v, size %d", f, err, fi.Size())
		}
	}
	checkPNG(t, filepath.Join(dir, "mape.png"))
	if err := PlotMetricWith(chart.Dir(dir), "x", "gif", sums, testLegend, results.ColMAPE, chart.FigureOptions{}); err == nil || !strings.Contains(err.Error(), `unknown plot format "gif"`) {
		t.Errorf("gif: err = %v", err)
	}
	assertNoTemp(t, dir)
}

// Hostile inputs must give a plot or an error, never a panic: zero and
// negative means on a log axis, intervals reaching below zero, NaN and
// infinite values, a single point, no sweep, unknown policy names.
func TestPlotMetricHostileInputs(t *testing.T) {
	nan := math.NaN()
	mk := func(pol string, v, mean, ci float64) results.Summary {
		return summary(pol, v, map[string]float64{results.ColMeanLatency: mean}, map[string]float64{results.ColMeanLatency: ci})
	}
	cases := []struct {
		name    string
		sums    []results.Summary
		noData  bool
		logOnly bool
	}{
		{"zero and negative", []results.Summary{mk("a", 1, 0, 1), mk("a", 2, -1, 1), mk("a", 3, 0.5, 2), mk("b", 1, 1e-9, 1)}, false, false},
		{"interval below zero", []results.Summary{mk("hybrid", 1, 0.1, 0.5), mk("hybrid", 2, 0.2, 0.1)}, false, false},
		{"nan and inf", []results.Summary{mk("jsq", 1, nan, 1), mk("jsq", 2, math.Inf(1), nan), mk("jsq", 3, 1, math.Inf(1))}, false, false},
		{"single point", []results.Summary{mk("jsq", 5, 1, nan)}, false, false},
		{"constant", []results.Summary{mk("jsq", 5, 1, 0), mk("jsq", 6, 1, 0)}, false, false},
		{"no sweep", []results.Summary{mk("jsq", nan, 1, 0)}, true, false},
		{"nothing positive", []results.Summary{mk("jsq", 1, 0, 0), mk("jsq", 2, -3, 1)}, true, true},
		{"empty", nil, true, false},
	}
	dir := t.TempDir()
	for _, c := range cases {
		for _, logY := range []bool{false, true} {
			// SVG: the same drawing as a PNG's, without rasterising 3 Mpx
			// thirty times.
			err := PlotMetric(chart.Dir(dir), "p", "svg", c.sums, testLegend, "mean_latency_s", c.name, "x", "y (s)", logY)
			// A log x axis must not hang or panic on the same inputs (a
			// single x value once made the tick loop run forever).
			if xerr := PlotMetricX(chart.Dir(dir), "px", "svg", c.sums, testLegend, "mean_latency_s", c.name, "x", "y (s)", true, logY); xerr != nil && !errors.Is(xerr, chart.ErrNoData) {
				t.Errorf("%s, log x, logY %v: %v", c.name, logY, xerr)
			}
			wantNoData := c.noData && (logY || !c.logOnly)
			if wantNoData != errors.Is(err, chart.ErrNoData) || (!wantNoData && err != nil) {
				t.Errorf("%s, logY %v: err = %v, want no-data error %v", c.name, logY, err, wantNoData)
			}
			if err == nil && *plotDir != "" {
				b, _ := os.ReadFile(filepath.Join(dir, "p.svg"))
				_ = os.WriteFile(filepath.Join(*plotDir, fmt.Sprintf("hostile-%s-log%v.svg", strings.ReplaceAll(c.name, " ", "_"), logY)), b, 0o644)
			}
		}
	}
	if err := PlotMetric(chart.Dir(dir), "p", "svg", sweepSummaries(), testLegend, "share_moon", "", "", "", false); err == nil {
		t.Error("share_moon, a tier the summaries do not have: no error")
	}
}

// TestLinearTicksNoNegativeZero: an axis starting at 0 labels it "0".
func TestLinearTicksNoNegativeZero(t *testing.T) {
	for _, tk := range (axis.LinearTicks{}).Ticks(-1e-18, 0.6) {
		if strings.HasPrefix(tk.Label, "-0") {
			t.Errorf("label %q at %v", tk.Label, tk.Value)
		}
	}
}

// pngDPI reads the resolution of a PNG's pHYs chunk, in dots per inch
// rounded to an integer; 0 without one (or in another unit).
func pngDPI(b []byte) int {
	for i := 8; i+12 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		if string(b[i+4:i+8]) == "pHYs" && n == 9 && i+17 <= len(b) && b[i+16] == 1 {
			x, y := binary.BigEndian.Uint32(b[i+8:]), binary.BigEndian.Uint32(b[i+12:])
			if x != y {
				return 0
			}
			return int(math.Round(float64(x) * 0.0254))
		}
		i += 12 + n
	}
	return 0
}

// TestPNGSaysItsResolution: a PNG of any size is PNGDPI × its inches wide,
// carries a pHYs chunk that says so, right after IHDR, with a CRC that
// image/png (which checks every chunk's) accepts.
func TestPNGSaysItsResolution(t *testing.T) {
	for _, w := range []vg.Length{3.5 * vg.Inch, 7 * vg.Inch} {
		d := memFolder{}
		o := chart.FigureOptions{Width: w, Height: 2.6 * vg.Inch}
		if err := PlotMetricWith(d, "a", "png", sweepSummaries(), testLegend, results.ColMeanLatency, o); err != nil {
			t.Fatal(err)
		}
		b := d["a.png"]
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatalf("%v in: %v", w/vg.Inch, err)
		}
		if want := int(math.Round(float64(w/vg.Inch) * chart.PNGDPI)); cfg.Width != want || pngDPI(b) != chart.PNGDPI {
			t.Errorf("%v in: %d px at %d dpi, want %d px at %d", w/vg.Inch, cfg.Width, pngDPI(b), want, chart.PNGDPI)
		}
		if string(b[37:41]) != "pHYs" {
			t.Errorf("%v in: the chunk after IHDR is %q, want pHYs", w/vg.Inch, b[37:41])
		}
	}
}
