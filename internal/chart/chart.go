package chart

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/results"
)

// The drawing surface of every figure: Chart is one plot (a metric against
// the swept value, a burst's time series, the energy front, paired
// differences) and Panels several side by side under one title. Both draw as the sweep figures do: each policy entry in
// its colour and marker (from the Legend), axes from internal/axis, the
// legend in a strip under the plots where it cannot cover a line, the file
// through internal/canvas, written atomically into a Folder.

// Point is one point of a Series.
type Point struct {
	X, Y float64
	// Low and High are the half-widths of its interval below and above Y
	// (a 95% interval): 0 and 0 draw no bar.
	Low, High float64
	// XErr is a horizontal half-width, drawn as a bar across in the
	// series' colour (0: none).
	XErr float64
	// Unstable rings the point (a tier's offered load shown above 1).
	Unstable bool
	// Tag is written just above and right of the point ("": none).
	Tag string
	// Apart, with FigureOptions.SetApart, draws the point at the top of
	// an axis fitted to the others, its value written beside it.
	Apart bool
}

// Series is one line: a policy entry's label, whose colour and marker it
// takes from the chart's Legend, and its points in the order they are
// joined.
type Series struct {
	Label  string
	Points []Point
}

// Chart is one plot of series, drawn in the order given (the caller sorts
// them, e.g. in the legend's order).
type Chart struct {
	// FigureOptions are the title (drawn in the plot), labels, axes' scales,
	// size, and whether the caption (Note) is drawn under the legend.
	FigureOptions
	Legend Legend
	Series []Series
	// Fraction: a share, whose Y axis shows all of [0, 1].
	Fraction bool
	// Dodge offsets the series sideways by a little, so that intervals at
	// one x do not hide one another (a sweep); every point is marked.
	Dodge bool
	// MarkEvery > 1 marks only every k-th point of a line (a time series,
	// whose markers would otherwise merge), each series at its own phase;
	// k is raised to the number of series so that no two series mark the
	// same window. Ignored with Dodge.
	MarkEvery int
	// Band draws the intervals as faint bands in the series' colour rather
	// than as bars (points too close for bars).
	Band bool
	// Shade fills these X intervals over the whole height (bursts,
	// episodes), with the legend entry ShadeName ("" is "burst").
	Shade     []results.Interval
	ShadeName string
	// XTicks are values (the swept ones) at which X is labelled when they
	// fit; nil: round values.
	XTicks []float64
	// XLabels, if set, name the X axis's ticks instead: a categorical axis,
	// one tick per name at x = 0, 1, 2, … (no dodging).
	XLabels []string
	// Zero draws the line y = 0 (a difference: which side of it an
	// interval lies on is the finding).
	Zero bool
	// SymY, if > 0, puts Y on a symmetric log scale linear within ±SymY
	// (differences that span orders of magnitude).
	SymY float64
	// Extra are legend entries after the series'.
	Extra []LegendItem
	// Note is the caption drawn with Caption ("": none).
	Note string
}

// LegendItem is a legend entry of its own, after the series': a text and,
// unless Fill is nil, a swatch of that fill.
type LegendItem struct {
	Text string
	Fill color.Color
}

// entry is the item as the legend draws it.
func (e LegendItem) entry() LegendEntry {
	var thumbs []plot.Thumbnailer
	if e.Fill != nil {
		thumbs = append(thumbs, FillThumb(e.Fill))
	}
	return LegendEntry{e.Text, thumbs}
}

// Save draws the chart and writes it atomically to dir/file.<format>
// (png, svg or pdf). It returns an error wrapping ErrNoData when no series
// has a point.
func (c Chart) Save(dir Folder, file, format string) error {
	f := c.figure()
	extra := c.layers()
	if !strings.HasSuffix(file, "."+format) {
		file += "." + format
	}
	if len(f.Series) == 0 {
		return fmt.Errorf("plot %s: %w", file, ErrNoData)
	}
	return dir.WriteFile(filepath.Base(file), func(w io.Writer) error {
		return f.renderWith(w, format, extra)
	})
}

