package report

import (
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/results"
)

func sum(pol string, v, mean, ci float64, unstable bool) results.Summary {
	s := summary(pol, v, map[string]float64{results.ColP95Latency: mean}, map[string]float64{results.ColP95Latency: ci})
	s.Runs, s.Unstable = 5, unstable
	return s
}

func TestBuildSeries(t *testing.T) {
	nan := math.NaN()
	sums := []results.Summary{
		sum("jsq", 40, 4, 0.5, false),
		sum("hybrid", 40, 2, nan, false), // one replicate: no bar
		sum("jsq", 10, 1, 0.1, false),    // listed out of order
		sum("jsq", 80, 9, 1, true),
		sum("hybrid", nan, 3, 0, false),  // no swept value
		sum("hybrid", 10, nan, 0, false), // metric missing
		sum("hybrid", 80, 0, 0, false),   // zero: kept on a linear axis only
	}
	pick := pickColumn("p95_latency_s")
	e := func(l float64) struct{ Low, High float64 } { return struct{ Low, High float64 }{l, l} }
	// Series come in the canonical policy order (hybrid before jsq), whatever
	// the order of the summaries.
	want := []series{
		{Name: "hybrid", XYs: plotter.XYs{{X: 40, Y: 2}, {X: 80, Y: 0}},
			Err: plotter.YErrors{e(0), e(0)}, Unstable: []bool{false, false}},
		{Name: "jsq", XYs: plotter.XYs{{X: 10, Y: 1}, {X: 40, Y: 4}, {X: 80, Y: 9}},
			Err: plotter.YErrors{e(0.1), e(0.5), e(1)}, Unstable: []bool{false, false, true}},
	}
	if got := buildSeries(sums, testLegend, pick, false); !reflect.DeepEqual(got, want) {
		t.Errorf("linear:\ngot  %+v\nwant %+v", got, want)
	}
	want[0].XYs, want[0].Err, want[0].Unstable = want[0].XYs[:1], want[0].Err[:1], want[0].Unstable[:1]
	if got := buildSeries(sums, testLegend, pick, true); !reflect.DeepEqual(got, want) {
		t.Errorf("log (zero dropped):\ngot  %+v\nwant %+v", got, want)
	}
}

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

func TestTicks(t *testing.T) {
	cases := []struct {
		name     string
		min, max float64
		log      bool
		want     []string
	}{
		{"linear 10–200", 10, 200, false, []string{"50", "100", "150", "200"}},
		{"linear 0–0.32", 0, 0.32, false, []string{"0.0", "0.1", "0.2", "0.3"}},
		{"log under a decade", 0.15, 0.9, true, []string{"0.2", "0.5"}},
		{"log 0.02–6", 0.02, 6, true, []string{"0.02", "0.05", "0.1", "0.2", "0.5", "1", "2", "5"}},
		{"log wide", 1e-3, 50, true, []string{"0.001", "0.01", "0.1", "1", "10", "50"}},
		{"log wide, ends labelled", 0.02, 120, true, []string{"0.02", "0.1", "1", "10", "100"}},
		{"log very wide, ends labelled", 3e-9, 0.6, true, []string{"5e-09", "1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "0.5"}},
		{"log very wide", 1e-9, 1, true, []string{"1e-09", "1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1"}},
	}
	for _, c := range cases {
		var got []string
		ticks := axis.LinearTicks{}.Ticks(c.min, c.max)
		if c.log {
			ticks = axis.LogTicks{}.Ticks(c.min, c.max)
		}
		for _, tk := range ticks {
			if tk.Value < c.min || tk.Value > c.max {
				t.Errorf("%s: tick %v outside [%v, %v]", c.name, tk.Value, c.min, c.max)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}
}

func scalarClose(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
