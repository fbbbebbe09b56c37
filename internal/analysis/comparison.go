package analysis

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/htmlreport"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// ComparisonPlot is the emulation's figure, emulated_vs_simulated.<format>,
// drawn from its comparison into d; "" when no policy has a valid run on
// both sides (nothing to draw).
func ComparisonPlot(d *runner.Folder, format string, plan *experiment.Plan, cs []results.Comparison) (string, error) {
	file := comparisonPlot + "." + format
	switch err := PlotComparison(d, file, format, cs, Legend(plan)); {
	case errors.Is(err, chart.ErrNoData):
		return "", nil
	case err != nil:
		return "", err
	}
	return file, nil
}

// comparisonPlot is the emulation's figure's file stem.
const comparisonPlot = "emulated_vs_simulated"

// ComparisonFigures re-draw the emulation's figure for the HTML report
// from comparison.csv (none without the file).
func ComparisonFigures(c htmlreport.Contents) ([]chart.Figure, error) {
	b, err := fs.ReadFile(c.FS, comparisonCSV)
	if err != nil {
		return nil, nil
	}
	cs, err := readComparison(b)
	if err != nil {
		return nil, err
	}
	legend := c.Legend
	return []chart.Figure{chart.NewFigure(comparisonPlot, "Emulated against simulated latency", ComparisonCaption, chart.FigureOptions{},
		func(dir chart.Folder, file, format string, _ chart.FigureOptions) error {
			return PlotComparison(dir, file, format, cs, legend)
		})}, nil
}

// comparisonCSV is the emulation's comparison of its runs with the
// simulator's.
const comparisonCSV = "comparison.csv"

