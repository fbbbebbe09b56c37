package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/results"
)

// sweepCell is one swept value of a made-up sweep: each policy's mean latency
// and largest tier load.
func sweepCell(v float64, rows map[string][2]float64) []results.Summary {
	var out []results.Summary
	for _, p := range allPolicies {
		r, ok := rows[p]
		if !ok {
			continue
		}
		out = append(out, summary(p, v, map[string]float64{results.ColMeanLatency: r[0], "util_edge": r[1], "util_local": 0.2},
			map[string]float64{results.ColMeanLatency: r[0] / 50, "util_edge": 0.001, "util_local": 0.001}))
	}
	return out
}

// TestSetApart: a point is set apart only when it is both near a tier's
// capacity and far above the other policies of its cell.
func TestSetApart(t *testing.T) {
	sums := sweepCell(100, map[string][2]float64{
		"hybrid": {0.060, 0.6}, "queue-only": {0.059, 0.6}, "jsq-s": {0.056, 0.6}, "oracle": {0.052, 0.6},
		"edge-first": {1.95, 0.998}, // near capacity, 33× the others: apart
		"random":     {0.9, 0.5},    // 16× the others but far from capacity: kept
		"jsq":        {0.2, 0.95},   // near capacity but 3.4×: kept
	})
	apart, rest := SetApart(sums, results.ColMeanLatency)
	if len(apart) != 1 || apart[0].Policy != "edge-first" || len(rest) != len(sums)-1 {
		t.Fatalf("apart %v, rest %d of %d; want edge-first alone", names(apart), len(rest), len(sums))
	}
	c := ApartCaption(apart, testLegend, results.ColMeanLatency)
	for _, want := range []string{"edge-first at 100 (1.95)", "≥ 0.9", "5 times the median"} {
		if !strings.Contains(c, want) {
			t.Errorf("caption %q lacks %q", c, want)
		}
	}
	// Alone in its cell, a point has nothing to be far above.
	if a, _ := SetApart(sums[len(sums)-1:], results.ColMeanLatency); len(a) != 0 {
		t.Errorf("a cell of one: %v set apart", names(a))
	}
}

func names(ss []results.Summary) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Policy)
	}
	return out
}

// TestStableFigureSetsApart: the *_stable figure of a sweep whose
// edge-first is near capacity at one load fits its axis to the others,
// draws edge-first's point at its top with the value written beside it,
// and says so in its caption.
func TestStableFigureSetsApart(t *testing.T) {
	sums := append(sweepCell(80, map[string][2]float64{"hybrid": {0.055, 0.5}, "jsq-s": {0.052, 0.5}, "edge-first": {0.069, 0.8}}),
		sweepCell(100, map[string][2]float64{"hybrid": {0.060, 0.6}, "jsq-s": {0.056, 0.6}, "edge-first": {1.95, 0.998}})...)
	var st SweepFigure
	for _, f := range SweepFigures(sums, testLegend, "arrivals.rate", nil, nil) {
		if f.File == "mean_latency_stable" {
			st = f
		}
	}
	if st.Redundant || !st.opts.SetApart || st.opts.LogY || !strings.Contains(st.Caption, "edge-first at 100 (1.95)") {
		t.Fatalf("stable figure: redundant %v, set apart %v, log %v, caption %q", st.Redundant, st.opts.SetApart, st.opts.LogY, st.Caption)
	}
	f := figure{FigureOptions: st.opts, Legend: testLegend, Series: buildSeries(sums, testLegend, pickColumn(results.ColMeanLatency), false)}
	apart, _ := SetApart(sums, results.ColMeanLatency)
	markApart(f.Series, apart)
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
}

// TestDiffSymLog: differences of a few ms beside one of seconds take a
// symmetric log axis whose linear part holds the small ones; differences
// of one size keep a linear axis.
func TestDiffSymLog(t *testing.T) {
	d := func(p string, v, diff float64) results.Difference {
		return results.Difference{Policy: p, Value: v, Diff: diff, CI95: math.Abs(diff) / 20, Pairs: 10}
	}
	wide := []results.Difference{d("hybrid", 10, 0.0015), d("hybrid", 100, 0.004), d("jsq", 10, 0.028), d("jsq", 100, 0.025),
		d("oracle", 10, -0.0009), d("oracle", 100, -0.003), d("edge-first", 10, 0), d("edge-first", 100, 1.9)}
	c := DiffSymLog(wide)
	if c != 0.002 {
		t.Fatalf("DiffSymLog = %g, want half the median |difference| (4 ms), 2 ms", c)
	}
	sl := axis.SymLog{C: c}
	// The smallest differences are told apart: 1 ms and 1.5 ms lie at
	// least 5% of the axis apart, where a linear axis to 1.9 s puts them
	// 0.03% apart.
	lo, hi := sl.F(-0.0035), sl.F(2)
	if gap := (sl.F(0.0015) - sl.F(0.001)) / (hi - lo); gap < 0.02 {
		t.Errorf("1 ms and 1.5 ms are %.3f of the axis apart", gap)
	}
	if c := DiffSymLog([]results.Difference{d("a", 1, 0.002), d("a", 2, 0.004), d("b", 1, -0.003)}); c != 0 {
		t.Errorf("differences of one size: symlog %g, want a linear axis", c)
	}
	for _, x := range []float64{-3, -c, -c / 2, 0, c / 3, c, 7 * c, 1e3} {
		if y := sl.Inv(sl.F(x)); math.Abs(y-x) > 1e-12*math.Max(1, math.Abs(x)) {
			t.Errorf("inv(f(%g)) = %g", x, y)
		}
	}
	ticks := sl.Ticks(-0.004, 2)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if !slices.Contains(labels, "0") || !slices.Contains(labels, "1") || !slices.Contains(labels, "−0.002") {
		t.Errorf("symlog labels %q: want 0, 1 and −0.002 among them", labels)
	}
	if !strings.Contains(DiffNote(wide, testLegend), "linear between −0.002 and 0.002") {
		t.Errorf("caption %q does not say how to read the axis", DiffNote(wide, testLegend))
	}
}

// TestLogXShowsZero: a log X axis over 0, 0.01 … 3 keeps the 0 cell, on a
// symmetric log scale linear up to the smallest positive value.
func TestLogXShowsZero(t *testing.T) {
	var sums []results.Summary
	for _, v := range []float64{0, 0.01, 0.03, 0.1, 1, 3} {
		sums = append(sums, summary("hybrid", v, map[string]float64{results.ColMeanLatency: 0.07}, nil))
	}
	f := figure{FigureOptions: FigureOptions{LogX: true}, Legend: testLegend, XTicks: sweptValues(sums),
		Series: buildSeries(sums, testLegend, pickColumn(results.ColMeanLatency), false)}
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
	if !SweepLogX("observation.period", sweptValues(sums)) || SweepLogX("arrivals.rate", []float64{10, 200}) {
		t.Error("SweepLogX: want log for 0.01 … 3 s, linear for 10 … 200 tasks/s")
	}
}

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
	text := SweepCaption + "\nNot shown, unstable in some cell: random."
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