// figure is the chart as the plot functions draw it; series without a
// point are left out.
func (c Chart) figure() figure {
	f := figure{FigureOptions: c.FigureOptions, Fraction: c.Fraction, Legend: c.Legend, XTicks: c.XTicks, XLabels: c.XLabels,
		Zero: c.Zero, SymY: c.SymY, Extra: c.Extra, Shade: c.Shade, ShadeName: c.ShadeName, MarkEvery: max(c.MarkEvery, 1),
		Note: c.Note, Band: c.Band}
	if c.Dodge {
		f.MarkEvery = 0
	}
	for _, s := range c.Series {
		if len(s.Points) == 0 {
			continue
		}
		sr := series{Name: s.Label}
		for i, p := range s.Points {
			sr.XYs = append(sr.XYs, plotter.XY{X: p.X, Y: p.Y})
			sr.Err = append(sr.Err, struct{ Low, High float64 }{p.Low, p.High})
			sr.Unstable = append(sr.Unstable, p.Unstable)
			if p.Apart && c.SetApart {
				if sr.Far == nil {
					sr.Far = make([]bool, len(s.Points))
				}
				sr.Far[i] = true
			}
		}
		f.Series = append(f.Series, sr)
	}
	return f
}

// layers are what the chart draws over the plot once its series are in:
// the horizontal bars, then the tags; nil when it has neither.
func (c Chart) layers() func(*plot.Plot) error {
	var xerr, tags bool
	for _, s := range c.Series {
		for _, p := range s.Points {
			xerr, tags = xerr || p.XErr > 0, tags || p.Tag != ""
		}
	}
	if !xerr && !tags {
		return nil
	}
	return func(p *plot.Plot) error {
		if err := c.addXErrors(p); err != nil {
			return err
		}
		return c.addTags(p)
	}
}

// addXErrors draws each series' horizontal bars in its colour (the Styler
// gives the same styles in the same order as the plot's own).
func (c Chart) addXErrors(p *plot.Plot) error {
	st := Styler{legend: c.Legend}
	for _, s := range c.Series {
		if len(s.Points) == 0 {
			continue
		}
		sty := st.Style(s.Label)
		var xys plotter.XYs
		var xe plotter.XErrors
		for _, pt := range s.Points {
			if pt.XErr > 0 {
				xys, xe = append(xys, plotter.XY{X: pt.X, Y: pt.Y}), append(xe, struct{ Low, High float64 }{pt.XErr, pt.XErr})
			}
		}
		if len(xys) == 0 {
			continue
		}
		b, err := plotter.NewXErrorBars(struct {
			plotter.XYs
			plotter.XErrors
		}{xys, xe})
		if err != nil {
			return err
		}
		b.Color, b.Width, b.CapWidth = sty.Color, vg.Points(1), vg.Points(5)
		p.Add(b)
	}
	return nil
}

// addTags writes each point's tag just above and right of it.
func (c Chart) addTags(p *plot.Plot) error {
	var xys plotter.XYs
	var tags []string
	for _, s := range c.Series {
		for _, pt := range s.Points {
			if pt.Tag != "" {
				xys, tags = append(xys, plotter.XY{X: pt.X, Y: pt.Y}), append(tags, pt.Tag)
			}
		}
	}
	if len(tags) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: tags})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(8)
		l.TextStyle[i].Color = color.Gray{Y: 60}
	}
	l.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(4)}
	p.Add(l)
	return nil
}

// Panels are charts side by side (or in a grid), each with its own axes,
// under one title and over one legend: an entry that two charts share
// (the shade's, a policy in both) is listed once.
type Panels struct {
	Title string
	// Width and Height are the image's size; 0 keeps the default (7 in
	// wide; a 4.6 in plot area per row, 2.8 in with several rows, plus the
	// legend).
	Width, Height vg.Length
	// Charts are the panels, each with its own axes; its title is drawn
	// small over it, its Width, Height and Caption are not used. A chart
	// without a point is left out, with its width.
	Charts []Chart
	// Widths are the panels' relative widths in a row (nil: equal).
	Widths []float64
	// Columns is how many panels a row holds (0: all in one row).
	Columns int
	// Extra are legend entries after the charts'.
	Extra []LegendItem
	// Caption is drawn under the legend, wrapped to the width ("": none).
	Caption string
}

// panel is one chart of Panels as drawn, with its relative width.
type panel struct {
	plot  *plot.Plot
	width float64
}

