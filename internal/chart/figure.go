package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/canvas"
	"github.com/offload-sim/offload/internal/results"
)

// Figure geometry. 7 × 4.6 in fits a page column or a README; PNGs are
// rendered at 300 dpi (2100 px wide by default), the resolution journals
// ask of line art set at its printed size, and say so in a pHYs chunk.
const (
	figWidth  = 7 * vg.Inch
	plotH     = 4.6 * vg.Inch
	legendCol = 4 // legend columns under the plot
)

// PNGDPI is the resolution of every PNG figure: its pixel width is PNGDPI
// × its width in inches.
const PNGDPI = 300

// Formats lists the plot formats accepted by the plot functions.
var Formats = canvas.Formats

// FigureOptions are how a figure is presented, beyond its data. The zero
// value is a figure of the default size with no title, labels or caption.
type FigureOptions struct {
	Title, XLabel, YLabel string
	LogY                  bool
	// Caption draws the figure's note (what lines, bars and rings mean)
	// under the legend, inside the image. It is opt-in: where the figure
	// sits in a page (the HTML report, a paper) the caption belongs in the
	// text around it, where it can be read, searched and translated.
	Caption bool
	// LogX puts x on a log scale (a sweep over orders of magnitude, such
	// as an observation period or a server count); points at x ≤ 0 are
	// left out.
	LogX bool
	// FitY fits a linear Y axis to the data (and its bars) instead of
	// starting it at zero: for a figure whose point is differences of a few
	// percent between lines, such as the *_stable ones.
	FitY bool
	// Width and Height are the whole image's size; 0 keeps the default
	// (7 in wide; a 4.6 in plot plus the legend under it).
	Width, Height vg.Length
	// SetApart draws the points SetApart picks (near a tier's capacity and
	// far above the rest of their cell) at the top of an axis fitted to
	// the others, each with its value written beside it, so that they
	// neither stretch the axis nor vanish.
	SetApart bool
}

// MinFigureSize is the smallest Width or Height FigureOptions accepts:
// below it the axes' labels leave no room for the data.
const MinFigureSize = 2 * vg.Inch

// figure is everything a plot shows, gathered before any drawing.
type figure struct {
	FigureOptions
	Fraction bool // a share: the Y axis shows all of [0, 1]
	Legend   Legend
	Series   []series
	// XTicks are the swept values: labelled ticks go exactly there (when
	// they fit), so that a reader sees which values were run. XLabels, if
	// set, names the ticks instead (a categorical axis: one tick per name at
	// 0, 1, 2, …).
	XTicks  []float64
	XLabels []string
	// Extra are legend entries after the series'.
	Extra []LegendItem
	// Zero draws the line y = 0 (a difference plot: which side of it a
	// point's interval lies on is the finding).
	Zero bool
	// Time series: shaded X intervals (bursts), a marker only every MarkEvery
	// points, no sideways offset, and a note of their own.
	Shade     []results.Interval
	ShadeName string // the shade's legend entry; "" is "burst"
	MarkEvery int
	Note      string
	// Band draws each series' interval as a faint band in its colour
	// rather than as bars (a time series, whose points are too close for
	// bars).
	Band bool
	// SymY, if > 0, puts Y on a symmetric log scale linear within ±SymY
	// (a difference plot whose differences span orders of magnitude).
	SymY float64
	// share is the part of the image's width the plot takes, 0 for all:
	// a panel's labelled ticks need as much more room.
	share float64
}

// legendArea is the strip under the plot that holds the legend.
func legendArea(dc draw.Canvas, legendH vg.Length) draw.Canvas {
	h := dc.Max.Y - dc.Min.Y
	return draw.Crop(dc, vg.Points(12), -vg.Points(12), vg.Points(4), -(h - legendH + vg.Points(4)))
}

// whiteCanvas is a figure's canvas: the plot area on top and room under it
// for the legend's entries (in legendColumns) and captionLines lines of
// caption, on a white background. w and h are the image's size, 0 for the
// default (figWidth; plotH plus the legend).
func whiteCanvas(format string, entries []LegendEntry, captionLines int, w, h vg.Length) (vg.CanvasWriterTo, draw.Canvas, vg.Length, error) {
	if w == 0 {
		w = figWidth
	}
	s := textScale(w)
	rows := legendRows(legendGrid(entries, w))
	legendH := vg.Length(rows)*pt(15, s) + pt(12, s)
	if captionLines > 0 {
		legendH += pt(14, s) + vg.Length(captionLines-1)*pt(11, s)
	}
	if h == 0 {
		h = plotH + legendH
	}
	if w < MinFigureSize || h < MinFigureSize || h-legendH < MinFigureSize/2 {
		return nil, draw.Canvas{}, 0, fmt.Errorf("figure size %.3g × %.3g in: too small for the plot and its legend of %d entries (at least %.3g in each way)",
			float64(w/vg.Inch), float64(h/vg.Inch), len(entries), float64(MinFigureSize/vg.Inch))
	}
	c, err := canvas.New(format, w, h, PNGDPI)
	if err != nil {
		return nil, draw.Canvas{}, 0, err
	}
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	return c, dc, legendH, nil
}

