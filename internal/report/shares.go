package report

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// tierFills colour the tiers' bands of a share figure, in tier order: Paul
// Tol's "light" palette, made for areas with lines and text over them.
var tierFills = []color.Color{
	rgb(0x77, 0xAA, 0xDD), rgb(0xEE, 0x88, 0x66), rgb(0x44, 0xBB, 0x99), rgb(0xEE, 0xDD, 0x88),
	rgb(0xFF, 0xAA, 0xBB), rgb(0x99, 0xDD, 0xFF), rgb(0xBB, 0xCC, 0x33), rgb(0xAA, 0xAA, 0x00), rgb(0xDD, 0xDD, 0xDD),
}

// sharePanelCols is how many policy panels a share figure puts in a row.
const sharePanelCols = 4

// maxShareTiers is how many tiers a share figure draws as bands of their
// own when there are more tiers than tierFills has colours: the others are
// one band, "other", in tierFills' last colour (a grey), and the legend
// stays readable.
const maxShareTiers = 8

// SharesNote says what a share figure of these tiers leaves out, or "":
// with more tiers than it has colours, it draws those with the largest
// shares and the rest as one band.
func SharesNote(tiers []string) string {
	if len(tiers) <= maxShareTiers+1 { // a colour each
		return ""
	}
	return fmt.Sprintf("%d tiers are too many for a band each: the %d with the largest shares are drawn, the other %d as one band, \"other\"",
		len(tiers), maxShareTiers, len(tiers)-maxShareTiers)
}

// SharesCaption is the note of a share figure: what its bands and rings mean.
const SharesCaption = "One panel per policy: the share of tasks sent to each tier, stacked (the bands add up to 1), " +
	"mean over replicates. A ring sits on a tier's band where that tier is unstable (its offered load shown above 1)."

// PlotShares draws where each policy sends its tasks against the swept
// value: one panel per policy (in the legend's order), the tiers' shares
// (share_<tier>) stacked bottom to top in tier order, and a ring on a
// tier's band at every swept value where the cell is unstable and that
// tier's offered load (util_<tier>) is ≥ 1 (results.Summary.TierUnstable),
// so that instability is marked on the tier that has it and nowhere else. It writes dir/file.<format>; o gives the title, the
// x label, LogX and the size. It returns an error wrapping ErrNoData when
// no summary has a swept value and every share.
func PlotShares(dir chart.Folder, file, format string, sums []results.Summary, legend chart.Legend, tiers []string, o chart.FigureOptions) error {
	if !strings.HasSuffix(file, "."+format) {
		file += "." + format
	}
	panels := shareSeries(sums, legend, tiers, o.LogX)
	if len(panels) == 0 || len(tiers) == 0 {
		return fmt.Errorf("plot %s: %w", file, chart.ErrNoData)
	}
	if SharesNote(tiers) != "" {
		panels, tiers = foldTiers(panels, tiers)
	}
	xs := positiveIf(sweptValues(sums), o.LogX)
	return dir.WriteFile(filepath.Base(file), func(w io.Writer) error {
		return renderShares(w, format, panels, tiers, xs, o)
	})
}

// sharePanel is one policy's stacked shares: X the swept values in
// increasing order, Share[t][i] tier t's share at X[i], Unstable[t][i]
// whether tier t was unstable there.
type sharePanel struct {
	Policy   string
	X        []float64
	Share    [][]float64
	Unstable [][]bool
}