// readComparison parses comparison.csv by its header (a file from before
// the intervals or invalid_runs were added reads too: a missing column is
// NaN, no bar).
func readComparison(b []byte) ([]results.Comparison, error) {
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err == nil && len(recs) == 0 {
		err = errors.New("empty file")
	}
	for _, n := range []string{"policy", "runs", "emulated_mean_s", "simulated_mean_s", "emulated_p95_s", "simulated_p95_s"} {
		if err == nil && !slices.Contains(recs[0], n) {
			err = fmt.Errorf("no %s column", n)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", comparisonCSV, err)
	}
	var cs []results.Comparison
	for _, r := range recs[1:] {
		f := func(col string) float64 { return parseCell(r, index(recs[0], col)) }
		c := results.Comparison{Policy: r[slices.Index(recs[0], "policy")], EmuMean: f("emulated_mean_s"), SimMean: f("simulated_mean_s"),
			EmuP95: f("emulated_p95_s"), SimP95: f("simulated_p95_s"),
			EmuMeanCI95: f("emulated_mean_s_ci95"), SimMeanCI95: f("simulated_mean_s_ci95"),
			EmuP95CI95: f("emulated_p95_s_ci95"), SimP95CI95: f("simulated_p95_s_ci95")}
		c.Runs, _ = strconv.Atoi(r[slices.Index(recs[0], "runs")])
		cs = append(cs, c)
	}
	return cs, nil
}

// index is col's place in header, or past any record's end (a missing
// column: parseCell reads NaN).
func index(header []string, col string) int {
	if i := slices.Index(header, col); i >= 0 {
		return i
	}
	return math.MaxInt
}

// PlotComparison draws emulated against simulated latency, one point per
// policy, in two panels (mean, P95) with the line emulated = simulated, and
// writes it atomically to dir/file.<format>. Each point has its 95%
// intervals as bars both ways (simulated across, emulated up and down).
// Axes are logarithmic when the latencies span more than a factor of 10 (a
// saturated policy next to stable ones); a bar reaching below the axis is
// cut there.
func PlotComparison(dir chart.Folder, file, format string, cs []results.Comparison, legend chart.Legend) error {
	if !strings.HasSuffix(file, "."+format) {
		file += "." + format
	}
	var entries []chart.LegendEntry
	panels := [2]*plot.Plot{}
	for k, p := range []struct {
		title string
		pick  func(results.Comparison) (sim, simCI, emu, emuCI float64)
	}{
		{"Mean latency (s)", func(c results.Comparison) (float64, float64, float64, float64) {
			return c.SimMean, c.SimMeanCI95, c.EmuMean, c.EmuMeanCI95
		}},
		{"P95 latency (s)", func(c results.Comparison) (float64, float64, float64, float64) {
			return c.SimP95, c.SimP95CI95, c.EmuP95, c.EmuP95CI95
		}},
	} {
		pl := plot.New()
		pl.Title.Text = p.title
		pl.X.Label.Text, pl.Y.Label.Text = "simulated", "emulated"
		var pts []comparisonPoint
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range cs {
			x, xe, y, ye := p.pick(c)
			if !(x > 0) || !(y > 0) || math.IsInf(x, 0) || math.IsInf(y, 0) {
				continue
			}
			xe, ye = nonNegative(xe), nonNegative(ye)
			pts = append(pts, comparisonPoint{c.Policy, x, xe, y, ye})
			lo, hi = math.Min(lo, math.Min(x, y)), math.Max(hi, math.Max(x+xe, y+ye))
			for _, l := range []float64{x - xe, y - ye} {
				if l > 0 {
					lo = math.Min(lo, l)
				}
			}
		}
		if math.IsInf(lo, 1) {
			return fmt.Errorf("plot %s: %w", file, chart.ErrNoData)
		}
		lo, hi = lo/1.25, hi*1.25
		logAxes := hi/lo > 10
		st := legend.Styler()
		for _, pt := range pts {
			sty := st.Style(pt.policy)
			sc, err := pt.add(pl, sty, lo, logAxes)
			if err != nil {
				return err
			}
			if k == 0 {
				entries = append(entries, chart.LegendEntry{Text: pt.policy, Thumbs: []plot.Thumbnailer{sc}})
			}
		}
		diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
		if err != nil {
			return err
		}
		diag.Color, diag.Dashes = color.Gray{Y: 120}, []vg.Length{vg.Points(4), vg.Points(3)}
		pl.Add(diag)
		pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = lo, hi, lo, hi
		if logAxes {
			chart.LogAxis(&pl.X)
			chart.LogAxis(&pl.Y)
		}
		panels[k] = pl
	}
	return dir.WriteFile(filepath.Base(file), func(w io.Writer) error {
		return chart.Render(w, format, entries, "", 0, 0, func(area draw.Canvas) error {
			top := draw.Crop(area, vg.Points(4), -vg.Points(8), 0, -vg.Points(8))
			half := (top.Max.X - top.Min.X) / 2
			chart.DrawPlot(panels[0], draw.Crop(top, 0, -half, 0, 0))
			chart.DrawPlot(panels[1], draw.Crop(top, half, 0, 0, 0))
			return nil
		})
	})
}

// ComparisonCaption is the note of the emulated-against-simulated figure.
const ComparisonCaption = "One point per policy: mean over replicates, with its 95% intervals as bars (simulated across, emulated up and down). " +
	"Dashed: emulated = simulated; above it, the emulation is slower."

// comparisonPoint is one policy in a panel of PlotComparison: simulated x
// and emulated y, each with its 95% half-width.
type comparisonPoint struct {
	policy           string
	x, xErr, y, yErr float64
}

// add draws the point and its bars, the lower ends cut at floor on log
// axes (where a bar cannot reach 0).
func (p comparisonPoint) add(pl *plot.Plot, sty chart.Style, floor float64, logAxes bool) (*plotter.Scatter, error) {
	xy := plotter.XYs{{X: p.x, Y: p.y}}
	xlo, ylo := p.xErr, p.yErr
	if logAxes {
		xlo, ylo = math.Min(xlo, p.x-floor), math.Min(ylo, p.y-floor)
	}
	if p.xErr > 0 {
		xb, err := plotter.NewXErrorBars(struct {
			plotter.XYs
			plotter.XErrors
		}{xy, plotter.XErrors{{Low: xlo, High: p.xErr}}})
		if err != nil {
			return nil, err
		}
		xb.Color, xb.Width, xb.CapWidth = sty.Color, vg.Points(1), vg.Points(4)
		pl.Add(xb)
	}
	if p.yErr > 0 {
		yb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{xy, plotter.YErrors{{Low: ylo, High: p.yErr}}})
		if err != nil {
			return nil, err
		}
		yb.Color, yb.Width, yb.CapWidth = sty.Color, vg.Points(1), vg.Points(4)
		pl.Add(yb)
	}
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: sty.Color, Radius: vg.Points(4), Shape: sty.Shape}
	pl.Add(sc)
	return sc, nil
}

// nonNegative is x, or 0 when it is missing or negative (no bar).
func nonNegative(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 0
	}
	return x
}