// LegendEntry is one policy (or the unstable marker) in the legend.
type LegendEntry struct {
	Text   string
	Thumbs []plot.Thumbnailer
}

// plot builds the gonum plot and the legend entries for the series.
func (f figure) plot() (*plot.Plot, []LegendEntry, error) {
	sc := textScale(f.Width)
	p := f.newPlot(sc)
	ss, xm, symX, err := f.xSeries()
	if err != nil {
		return nil, nil, err
	}
	floor := 0.0
	if f.LogY {
		floor = logFloor(ss, !f.Band)
		if f.Band { // a band's edge is drawn: it stops at the axis
			clampLow(ss, floor)
		} else { // a bar runs off the axis, without its cap
			clampLow(ss, floor/2)
		}
	}
	ss, farLabels, err := f.setApart(ss, sc)
	if err != nil {
		return nil, nil, err
	}
	ss, entries, err := f.addAll(p, ss, xm, farLabels, sc)
	if err != nil {
		return nil, nil, err
	}
	f.setX(p, ss, xm, symX)
	f.setY(p, floor)
	return p, entries, nil
}

// newPlot is an empty plot with the figure's title, axis labels and grid.
func (f figure) newPlot(sc float64) *plot.Plot {
	p := plot.New()
	p.Title.Text = f.Title
	p.Title.TextStyle.Font.Size = pt(13, sc)
	p.X.Label.Text, p.Y.Label.Text = f.XLabel, f.YLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = pt(12, sc)
		a.Tick.Label.Font.Size = pt(10, sc)
		a.Tick.Marker = axis.LinearTicks{}
	}
	if t := f.xTicks(); t != nil {
		p.X.Tick.Marker = t
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{Y: 225}, color.Gray{Y: 225}
	p.Add(grid)

	return p
}

// addAll adds the series (and the bursts' shading, the zero line, the
// set-apart labels) to p and returns the series as drawn and the legend.
func (f figure) addAll(p *plot.Plot, ss []series, xm axisMap, farLabels *plotter.Labels, sc float64) ([]series, []LegendEntry, error) {
	var entries []LegendEntry
	st := Styler{legend: f.Legend}
	anyUnstable := false
	if len(f.Shade) > 0 {
		addShade(p, f.Shade)
		name := f.ShadeName
		if name == "" {
			name = burstLegend
		}
		entries = append(entries, LegendEntry{name, []plot.Thumbnailer{shadeThumb()}})
	}
	if f.MarkEvery == 0 && len(f.XLabels) == 0 {
		ss = dodge(ss, xm)
	}
	if f.Zero {
		zero := plotter.NewFunction(func(float64) float64 { return 0 })
		zero.Color, zero.Width, zero.Dashes = color.Gray{Y: 60}, vg.Points(1), []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(zero)
	}
	// Lines, bars and bands first, markers over them all: a line drawn
	// later never covers another policy's marker, so a line that runs
	// under others still shows its markers. A time series marks every
	// k-th point, each series at its own phase, so that no two markers
	// share a window where lines coincide.
	var marks []plot.Plotter
	every := f.MarkEvery
	if every > 1 {
		every = max(every, len(ss))
	}
	for i, s := range ss {
		e, m, err := addSeries(p, s, st.Style(s.Name), every, i, f.Band, sc)
		if err != nil {
			return nil, nil, fmt.Errorf("policy %s: %w", s.Name, err)
		}
		entries, marks = append(entries, e), append(marks, m...)
		for _, u := range s.Unstable {
			anyUnstable = anyUnstable || u
		}
	}
	p.Add(marks...)
	if farLabels != nil {
		p.Add(farLabels)
	}
	for _, e := range f.Extra {
		entries = append(entries, e.entry())
	}
	if anyUnstable {
		ring, _ := plotter.NewScatter(plotter.XYs{})
		ring.GlyphStyle = unstableRing
		ring.GlyphStyle.Radius = pt(7, sc)
		entries = append(entries, LegendEntry{"unstable (a tier's load > 1)", []plot.Thumbnailer{ring}})
	}
	return ss, entries, nil
}