// shareSeries gathers one panel per policy, in the legend's order. A point
// is left out when its swept value or any tier's share is missing (or, on a
// log axis, its x is not positive).
func shareSeries(sums []results.Summary, legend chart.Legend, tiers []string, logX bool) []sharePanel {
	var out []sharePanel
	index := map[string]int{}
	for _, s := range sums {
		if !isFinite(s.Value) || (logX && s.Value <= 0) {
			continue
		}
		share := make([]float64, len(tiers))
		ok := true
		for t, name := range tiers {
			share[t] = s.Get(results.ShareCol(name))
			ok = ok && isFinite(share[t])
		}
		if !ok {
			continue
		}
		i, seen := index[s.Policy]
		if !seen {
			i = len(out)
			index[s.Policy] = i
			out = append(out, sharePanel{Policy: s.Policy, Share: make([][]float64, len(tiers)), Unstable: make([][]bool, len(tiers))})
		}
		p := &out[i]
		p.X = append(p.X, s.Value)
		for t, name := range tiers {
			p.Share[t] = append(p.Share[t], share[t])
			p.Unstable[t] = append(p.Unstable[t], s.TierUnstable(results.Index(s.Cols, results.UtilCol(name))))
		}
	}
	for i := range out {
		out[i].sortByX()
	}
	slices.SortStableFunc(out, func(a, b sharePanel) int { return cmp.Compare(legend.Rank(a.Policy), legend.Rank(b.Policy)) })
	return out
}

// foldTiers keeps the maxShareTiers tiers whose largest share, over every
// panel and point, is largest (ties in tier order), in tier order, and adds
// the others up into one last band, "other (N tiers)", unstable where any
// of them is.
func foldTiers(panels []sharePanel, tiers []string) ([]sharePanel, []string) {
	peak := make([]float64, len(tiers))
	for _, p := range panels {
		for t := range tiers {
			for _, x := range p.Share[t] {
				peak[t] = max(peak[t], x)
			}
		}
	}
	order := make([]int, len(tiers))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(peak[b], peak[a]) })
	keep := slices.Clone(order[:maxShareTiers])
	slices.Sort(keep)
	names := make([]string, 0, maxShareTiers+1)
	for _, t := range keep {
		names = append(names, tiers[t])
	}
	names = append(names, fmt.Sprintf("other (%d tiers)", len(tiers)-maxShareTiers))
	out := make([]sharePanel, len(panels))
	for i, p := range panels {
		q := sharePanel{Policy: p.Policy, X: p.X}
		for _, t := range keep {
			q.Share, q.Unstable = append(q.Share, p.Share[t]), append(q.Unstable, p.Unstable[t])
		}
		rest, restUnstable := make([]float64, len(p.X)), make([]bool, len(p.X))
		for t := range tiers {
			if slices.Contains(keep, t) {
				continue
			}
			for j := range p.X {
				rest[j] += p.Share[t][j]
				restUnstable[j] = restUnstable[j] || p.Unstable[t][j]
			}
		}
		q.Share, q.Unstable = append(q.Share, rest), append(q.Unstable, restUnstable)
		out[i] = q
	}
	return out, names
}

func (p *sharePanel) sortByX() {
	idx := make([]int, len(p.X))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p.X[a], p.X[b]) })
	x := slices.Clone(p.X)
	for to, from := range idx {
		p.X[to] = x[from]
	}
	for t := range p.Share {
		sh, un := slices.Clone(p.Share[t]), slices.Clone(p.Unstable[t])
		for to, from := range idx {
			p.Share[t][to], p.Unstable[t][to] = sh[from], un[from]
		}
	}
}

func positiveIf(xs []float64, logX bool) []float64 {
	if logX {
		return positive(xs)
	}
	return xs
}

