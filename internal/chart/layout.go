package chart

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/axis"
)

// minTextScale is the smallest textScale: 10 pt tick and legend labels
// become 7.5 pt, about the least a journal prints legibly.
const minTextScale = 0.75

// textScale is how much a figure of width w (0: the default) shrinks its
// text, markers and legend rows: 1 at the default 7 in and wider, the
// square root of the width's ratio below, and never under minTextScale
// (reached at 3.9 in). Type set for 7 in would take a third of a 3.5 in
// column figure's height; shrunk in proportion to the width it would be
// unreadable, so it shrinks by the square root, half-way in log terms.
func textScale(w vg.Length) float64 {
	if w <= 0 || w >= figWidth {
		return 1
	}
	return math.Max(minTextScale, math.Sqrt(float64(w/figWidth)))
}

// pt is x points at text scale s.
func pt(x, s float64) vg.Length { return vg.Points(x * s) }

// legendStyle is the legend's text at scale s.
func legendStyle(s float64) text.Style {
	sty := plot.NewLegend().TextStyle
	sty.Font.Size = pt(10, s)
	return sty
}

// legendThumb is the width of a legend entry's line-and-marker sample.
func legendThumb(s float64) vg.Length { return pt(24, s) }

// legendGrid lays the legend strip of an image of width w out: its number
// of columns and each entry's slot (row·cols + column), filled row by row.
// It takes legendCol columns where every entry fits its column, fewer
// where one does not. The last entry may run on into the columns that are
// empty to its right (it is the note-like one: "unstable …", "band: …"),
// or starts a row of its own when it does not fit where it falls; the
// rightmost column may run into the strip's margin.
func legendGrid(entries []LegendEntry, w vg.Length) (cols int, slots []int) {
	if w <= 0 {
		w = figWidth
	}
	s := textScale(w)
	sty := legendStyle(s)
	strip := w - 2*vg.Points(captionMargin)
	need := func(e LegendEntry) vg.Length { return legendThumb(s) + sty.Width(" "+e.Text) + pt(6, s) }
	for cols = legendCol; cols >= 1; cols-- {
		colW := strip / vg.Length(cols)
		slots = slots[:0]
		fits := true
		for i, e := range entries {
			room := colW
			if i%cols == cols-1 {
				room += vg.Points(captionMargin)
			}
			last := i == len(entries)-1 && i > 0
			if last {
				room = colW*vg.Length(cols-i%cols) + vg.Points(captionMargin)
				if need(e) > room && i%cols != 0 {
					i += cols - i%cols // a row of its own
					room = strip + vg.Points(captionMargin)
				}
			}
			slots = append(slots, i)
			if need(e) > room && cols > 1 {
				fits = false
				break
			}
		}
		if fits {
			return cols, slots
		}
	}
	return 1, slots
}

// legendRows is how many rows legendGrid's slots fill.
func legendRows(cols int, slots []int) int {
	if len(slots) == 0 {
		return 0
	}
	return slots[len(slots)-1]/cols + 1
}

// DrawPlot draws p on c as every figure here is drawn. gonum lays the Y axis's label out at the data's
// midpoint, (min + max)/2 through the axis's scale, but draws it at the
// middle of the axis; on a log or symlog axis the midpoint lies near the
// top, and the label, laid out there, pushes the data area down by up to
// half its length. So p is drawn with a one-space stand-in, which keeps
// the label's column (a line's height does not depend on its text), and
// the label is drawn where gonum would draw it: centred on the data area.
func DrawPlot(p *plot.Plot, c draw.Canvas) {
	label := p.Y.Label.Text
	if label == "" {
		p.Draw(c)
		return
	}
	sty := p.Y.Label.TextStyle
	p.Y.Label.Text = " "
	// A label longer than the axis (a paper-size figure) breaks into two
	// lines, and shrinks if one is still too long.
	if h := p.DataCanvas(c).Size().Y; sty.Width(label) > h {
		label = splitLine(label)
		p.Y.Label.Text = " \n "
		if w := sty.Width(label); w > h {
			sty.Font.Size = sty.Font.Size * h / w
		}
	}
	p.Draw(c)
	data := p.DataCanvas(c)
	p.Y.Label.Text = label
	x := c.Min.X + sty.Height(label) - sty.FontExtents().Descent
	sty.Rotation += math.Pi / 2
	c.FillText(sty, vg.Point{X: x, Y: data.Center().Y}, label)
}

// splitLine breaks s into two lines at the space nearest its middle
// (s itself when it has none).
func splitLine(s string) string {
	best := -1
	for i, r := range s {
		if r == ' ' && (best < 0 || abs(i-len(s)/2) < abs(best-len(s)/2)) {
			best = i
		}
	}
	if best < 0 {
		return s
	}
	return s[:best] + "\n" + s[best+1:]
}

func abs(n int) int { return max(n, -n) }

// LogAxis puts a on a log scale with the log ticks of every figure here.
func LogAxis(a *plot.Axis) { a.Scale, a.Tick.Marker = plot.LogScale{}, axis.LogTicks{} }