// setX sets the x axis: log (or symlog) with a margin, or columns.
func (f figure) setX(p *plot.Plot, ss []series, xm axisMap, symX float64) {
	if f.LogX {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range ss {
			for _, xy := range s.XYs {
				lo, hi = math.Min(lo, xy.X), math.Max(hi, xy.X)
			}
		}
		// A margin of a tenth of a decade each side (1.25×); one value
		// gets a decade around it rather than a zero-width axis.
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, axis.LogTicks{}
		xs := positive(f.XTicks)
		if symX > 0 {
			sl := axis.SymLog{C: symX}
			p.X.Scale, p.X.Tick.Marker = sl, sl
			xs = atLeastZero(f.XTicks)
		}
		if t := sweptTicksOn(xs, xm.fwd, f.tickGap()); t != nil {
			p.X.Tick.Marker = t
		}
		p.X.Min, p.X.Max = xm.inv(xm.fwd(lo)-math.Log10(1.25)), xm.inv(xm.fwd(hi)+math.Log10(1.25))
	} else if n := len(f.XLabels); n > 0 {
		// Half a column of room on each side: the first and last points
		// stay off the frame.
		p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	}
}

// setY sets the y axis: log from floor, symlog, or linear from zero.
func (f figure) setY(p *plot.Plot, floor float64) {
	// Headroom above the highest bar keeps its marker off the frame.
	switch {
	case f.LogY:
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, axis.LogTicks{MinorDecades: f.minorDecades()}
		p.Y.Min, p.Y.Max = floor, math.Max(1.2*p.Y.Max, 2*floor)
	case f.SymY > 0:
		// 4% of the axis's length beyond the data at each end, counted
		// in the scale's linear units.
		sl := axis.SymLog{C: f.SymY}
		p.Y.Scale, p.Y.Tick.Marker = sl, sl
		lo, hi := sl.F(math.Min(p.Y.Min, 0)), sl.F(math.Max(p.Y.Max, 0))
		pad := 0.04 * (hi - lo)
		p.Y.Min, p.Y.Max = sl.Inv(lo-pad), sl.Inv(hi+pad)
	default:
		// A linear axis starts at zero (or below, for negative data) so that
		// heights compare as ratios.
		if f.FitY {
			pad := 0.06 * (p.Y.Max - p.Y.Min)
			if pad == 0 {
				pad = 0.1 * math.Max(math.Abs(p.Y.Max), 1e-9)
			}
			p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
		} else {
			p.Y.Min = math.Min(p.Y.Min, 0)
		}
		if f.Zero {
			p.Y.Max = math.Max(p.Y.Max, 0)
		}
		if f.Fraction {
			p.Y.Max = math.Max(p.Y.Max, 1)
		}
		p.Y.Max += 0.04 * (p.Y.Max - p.Y.Min)
	}
}

// minorDecades is how many decades the Y axis may span and keep its
// minor ticks: 5 on the default 4.6 in plot, fewer on a shorter one
// (about one decade per 0.9 in), where they would blur into a bar.
func (f figure) minorDecades() float64 {
	if f.Height <= 0 || f.Height >= plotH+vg.Inch {
		return 5
	}
	return 5 * float64(f.Height/(plotH+vg.Inch))
}

// xSeries is the series as the X axis can show them, with the axis's map
// and, on a log axis that must show x = 0 too (an observation period of 0,
// the fresh view), the linear half-width of the symlog scale that does:
// the smallest positive x, so that 0 sits one decade's length left of it.
// Without a zero, a log axis shows positive x only.
func (f figure) xSeries() (ss []series, xm axisMap, symX float64, err error) {
	ss, xm = f.Series, linearMap
	if !f.LogX {
		return ss, xm, 0, nil
	}
	lo, zero := math.Inf(1), false
	for _, s := range ss {
		for _, xy := range s.XYs {
			if xy.X > 0 {
				lo = math.Min(lo, xy.X)
			}
			zero = zero || xy.X == 0
		}
	}
	if zero && !math.IsInf(lo, 1) {
		sl := axis.SymLog{C: lo}
		return keepX(ss, func(x float64) bool { return x >= 0 }), axisMap{sl.F, sl.Inv}, lo, nil
	}
	ss = positiveX(ss)
	if len(ss) == 0 {
		return nil, xm, 0, fmt.Errorf("%w: no positive x for a log axis", ErrNoData)
	}
	return ss, log10Map, 0, nil
}