// renderShares lays the panels out in a grid with the tiers' legend under
// it.
func renderShares(w io.Writer, format string, panels []sharePanel, tiers []string, xs []float64, o chart.FigureOptions) error {
	cols := min(sharePanelCols, len(panels))
	rows := (len(panels) + cols - 1) / cols
	var entries []chart.LegendEntry
	for t, name := range tiers {
		entries = append(entries, chart.LegendEntry{Text: name, Thumbs: []plot.Thumbnailer{chart.FillThumb(tierFills[t%len(tierFills)])}})
	}
	anyUnstable := false
	for _, p := range panels {
		for _, u := range p.Unstable {
			anyUnstable = anyUnstable || slices.Contains(u, true)
		}
	}
	if anyUnstable {
		ring, _ := plotter.NewScatter(plotter.XYs{})
		ring.GlyphStyle = chart.UnstableRing()
		entries = append(entries, chart.LegendEntry{Text: "tier unstable (load > 1)", Thumbs: []plot.Thumbnailer{ring}})
	}
	h := o.Height
	if h == 0 {
		h = vg.Length(rows)*2.3*vg.Inch + vg.Points(40)
	}
	grid := make([][]*plot.Plot, rows)
	for r := range rows {
		grid[r] = make([]*plot.Plot, cols)
	}
	for i, p := range panels {
		r, col := i/cols, i%cols
		pl, err := sharePlot(p, tiers, xs, o, r == rows-1 || i+cols >= len(panels), col == 0)
		if err != nil {
			return fmt.Errorf("policy %s: %w", p.Policy, err)
		}
		grid[r][col] = pl
	}
	return chart.Render(w, format, entries, "", o.Width, h, func(area draw.Canvas) error {
		top := draw.Crop(area, vg.Points(4), -vg.Points(8), 0, -vg.Points(4))
		if o.Title != "" {
			titleH := vg.Points(22)
			sty := plot.New().Title.TextStyle
			sty.Font.Size = vg.Points(13)
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			top.FillText(sty, vg.Point{X: (top.Min.X + top.Max.X) / 2, Y: top.Max.Y}, o.Title)
			top = draw.Crop(top, 0, 0, 0, -titleH)
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6)}
		canvases := plot.Align(grid, tiles, top)
		for r := range grid {
			for col, pl := range grid[r] {
				if pl != nil {
					pl.Draw(canvases[r][col])
				}
			}
		}
		return nil
	})
}

// sharePlot is one policy's panel: the bands, then the rings. Only the
// bottom panels label x, only the left ones y.
func sharePlot(p sharePanel, tiers []string, xs []float64, o chart.FigureOptions, bottom, left bool) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.Policy
	pl.Title.TextStyle.Font.Size = vg.Points(11)
	pl.Title.Padding = vg.Points(2)
	for _, a := range []*plot.Axis{&pl.X, &pl.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(10)
		a.Tick.Label.Font.Size = vg.Points(8)
	}
	if bottom {
		pl.X.Label.Text = o.XLabel
	}
	if left {
		pl.Y.Label.Text = "share of tasks"
	}
	pl.Y.Min, pl.Y.Max = 0, 1
	pl.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1"}})
	lo, hi := xs[0], xs[len(xs)-1]
	if o.LogX {
		pl.X.Scale, pl.X.Tick.Marker = plot.LogScale{}, axis.LogTicks{}
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
	} else {
		pl.X.Tick.Marker = axis.LinearTicks{}
		if lo == hi {
			lo, hi = lo-1, hi+1
		}
	}
	// A panel is a quarter of the figure's width: ticks need four times
	// the room.
	if t := chart.SweptTicks(xs, o.LogX, 0.16); t != nil {
		pl.X.Tick.Marker = t
	}
	pl.X.Min, pl.X.Max = lo, hi
	base := make([]float64, len(p.X))
	var rings plotter.XYs
	for t := range tiers {
		upper := make([]float64, len(p.X))
		var poly plotter.XYs
		for i, x := range p.X {
			upper[i] = base[i] + p.Share[t][i]
			poly = append(poly, plotter.XY{X: x, Y: base[i]})
			if p.Unstable[t][i] {
				rings = append(rings, plotter.XY{X: x, Y: math.Min(1, (base[i]+upper[i])/2)})
			}
		}
		for i := len(p.X) - 1; i >= 0; i-- {
			poly = append(poly, plotter.XY{X: p.X[i], Y: upper[i]})
		}
		if len(p.X) == 1 { // one swept value: a bar of a sliver's width
			poly = plotter.XYs{{X: lo, Y: base[0]}, {X: hi, Y: base[0]}, {X: hi, Y: upper[0]}, {X: lo, Y: upper[0]}}
		}
		band, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, err
		}
		band.Color = tierFills[t%len(tierFills)]
		band.LineStyle = draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
		pl.Add(band)
		base = upper
	}
	if len(rings) > 0 {
		sc, err := plotter.NewScatter(rings)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.RingGlyph{}}
		pl.Add(sc)
	}
	return pl, nil
}

// rgb is an opaque colour.
func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 0xFF} }

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