// Save draws the panels and writes them atomically to dir/file.<format>.
// It returns an error wrapping ErrNoData when no chart has a point.
func (ps Panels) Save(dir Folder, file, format string) error {
	if !strings.HasSuffix(file, "."+format) {
		file += "." + format
	}
	panels, entries, err := ps.plots()
	if err != nil {
		return err
	}
	if len(panels) == 0 {
		return fmt.Errorf("plot %s: %w", file, ErrNoData)
	}
	sc := textScale(ps.Width)
	for _, e := range ps.Extra {
		entries = append(entries, e.entry())
	}
	cols := len(panels)
	if ps.Columns > 0 {
		cols = min(ps.Columns, len(panels))
	}
	rows := (len(panels) + cols - 1) / cols
	h := ps.Height
	if h == 0 && rows > 1 {
		h = vg.Length(rows)*2.8*vg.Inch + vg.Inch
	}
	return dir.WriteFile(filepath.Base(file), func(w io.Writer) error {
		return Render(w, format, entries, ps.Caption, ps.Width, h, func(area draw.Canvas) error {
			top := draw.Crop(area, vg.Points(4), -vg.Points(14), 0, -vg.Points(8))
			if ps.Title != "" {
				sty := plot.New().Title.TextStyle
				sty.Font.Size = pt(13, sc)
				sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
				top.FillText(sty, vg.Point{X: (top.Min.X + top.Max.X) / 2, Y: top.Max.Y}, ps.Title)
				top = draw.Crop(top, 0, 0, 0, -pt(22, sc))
			}
			for r := range rows {
				drawRow(panels[r*cols:min((r+1)*cols, len(panels))], cols, rowCanvas(top, r, rows))
			}
			return nil
		})
	})
}

// plots builds each chart with a point, and the legend of them all. A
// chart's text is scaled to the image's width, as a figure's of that width
// is, and its labelled ticks to the panel's.
func (ps Panels) plots() ([]panel, []LegendEntry, error) {
	var panels []panel
	var entries []LegendEntry
	n := 0
	for _, ch := range ps.Charts {
		if len(ch.figure().Series) > 0 {
			n++
		}
	}
	cols := n
	if ps.Columns > 0 {
		cols = min(ps.Columns, n)
	}
	for i, ch := range ps.Charts {
		f := ch.figure()
		if len(f.Series) == 0 {
			continue
		}
		f.Width, f.Height, f.Caption = ps.Width, 0, false
		if rows := (n + cols - 1) / cols; ps.Height > 0 {
			f.Height = ps.Height / vg.Length(rows) // for the minor ticks: a row's share
		}
		if cols > 1 { // the Y axis's labels take about a quarter of a panel
			f.share = 0.75 / float64(cols)
		}
		p, e, err := f.plot()
		if err != nil {
			return nil, nil, err
		}
		if extra := ch.layers(); extra != nil {
			if err := extra(p); err != nil {
				return nil, nil, err
			}
		}
		p.Title.TextStyle.Font.Size = pt(11, textScale(ps.Width))
		for _, x := range e {
			if !slices.ContainsFunc(entries, func(y LegendEntry) bool { return y.Text == x.Text }) {
				entries = append(entries, x)
			}
		}
		w := 1.0
		if i < len(ps.Widths) {
			w = ps.Widths[i]
		}
		panels = append(panels, panel{p, w})
	}
	return panels, entries, nil
}

// rowCanvas is row r of rows in c, with a gap between rows.
func rowCanvas(c draw.Canvas, r, rows int) draw.Canvas {
	if rows == 1 {
		return c
	}
	h := c.Max.Y - c.Min.Y
	top, bottom := -h*vg.Length(r)/vg.Length(rows), h*vg.Length(rows-r-1)/vg.Length(rows)
	if r < rows-1 {
		bottom += vg.Points(10)
	}
	return draw.Crop(c, 0, 0, bottom, top)
}

// drawRow draws the panels of one row of a grid of cols columns side by
// side in c, each as wide as its share of the row, with a gap between
// them; a last row with fewer panels leaves the rest of its width empty,
// so that its panels are as wide as the others.
func drawRow(row []panel, cols int, c draw.Canvas) {
	if cols == 1 {
		DrawPlot(row[0].plot, c)
		return
	}
	total, cum := float64(cols-len(row)), 0.0 // an empty slot is of width 1, as a panel without Widths
	for _, p := range row {
		total += p.width
	}
	x := func(share float64) vg.Length { return c.Min.X + (c.Max.X-c.Min.X)*vg.Length(share)/vg.Length(total) }
	for i, p := range row {
		left, right := vg.Length(0), vg.Length(0)
		if i > 0 {
			left = x(cum) - c.Min.X + vg.Points(10)
		}
		cum += p.width
		if i < cols-1 {
			right = x(cum) - c.Max.X
		}
		DrawPlot(p.plot, draw.Crop(c, left, right, 0, 0))
	}
}