// xTicks is the X axis's ticker when the figure fixes its ticks: one per
// category, or labelled ticks at the swept values when there are few enough
// and none crowds its neighbour (gaps of at least 4% of the range: about
// 0.25 in on a 7 in figure, room for a label of three digits). nil keeps
// the automatic round values, which suit a long or dense sweep better.
func (f figure) xTicks() plot.Ticker {
	if len(f.XLabels) > 0 {
		ticks := make([]plot.Tick, len(f.XLabels))
		for i, l := range f.XLabels {
			ticks[i] = plot.Tick{Value: float64(i), Label: l}
		}
		return plot.ConstantTicks(ticks)
	}
	if f.LogX {
		return nil // set with the log scale
	}
	return SweptTicks(f.XTicks, false, f.tickGap())
}

// tickGap is the least gap between labelled swept values, as a share of
// the axis: 4% on the default 7 in figure (about 0.25 in, room for three
// digits), more on a narrower one, whose labels shrink less than its axis.
func (f figure) tickGap() float64 {
	gap := 0.04
	if f.Width > 0 && f.Width < figWidth {
		gap *= textScale(f.Width) * float64(figWidth/f.Width)
	}
	if f.share > 0 && f.share < 1 { // a panel's axis is as much shorter
		gap /= f.share
	}
	return gap
}

// SweptTicks labels the sorted swept values xs when there are 2 to 15 and
// none crowds its neighbour on the axis (linear, or log when logX), else
// nil. A neighbour crowds when closer than minGap of the axis's span (4%
// on a full-width figure: about 0.25 in, room for three digits).
func SweptTicks(xs []float64, logX bool, minGap float64) plot.Ticker {
	if logX {
		return sweptTicksOn(xs, math.Log10, minGap)
	}
	return sweptTicksOn(xs, linearMap.fwd, minGap)
}

// sweptTicksOn is sweptTicks on an axis that is linear in pos(x).
func sweptTicksOn(xs []float64, pos func(float64) float64, minGap float64) plot.Ticker {
	if len(xs) < 2 || len(xs) > 15 {
		return nil
	}
	span := pos(xs[len(xs)-1]) - pos(xs[0])
	for i := 1; i < len(xs); i++ {
		if pos(xs[i])-pos(xs[i-1]) < minGap*span {
			return nil
		}
	}
	ticks := make([]plot.Tick, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', 4, 64)}
	}
	return plot.ConstantTicks(ticks)
}

// atLeastZero keeps the values at or above zero.
func atLeastZero(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if x >= 0 {
			out = append(out, x)
		}
	}
	return out
}

// positive keeps the values above zero (the ones a log axis can show).
func positive(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}

// addSeries adds a policy's line and error bars (or band) to p and returns
// its legend entry and its markers and unstable rings, which the caller
// adds once every line is drawn. With markEvery > 1 only every
// markEvery-th point has a marker, starting at phase mod markEvery.
func addSeries(p *plot.Plot, s series, sty Style, markEvery, phase int, band bool, sc float64) (LegendEntry, []plot.Plotter, error) {
	line, points, err := plotter.NewLinePoints(s.XYs)
	if err != nil {
		return LegendEntry{}, nil, err
	}
	if markEvery > 1 {
		points.XYs = marked(s.XYs, markEvery, phase)
	}
	line.Color, line.Width, line.Dashes = sty.Color, vg.Points(1.5), sty.Dash
	points.GlyphStyle = draw.GlyphStyle{Color: sty.Color, Radius: pt(3.5, sc), Shape: sty.Shape}

	var barXY plotter.XYs
	var barErr plotter.YErrors
	var ringXY plotter.XYs
	for i, xy := range s.XYs {
		if (s.Err[i].Low > 0 || s.Err[i].High > 0) && !s.far(i) {
			barXY, barErr = append(barXY, xy), append(barErr, s.Err[i])
		}
		if s.Unstable[i] {
			ringXY = append(ringXY, xy)
		}
	}
	if band && len(barXY) > 0 {
		poly := make(plotter.XYs, 0, 2*len(s.XYs))
		for i, xy := range s.XYs {
			poly = append(poly, plotter.XY{X: xy.X, Y: xy.Y - s.Err[i].Low})
		}
		for i := len(s.XYs) - 1; i >= 0; i-- {
			poly = append(poly, plotter.XY{X: s.XYs[i].X, Y: s.XYs[i].Y + s.Err[i].High})
		}
		fill, err := plotter.NewPolygon(poly)
		if err != nil {
			return LegendEntry{}, nil, err
		}
		fill.Color, fill.LineStyle.Width = bandFill(sty.Color), 0
		p.Add(fill)
	} else if len(barXY) > 0 {
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{barXY, barErr})
		if err != nil {
			return LegendEntry{}, nil, err
		}
		bars.Color, bars.Width, bars.CapWidth = sty.Color, vg.Points(1), pt(5, sc)
		p.Add(bars)
	}
	p.Add(line)
	marks := []plot.Plotter{points}
	if len(ringXY) > 0 {
		rings, err := plotter.NewScatter(ringXY)
		if err != nil {
			return LegendEntry{}, nil, err
		}
		rings.GlyphStyle = unstableRing
		rings.GlyphStyle.Radius = pt(7, sc)
		marks = append(marks, rings)
	}
	return LegendEntry{s.Name, []plot.Thumbnailer{line, points}}, marks, nil
}

