package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/results"
)

// shadeFill fills the shaded intervals (bursts, episodes): light enough
// that lines stay readable.
var shadeFill = color.RGBA{R: 0xF4, G: 0xD6, B: 0xD6, A: 0xFF}

// addShade draws each interval as a filled band over the whole Y axis.
func addShade(p *plot.Plot, shade []results.Interval) {
	for _, b := range shade {
		p.Add(shadeBand(b))
	}
}

// shadeBand fills an interval of X from the bottom of the Y axis to its
// top, whatever range the axis ends up with: it reads the range when drawn
// and takes no part in choosing it (it is no plot.DataRanger).
type shadeBand results.Interval

// Plot implements plot.Plotter.
func (b shadeBand) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	x0, x1 := trX(math.Max(b.Start, plt.X.Min)), trX(math.Min(b.End, plt.X.Max))
	if !(x1 > x0) {
		return
	}
	y0, y1 := trY(plt.Y.Min), trY(plt.Y.Max)
	var path vg.Path
	path.Move(vg.Point{X: x0, Y: y0})
	path.Line(vg.Point{X: x1, Y: y0})
	path.Line(vg.Point{X: x1, Y: y1})
	path.Line(vg.Point{X: x0, Y: y1})
	path.Close()
	c.SetColor(shadeFill)
	c.Fill(path)
}

func shadeThumb() plot.Thumbnailer {
	poly, _ := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
	poly.Color = shadeFill
	poly.LineStyle.Width = 0
	return poly
}

// FillThumb is a legend swatch of a fill colour.
func FillThumb(c color.Color) plot.Thumbnailer {
	poly, _ := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
	poly.Color = c
	poly.LineStyle.Width = 0
	return poly
}
