package chart

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/canvas"
)

func TestLogFloorAndClamp(t *testing.T) {
	ss := []series{{Name: "a",
		XYs: plotter.XYs{{X: 1, Y: 0.5}, {X: 2, Y: 3}},
		Err: plotter.YErrors{{Low: 0.6, High: 0.6}, {Low: 1, High: 1}}}}
	// Smallest mean 0.5 (its bar goes below zero and does not count); 0.5/1.25 = 0.4 → 0.2.
	if got := logFloor(ss, true); got != 0.2 {
		t.Errorf("logFloor = %v, want 0.2", got)
	}
	// A bar ending at 0.1 lowers the floor to 0.05; a band's edge does not.
	wide := []series{{Name: "b", XYs: plotter.XYs{{X: 1, Y: 1}}, Err: plotter.YErrors{{Low: 0.9, High: 0.9}}}}
	if got := logFloor(wide, true); !scalarClose(got, 0.05) {
		t.Errorf("logFloor with bars = %v, want 0.05", got)
	}
	if got := logFloor(wide, false); got != 0.5 {
		t.Errorf("logFloor with a band = %v, want 0.5 (from the mean alone)", got)
	}
	clampLow(ss, 0.2)
	if got := ss[0].Err; !scalarClose(got[0].Low, 0.3) || got[0].High != 0.6 || got[1].Low != 1 {
		t.Errorf("clampLow: %+v, want the first low bar cut to 0.3 (ending at 0.2), the rest untouched", got)
	}
	if got := logFloor(nil, true); got != 1 {
		t.Errorf("logFloor(no series) = %v, want 1", got)
	}
}

func TestDodge(t *testing.T) {
	mk := func(xs ...float64) series {
		s := series{}
		for _, x := range xs {
			s.XYs = append(s.XYs, plotter.XY{X: x, Y: 1})
		}
		return s
	}
	in := []series{mk(10, 20, 40), mk(10, 20), mk(40)}
	out := dodge(in, linearMap)
	// Smallest gap 10 → step 0.3; three series at −0.3, 0, +0.3.
	wantX := [][]float64{{9.7, 19.7, 39.7}, {10, 20}, {40.3}}
	for i := range out {
		for j, p := range out[i].XYs {
			if !scalarClose(p.X, wantX[i][j]) {
				t.Errorf("series %d point %d: x = %v, want %v", i, j, p.X, wantX[i][j])
			}
		}
	}
	if in[0].XYs[0].X != 10 {
		t.Error("dodge modified its input")
	}
	if got := dodge([]series{mk(5), mk(5)}, linearMap); got[0].XYs[0].X != 5 {
		t.Errorf("single x value: shifted to %v, want no shift (no gap to scale by)", got[0].XYs[0].X)
	}
}

func TestPolicyStylesDistinct(t *testing.T) {
	colors, shapes := map[any]string{}, map[any]string{}
	for _, p := range allPolicies {
		s, ok := policyStyles[p]
		if !ok {
			t.Fatalf("policy %s has no fixed style", p)
		}
		if q, dup := colors[s.Color]; dup {
			t.Errorf("%s and %s share a colour", p, q)
		}
		if q, dup := shapes[s.Shape]; dup {
			t.Errorf("%s and %s share a marker", p, q)
		}
		colors[s.Color], shapes[s.Shape] = p, p
	}
	st := Styler{legend: Legend{Labels: []string{"hybrid", "h0", "h1"}, Policies: []string{"hybrid", "hybrid", "hybrid"}}}
	if a, b := st.Style("model-only"), policyStyles["model-only"]; !reflect.DeepEqual(a, b) {
		t.Error(`estimator "model-only" does not look like policy model-only`)
	}
	h, h0, h1 := st.Style("hybrid"), st.Style("h0"), st.Style("h1")
	if !reflect.DeepEqual(h, policyStyles["hybrid"]) || h0.Color != h.Color || h0.Shape != h.Shape ||
		reflect.DeepEqual(h0.Dash, h.Dash) || reflect.DeepEqual(h0.Dash, h1.Dash) {
		t.Errorf("variants of hybrid: %+v, %+v, %+v; want hybrid's colour and marker, each its own line", h, h0, h1)
	}
	u1, u2 := st.Style("mystery"), st.Style("other")
	if reflect.DeepEqual(u1, u2) {
		t.Error("two unknown names got the same style")
	}
}