// marked are the points of xys that carry a marker when only every
// every-th does: those at indices phase mod every, phase + every, …, so
// that series given the phases 0 … every−1 never mark the same point.
func marked(xys plotter.XYs, every, phase int) plotter.XYs {
	var out plotter.XYs
	for i := phase % every; i < len(xys); i += every {
		out = append(out, xys[i])
	}
	return out
}

// drawLegend lays the entries out in legendColumns columns, row by row,
// with the note underneath. c is the legend strip (legendArea), whose
// width and margins give the image's width.
func drawLegend(c draw.Canvas, entries []LegendEntry, note string) {
	w := c.Max.X - c.Min.X + 2*vg.Points(captionMargin)
	s := textScale(w)
	cols, slots := legendGrid(entries, w)
	rows := legendRows(cols, slots)
	colW := (c.Max.X - c.Min.X) / vg.Length(cols)
	for col := range cols {
		l := plot.NewLegend()
		l.TextStyle = legendStyle(s)
		l.Top, l.Left, l.Padding = true, true, pt(3, s)
		l.ThumbnailWidth = legendThumb(s)
		for r := range rows {
			// An empty slot is a blank entry, which keeps the rows of
			// every column level.
			i := slices.Index(slots, r*cols+col)
			if i < 0 {
				l.Add("")
				continue
			}
			l.Add(entries[i].Text, entries[i].Thumbs...)
		}
		cc := c
		cc.Min.X = c.Min.X + vg.Length(col)*colW
		cc.Max.X = cc.Min.X + colW
		l.Draw(cc)
	}
	if note == "" {
		return
	}
	c.FillText(captionStyle(s), vg.Point{X: c.Min.X, Y: c.Min.Y + pt(2, s)}, note)
}

// burstLegend is the legend entry of the shaded bursts.
const burstLegend = "burst"

// renderWith draws the figure into w: the plot on top and, under it, the
// legend in columns and the caption when asked (the legend lives outside
// the data area, so it can never cover a point); extra layers, if any,
// are added to the plot before it is drawn (a Chart's horizontal bars and
// tags).
func (f figure) renderWith(w io.Writer, format string, extra func(*plot.Plot) error) error {
	p, entries, err := f.plot()
	if err != nil {
		return err
	}
	if extra != nil {
		if err := extra(p); err != nil {
			return err
		}
	}
	note := ""
	if f.Caption {
		note = f.Note
	}
	return Render(w, format, entries, note, f.Width, f.Height, func(area draw.Canvas) error {
		// Margins keep the title and the markers at the last swept value
		// inside the image; gonum pads only for what lies inside the data
		// area.
		DrawPlot(p, draw.Crop(area, vg.Points(4), -vg.Points(14), 0, -vg.Points(8)))
		return nil
	})
}

// Render draws a figure of its caller's layout into w as format: a white
// image of width × height (0: the default width; the default plot height
// plus the legend), the legend's entries in columns in a strip at the
// bottom, and under them the caption, wrapped to the width ("": none).
// fill draws the plots into the area above the strip.
func Render(w io.Writer, format string, entries []LegendEntry, caption string, width, height vg.Length, fill func(area draw.Canvas) error) error {
	var lines []string
	if caption != "" {
		cw := width
		if cw == 0 {
			cw = figWidth
		}
		lines = wrapCaption(caption, captionStyle(textScale(cw)), cw-2*vg.Points(captionMargin))
	}
	c, dc, legendH, err := whiteCanvas(format, entries, len(lines), width, height)
	if err != nil {
		return err
	}
	if err := fill(draw.Crop(dc, 0, 0, legendH, 0)); err != nil {
		return err
	}
	drawLegend(legendArea(dc, legendH), entries, strings.Join(lines, "\n"))
	_, err = c.WriteTo(w)
	return err
}

// bandFill is the fill of a series' interval band: its colour, faint.
func bandFill(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x38}
}
