package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/offload-sim/offload/internal/results"
)

// burstShade fills burst intervals: light enough that lines stay readable.
var burstShade = color.RGBA{R: 0xF4, G: 0xD6, B: 0xD6, A: 0xFF}

// TimeSeries is one policy's line in a time-series plot.
type TimeSeries struct {
	Policy string
	Points plotter.XYs // x: window midpoint (s); y: the metric
}

// PlotTimeSeries draws one line per policy against time, with the burst
// intervals shaded, and writes it atomically to dir/file.<format>. Points
// with a non-finite y are left out (windows with no tasks).
func PlotTimeSeries(dir Folder, file, format string, lines []TimeSeries, legend Legend, bursts []results.Interval, title, ylabel string, logY, fraction bool) error {
	f := figure{FigureOptions: FigureOptions{Title: title, XLabel: "time (s)", YLabel: ylabel, LogY: logY}, Fraction: fraction, Legend: legend,
		Shade: bursts, MarkEvery: 12,
		Note: "Shaded: bursts. Lines: mean over replicates of each window's value; markers every 12 windows tell policies apart."}
	for _, l := range lines {
		s := series{Name: l.Policy}
		for _, xy := range l.Points {
			if isFinite(xy.Y) && (!logY || xy.Y > 0) {
				s.XYs = append(s.XYs, xy)
				s.Err = append(s.Err, struct{ Low, High float64 }{0, 0})
				s.Unstable = append(s.Unstable, false)
			}
		}
		if len(s.XYs) > 0 {
			f.Series = append(f.Series, s)
		}
	}
	return f.save(dir, file, format)
}

// addShade draws each interval as a filled band over the data's Y range.
func addShade(p *plot.Plot, shade []results.Interval, ss []series, logY bool, floor float64) error {
	lo, hi := 0.0, math.Inf(-1)
	for _, s := range ss {
		for _, xy := range s.XYs {
			hi = math.Max(hi, xy.Y)
		}
	}
	if logY {
		lo, hi = floor, 1.2*hi
	}
	if math.IsInf(hi, -1) {
		return nil
	}
	for _, b := range shade {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: b.Start, Y: lo}, {X: b.End, Y: lo}, {X: b.End, Y: hi}, {X: b.Start, Y: hi}})
		if err != nil {
			return err
		}
		poly.Color = burstShade
		poly.LineStyle.Width = 0
		p.Add(poly)
	}
	return nil
}

func shadeThumb() plot.Thumbnailer {
	poly, _ := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
	poly.Color = burstShade
	poly.LineStyle.Width = 0
	return poly
}
