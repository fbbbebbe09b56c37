package report

import (
	"cmp"
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
)

// FrontPoint is one point of a latency–energy plot: a policy entry's mean
// energy per task and mean latency over the replicates, with their 95%
// half-widths. Points of one label form one line (a swept weight), drawn
// in order of energy.
type FrontPoint struct {
	Label              string
	Energy, EnergyCI   float64 // J per task
	Latency, LatencyCI float64 // s
	Unstable           bool
	Tag                string // written beside the point (a swept weight), or ""
}

// FrontCaption is the note of the latency–energy figure, drawn in the image
// only when FigureOptions.Caption asks for it: offload energy leaves it out,
// and the docs give it beside the figure.
const FrontCaption = "Points: mean over replicates; bars: 95% Student-t intervals of both coordinates. " +
	"A line joins one policy's points across its swept weight; a ring marks a point where a tier's load is shown above 1."

// frontSeries is one label's points with their x half-widths.
type frontSeries struct {
	series
	XErr plotter.XErrors
	Tags []string
}

// PlotFront draws mean latency (y) against energy per task (x), one line
// per label, with error bars both ways, and writes it atomically to
// dir/file.<format>. It returns an error wrapping ErrNoData when no point
// has both coordinates.
func PlotFront(dir Folder, file, format string, pts []FrontPoint, legend Legend, o FigureOptions) error {
	if !strings.HasSuffix(file, "."+format) {
		file += "." + format
	}
	fs := frontSeriesOf(pts, legend)
	if len(fs) == 0 {
		return fmt.Errorf("plot %s: %w", file, ErrNoData)
	}
	ss := make([]series, len(fs))
	for i := range fs {
		ss[i] = fs[i].series
	}
	f := figure{FigureOptions: o, Legend: legend, Series: ss, MarkEvery: 1, Note: FrontCaption}
	return dir.WriteFile(filepath.Base(file), func(w io.Writer) error {
		return f.renderWith(w, format, func(p *plot.Plot) error {
			if err := addXErrors(p, fs, legend); err != nil {
				return err
			}
			return addTags(p, fs)
		})
	})
}

// frontSeriesOf groups the points by label, each label's sorted by energy,
// the labels in legend order; points missing a coordinate are left out.
func frontSeriesOf(pts []FrontPoint, legend Legend) []frontSeries {
	var out []frontSeries
	index := map[string]int{}
	for _, p := range pts {
		if !isFinite(p.Energy) || !isFinite(p.Latency) {
			continue
		}
		i, ok := index[p.Label]
		if !ok {
			i = len(out)
			index[p.Label] = i
			out = append(out, frontSeries{series: series{Name: p.Label}})
		}
		s := &out[i]
		s.XYs = append(s.XYs, plotter.XY{X: p.Energy, Y: p.Latency})
		s.Err = append(s.Err, struct{ Low, High float64 }{halfWidth(p.LatencyCI), halfWidth(p.LatencyCI)})
		s.XErr = append(s.XErr, struct{ Low, High float64 }{halfWidth(p.EnergyCI), halfWidth(p.EnergyCI)})
		s.Unstable = append(s.Unstable, p.Unstable)
		s.Tags = append(s.Tags, p.Tag)
	}
	for i := range out {
		s := &out[i]
		idx := make([]int, len(s.XYs))
		for k := range idx {
			idx[k] = k
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.XYs[a].X, s.XYs[b].X) })
		xys, e, xe, u, tg := slices.Clone(s.XYs), slices.Clone(s.Err), slices.Clone(s.XErr), slices.Clone(s.Unstable), slices.Clone(s.Tags)
		for to, from := range idx {
			s.XYs[to], s.Err[to], s.XErr[to], s.Unstable[to], s.Tags[to] = xys[from], e[from], xe[from], u[from], tg[from]
		}
	}
	slices.SortStableFunc(out, func(a, b frontSeries) int { return cmp.Compare(legend.rank(a.Name), legend.rank(b.Name)) })
	return out
}

// halfWidth is a usable error-bar half-width: 0 when missing.
func halfWidth(ci float64) float64 {
	if !isFinite(ci) || ci < 0 {
		return 0
	}
	return ci
}

// addXErrors draws each series' horizontal bars in its colour (the styler
// gives the same styles in the same order as the plot's own).
func addXErrors(p *plot.Plot, fs []frontSeries, legend Legend) error {
	st := styler{legend: legend}
	for _, s := range fs {
		sty := st.style(s.Name)
		var xys plotter.XYs
		var xe plotter.XErrors
		for k, w := range s.XErr {
			if w.Low > 0 || w.High > 0 {
				xys, xe = append(xys, s.XYs[k]), append(xe, w)
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
func addTags(p *plot.Plot, fs []frontSeries) error {
	var xys plotter.XYs
	var tags []string
	for _, s := range fs {
		for k, t := range s.Tags {
			if t != "" {
				xys, tags = append(xys, s.XYs[k]), append(tags, t)
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

// renderWith is render with extra layers, if any, added to the plot
// before it is drawn (the front's horizontal error bars and tags).
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
	var lines []string
	if f.Caption {
		w := f.Width
		if w == 0 {
			w = figWidth
		}
		lines = wrapCaption(f.note(), captionStyle(textScale(w)), w-2*vg.Points(captionMargin))
	}
	c, dc, legendH, err := whiteCanvas(format, entries, len(lines), f.Width, f.Height)
	if err != nil {
		return err
	}
	// Margins keep the title and the markers at the last swept value inside
	// the image; gonum pads only for what lies inside the data area.
	drawPlot(p, draw.Crop(dc, vg.Points(4), -vg.Points(14), legendH, -vg.Points(8)))
	drawLegend(legendArea(dc, legendH), entries, strings.Join(lines, "\n"))
	_, err = c.WriteTo(w)
	return err
}
