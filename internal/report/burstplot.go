package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/results"
)

// PolicyRuns is one policy's time series in each replicate of one cell
// (the burst experiment's series_runs.csv). Unstable says the policy is
// unstable at the base load (summary.csv's unstable): its latency has no
// level to come back to, so the burst figures draw it in a panel of its
// own rather than let it stretch the axis of the others.
type PolicyRuns struct {
	Policy   string
	Unstable bool
	Runs     [][]results.Window // per replicate, windows in time order
}

// BurstFigures lists the burst experiment's figures: windowed mean and P95
// latency and the share of tasks sent to the cloud (tier index cloud, −1:
// none), each zoomed on one burst period — from BaselineSpan before the
// middle burst (the level it is measured against) to the next burst's
// start (or end, the end of arrivals) — with the mean over replicates and
// its 95% interval as a band, and the policies unstable at the base load
// in a separate panel. width is the windows' width, s.
func BurstFigures(runs []PolicyRuns, legend Legend, bursts []results.Interval, end, width float64, cloud int) []SweepFigure {
	if len(bursts) == 0 || len(runs) == 0 {
		return nil
	}
	k := len(bursts) / 2
	b := bursts[k]
	to := end
	if k+1 < len(bursts) {
		to = bursts[k+1].Start
	}
	from := math.Max(b.Start-results.BaselineSpan, 0)
	which := fmt.Sprintf("burst %d of %d", k+1, len(bursts))
	caption := fmt.Sprintf("Zoomed on %s: from %g s before it (the baseline of bursts.csv) to the next burst's start, time counted from the burst's start (shaded: the burst). "+
		"Lines: mean over replicates of each %g s window; band: its 95%% Student-t interval. ", which, b.Start-from, width)
	unstable := 0
	for _, r := range runs {
		if r.Unstable {
			unstable++
		}
	}
	if unstable > 0 {
		caption += "Right: the policies unstable at the base load (a tier's offered load shown above 1), on an axis of their own: their latency grows through the run."
	}
	z := zoom{runs: runs, legend: legend, span: b, from: from, to: to, width: width, which: which, caption: caption, xlabel: "time since the burst began (s)"}
	figs := []SweepFigure{
		z.fig("burst_latency", "Windowed mean latency", "mean latency (s)", func(w results.Window) float64 { return w.MeanLatency }, true, false),
		z.fig("burst_p95", "Windowed P95 latency", "P95 latency (s)", func(w results.Window) float64 { return w.P95Latency }, true, false),
	}
	if cloud >= 0 {
		figs = append(figs, z.fig("burst_cloud_share", "Share of tasks sent to the cloud", "cloud share",
			func(w results.Window) float64 { return shareAt(w.Share, cloud) }, false, true))
	}
	return figs
}

// EpisodeFigures are the failures experiment's figures: windowed mean
// and P95 latency of every policy from BaselineSpan before span (a tier's
// episode, which names, e.g. "the slow-down of slow") to end, time
// counted from its start, span shaded; files prefix_latency, prefix_p95.
func EpisodeFigures(runs []PolicyRuns, legend Legend, span results.Interval, name string, end, width float64, prefix string) []SweepFigure {
	if len(runs) == 0 {
		return nil
	}
	from := math.Max(span.Start-results.BaselineSpan, 0)
	caption := fmt.Sprintf("From %g s before %s to the end of arrivals, time counted from its start (shaded). "+
		"Lines: mean over replicates of each %g s window of the completed tasks' latency; band: its 95%% Student-t interval. "+
		"Random slow-downs and failures differ between replicates (alike across policies), so the series spread their effect.",
		span.Start-from, name, width)
	z := zoom{runs: runs, legend: legend, span: span, from: from, to: end, width: width, which: name, caption: caption,
		xlabel: "time since the episode began (s)", shade: "episode"}
	return []SweepFigure{
		z.fig(prefix+"_latency", "Windowed mean latency", "mean latency (s)", func(w results.Window) float64 { return w.MeanLatency }, true, false),
		z.fig(prefix+"_p95", "Windowed P95 latency", "P95 latency (s)", func(w results.Window) float64 { return w.P95Latency }, true, false),
	}
}

// zoom is a time-series figure's window on one shaded span.
type zoom struct {
	runs                   []PolicyRuns
	legend                 Legend
	span                   results.Interval
	from, to, width        float64
	which, caption, xlabel string
	shade                  string // the shade's legend entry; "" is "burst"
}

func (z zoom) fig(file, title, ylabel string, y func(results.Window) float64, logY, frac bool) SweepFigure {
	lines := burstLines(z.runs, z.span.Start, z.from, z.to, z.width, y)
	return SweepFigure{File: file, Title: title + " through " + z.which, Caption: strings.TrimSpace(z.caption),
		opts: FigureOptions{XLabel: z.xlabel, YLabel: ylabel, LogY: logY},
		draw: func(dir Folder, file, format string, o FigureOptions) error {
			return plotBurst(dir, file, format, lines, z.legend, z.span.End-z.span.Start, o, frac, z.shade)
		}}
}