// TestXTicksAtSweptValues: ticks sit at the swept values when they fit,
// and fall back to round values when the sweep is too dense.
func TestXTicksAtSweptValues(t *testing.T) {
	f := figure{XTicks: []float64{10, 20, 40, 60, 80, 100, 120, 150, 200}}
	ticks := f.xTicks().Ticks(0, 210)
	if len(ticks) != 9 || ticks[2].Value != 40 || ticks[2].Label != "40" {
		t.Errorf("ticks %v, want one at each of the 9 swept values", ticks)
	}
	f.XTicks = []float64{1, 1.5, 2, 100}
	if f.xTicks() != nil {
		t.Error("crowded values: want the automatic ticks")
	}
}

// TestPolicyColoursDistinct: every policy's colour is told apart from
// every other's (RGB distance ≥ 60 of 441), so no two lines of a plot of the
// registry's policies look alike; the markers and dashes tell them apart in
// greyscale.
func TestPolicyColoursDistinct(t *testing.T) {
	names := make([]string, 0, len(policyStyles))
	for n := range policyStyles {
		names = append(names, n)
	}
	for i, a := range names {
		for _, b := range names[i+1:] {
			ra, ga, ba, _ := policyStyles[a].Color.RGBA()
			rb, gb, bb, _ := policyStyles[b].Color.RGBA()
			d := math.Sqrt(sq(float64(ra>>8)-float64(rb>>8)) + sq(float64(ga>>8)-float64(gb>>8)) + sq(float64(ba>>8)-float64(bb>>8)))
			if d < 60 {
				t.Errorf("%s and %s: colours %.0f apart", a, b, d)
			}
		}
	}
}

func sq(x float64) float64 { return x * x }

// TestMarkersNeverShareAPoint: a time series of n lines marks each at a
// phase of its own, so that where lines coincide every line still shows
// markers and no marker covers another's.
func TestMarkersNeverShareAPoint(t *testing.T) {
	var xys plotter.XYs
	for i := range 29 {
		xys = append(xys, plotter.XY{X: float64(i)})
	}
	const n = 8
	seen := map[float64]int{}
	for phase := range n {
		m := marked(xys, n, phase)
		if len(m) < 3 {
			t.Errorf("phase %d: %d markers, want at least 3 of 29 points", phase, len(m))
		}
		for _, p := range m {
			seen[p.X]++
		}
	}
	for x, k := range seen {
		if k > 1 {
			t.Errorf("x = %g marked by %d lines", x, k)
		}
	}
}

