package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/chart"
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
// marks edge-first's point to be drawn at its top (internal/chart draws it
// so), and says so in its caption.
func TestStableFigureSetsApart(t *testing.T) {
	sums := append(sweepCell(80, map[string][2]float64{"hybrid": {0.055, 0.5}, "jsq-s": {0.052, 0.5}, "edge-first": {0.069, 0.8}}),
		sweepCell(100, map[string][2]float64{"hybrid": {0.060, 0.6}, "jsq-s": {0.056, 0.6}, "edge-first": {1.95, 0.998}})...)
	var st chart.Figure
	for _, f := range SweepFigures(sums, testLegend, "arrivals.rate", nil, nil) {
		if f.File == "mean_latency_stable" {
			st = f
		}
	}
	if st.Redundant || !st.Options.SetApart || st.Options.LogY || !strings.Contains(st.Caption, "edge-first at 100 (1.95)") {
		t.Fatalf("stable figure: redundant %v, set apart %v, log %v, caption %q", st.Redundant, st.Options.SetApart, st.Options.LogY, st.Caption)
	}
	ss := buildSeries(sums, testLegend, pickColumn(results.ColMeanLatency), false)
	apart, _ := SetApart(sums, results.ColMeanLatency)
	markApart(ss, apart)
	var marked []string
	for _, s := range ss {
		for _, p := range s.Points {
			if p.Apart {
				marked = append(marked, fmt.Sprintf("%s at %g", s.Label, p.X))
			}
		}
	}
	if len(marked) != 1 || marked[0] != "edge-first at 100" {
		t.Errorf("set apart: %q, want edge-first at 100 alone", marked)
	}
	if err := PlotMetricWith(memFolder{}, "s", "png", sums, testLegend, results.ColMeanLatency, st.Options); err != nil {
		t.Fatal(err)
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