// burstLine is one policy's mean and 95% half-width per window of the zoom.
type burstLine struct {
	series
	unstable bool
}

// burstLines averages each policy's replicates window by window over the
// windows lying wholly in [from, to), x measured from start.
func burstLines(runs []PolicyRuns, start, from, to, width float64, y func(results.Window) float64) []burstLine {
	var out []burstLine
	for _, pr := range runs {
		l := burstLine{series: series{Name: pr.Policy}, unstable: pr.Unstable}
		if len(pr.Runs) == 0 {
			continue
		}
		n := len(pr.Runs[0])
		for _, r := range pr.Runs {
			n = min(n, len(r))
		}
		vals := make([]float64, len(pr.Runs))
		for i := range n {
			w0 := pr.Runs[0][i].Start
			if w0 < from-1e-9*width || w0+width > to+1e-9*width {
				continue
			}
			for r, run := range pr.Runs {
				vals[r] = y(run[i])
			}
			m, ci, k := results.MeanCI95(vals)
			if k == 0 {
				continue
			}
			if !isFinite(ci) {
				ci = 0
			}
			l.XYs = append(l.XYs, plotter.XY{X: w0 + width/2 - start, Y: m})
			l.Err = append(l.Err, struct{ Low, High float64 }{ci, ci})
			l.Unstable = append(l.Unstable, false)
		}
		if len(l.XYs) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// burstBand is the fill of a policy's interval band: its colour, faint.
func burstBand(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x38}
}

// plotBurst draws the zoomed burst figure: the stable policies' panel and,
// when some are unstable, theirs beside it, with one legend under both.
func plotBurst(dir Folder, file, format string, lines []burstLine, legend Legend, length float64, o FigureOptions, frac bool, shadeName string) error {
	if !strings.HasSuffix(file, "."+format) {
		file += "." + format
	}
	var stable, unstable []series
	for _, l := range lines {
		if l.unstable {
			unstable = append(unstable, l.series)
		} else {
			stable = append(stable, l.series)
		}
	}
	if len(stable) == 0 && len(unstable) == 0 {
		return fmt.Errorf("plot %s: %w", file, ErrNoData)
	}
	shade := []results.Interval{{Start: 0, End: length}}
	panel := func(ss []series, title string) (*plot.Plot, []legendEntry, error) {
		f := figure{FigureOptions: FigureOptions{Title: title, XLabel: o.XLabel, YLabel: o.YLabel, LogY: o.LogY}, Fraction: frac, Legend: legend,
			Series: ss, Shade: shade, ShadeName: shadeName, MarkEvery: 3, Band: true}
		return f.plot()
	}
	var plots []*plot.Plot
	var entries []legendEntry
	for i, g := range [][]series{stable, unstable} {
		if len(g) == 0 {
			continue
		}
		title := ""
		if i == 1 {
			title = "unstable at the base load"
		}
		p, e, err := panel(g, title)
		if err != nil {
			return err
		}
		p.Title.TextStyle.Font.Size = vg.Points(11)
		if len(plots) > 0 {
			e = e[1:] // the burst's shade is in the legend once
		}
		plots, entries = append(plots, p), append(entries, e...)
	}
	entries = append(entries, legendEntry{"band: 95% interval", []plot.Thumbnailer{fillThumb(color.Gray{Y: 200})}})
	return dir.WriteFile(filepath.Base(file), func(w io.Writer) error {
		c, dc, legendH, err := whiteCanvas(format, entries, 0, o.Width, o.Height)
		if err != nil {
			return err
		}
		top := draw.Crop(dc, vg.Points(4), -vg.Points(14), legendH, -vg.Points(8))
		if o.Title != "" {
			sty := plot.New().Title.TextStyle
			sty.Font.Size = vg.Points(13)
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			top.FillText(sty, vg.Point{X: (top.Min.X + top.Max.X) / 2, Y: top.Max.Y}, o.Title)
			top = draw.Crop(top, 0, 0, 0, -vg.Points(22))
		}
		if len(plots) == 1 {
			drawPlot(plots[0], top)
		} else { // the unstable panel takes a third of the width
			split := top.Min.X + (top.Max.X-top.Min.X)*2/3
			drawPlot(plots[0], draw.Crop(top, 0, split-top.Max.X, 0, 0))
			drawPlot(plots[1], draw.Crop(top, split-top.Min.X+vg.Points(10), 0, 0, 0))
		}
		drawLegend(legendArea(dc, legendH), entries, "")
		_, err = c.WriteTo(w)
		return err
	})
}

// shareAt is xs[i], or NaN past its end (a window without that tier).
func shareAt(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}