// TestCaptionWraps: a caption breaks into lines that fit the width, word
// for word, with its own line breaks kept.
func TestCaptionWraps(t *testing.T) {
	sty := captionStyle(textScale(3.5 * vg.Inch))
	w := 3.5*vg.Inch - 2*vg.Points(captionMargin)
	text := "Lines: mean over replicates; bars: 95% Student-t confidence interval; points slightly offset sideways so that bars do not hide one another." +
		"\nNot shown, unstable in some cell: random."
	lines := wrapCaption(text, sty, w)
	if len(lines) < 3 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		if sty.Width(l) > w {
			t.Errorf("line %q is %v wide, more than %v", l, sty.Width(l), w)
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != strings.Join(strings.Fields(text), " ") {
		t.Errorf("words changed: %q", got)
	}
	if lines[len(lines)-1] != "Not shown, unstable in some cell: random." {
		t.Errorf("the line break before the last sentence is lost: %q", lines)
	}
}

// TestLegendFitsPaperWidth: at a column's 3.5 in every entry of the
// paper's eight policies and the unstable note fits its slot; at 7 in the
// legend keeps its four columns.
func TestLegendFitsPaperWidth(t *testing.T) {
	var entries []LegendEntry
	for _, p := range allPolicies {
		entries = append(entries, LegendEntry{Text: p})
	}
	entries = append(entries, LegendEntry{Text: "unstable (a tier's load > 1)"})
	if cols, _ := legendGrid(entries, figWidth); cols != legendCol {
		t.Errorf("7 in: %d columns, want %d", cols, legendCol)
	}
	w := 3.5 * vg.Inch
	s := textScale(w)
	cols, slots := legendGrid(entries, w)
	colW := (w - 2*vg.Points(captionMargin)) / vg.Length(cols)
	for i, e := range entries {
		room := colW * vg.Length(cols-slots[i]%cols)
		if i < len(entries)-1 {
			room = colW
		}
		if need := legendThumb(s) + legendStyle(s).Width(" "+e.Text); need > room+vg.Points(captionMargin) {
			t.Errorf("%q needs %v, its slot has %v (%d columns)", e.Text, need, room, cols)
		}
	}
	if textScale(w) != minTextScale || textScale(0) != 1 || textScale(10*vg.Inch) != 1 {
		t.Errorf("textScale: %g at 3.5 in, %g default, %g at 10 in", textScale(w), textScale(0), textScale(10*vg.Inch))
	}
}

// TestLogXShowsZero: a log X axis over 0, 0.01 … 3 keeps the 0 cell, on a
// symmetric log scale linear up to the smallest positive value.
func TestLogXShowsZero(t *testing.T) {
	xs := []float64{0, 0.01, 0.03, 0.1, 1, 3}
	c := Chart{FigureOptions: FigureOptions{LogX: true}, Legend: testLegend, XTicks: xs, Dodge: true, Series: []Series{{Label: "hybrid"}}}
	for _, x := range xs {
		c.Series[0].Points = append(c.Series[0].Points, Point{X: x, Y: 0.07})
	}
	f := c.figure()
	ss, _, symX, err := f.xSeries()
	if err != nil || symX != 0.01 || len(ss) != 1 || len(ss[0].XYs) != 6 {
		t.Fatalf("xSeries: %d series, symlog %g, %v; want the 6 points on a symlog axis linear to 0.01", len(ss), symX, err)
	}
	p, _, err := f.plot()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.X.Scale.(axis.SymLog); !ok || p.X.Min >= 0 || p.X.Max <= 3 {
		t.Errorf("X scale %T over [%g, %g]: want symlog around [0, 3]", p.X.Scale, p.X.Min, p.X.Max)
	}
}

// BenchmarkFigurePNG draws and encodes one sweep figure (sweepLines) as a PNG at 150
// and at PNGDPI dpi: what the resolution costs each figure an experiment
// writes (docs/performance.md gives the ratio).
func BenchmarkFigurePNG(b *testing.B) {
	f := Chart{Legend: testLegend, FigureOptions: FigureOptions{LogY: true}, Dodge: true, Series: sweepLines()}.figure()
	for _, dpi := range []int{150, PNGDPI} {
		b.Run(fmt.Sprintf("dpi=%d", dpi), func(b *testing.B) {
			for b.Loop() {
				p, entries, err := f.plot()
				if err != nil {
					b.Fatal(err)
				}
				c, err := canvas.New("png", figWidth, plotH+vg.Inch, dpi)
				if err != nil {
					b.Fatal(err)
				}
				dc := draw.New(c)
				DrawPlot(p, draw.Crop(dc, 0, 0, vg.Inch, 0))
				drawLegend(legendArea(dc, vg.Inch), entries, "")
				if _, err := c.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestApartDrawnAtTop: with SetApart, a point marked Apart is drawn at the
// top of an axis fitted to the others, its value written beside it; without
// SetApart the mark is ignored.
func TestApartDrawnAtTop(t *testing.T) {
	line := func(label string, y80, y100 float64, apart bool) Series {
		return Series{Label: label, Points: []Point{{X: 80, Y: y80, Low: y80 / 50, High: y80 / 50},
			{X: 100, Y: y100, Low: y100 / 50, High: y100 / 50, Apart: apart}}}
	}
	c := Chart{FigureOptions: FigureOptions{FitY: true, SetApart: true}, Legend: testLegend, Dodge: true,
		Series: []Series{line("hybrid", 0.055, 0.060, false), line("jsq-s", 0.052, 0.056, false), line("edge-first", 0.069, 1.95, true)}}
	f := c.figure()
	p, _, err := f.plot()
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Max > 0.08 || p.Y.Max < 0.0612 {
		t.Errorf("Y axis to %g: want it fitted to the others (≤ 0.0612 + bars), not stretched to 1.95", p.Y.Max)
	}
	ss, labels, err := f.setApart(f.Series, 1)
	if err != nil || labels == nil || len(labels.Labels) != 1 || labels.Labels[0] != "↑ 1.95" {
		t.Fatalf("labels %+v, %v; want one, ↑ 1.95", labels, err)
	}
	for _, s := range ss {
		for i, xy := range s.XYs {
			if xy.Y > p.Y.Max || (s.far(i) && (s.Err[i].Low != 0 || xy.Y < 0.0612)) {
				t.Errorf("%s at %g: drawn at %g (far %v), axis top %g", s.Name, xy.X, xy.Y, s.far(i), p.Y.Max)
			}
		}
	}
	c.SetApart = false
	if p, _, _ := c.figure().plot(); p.Y.Max < 1.95 {
		t.Errorf("without SetApart: Y axis to %g, want it to reach 1.95", p.Y.Max)
	}
}
