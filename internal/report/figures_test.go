package report

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// TestAtCriticalLoad: a point is critical when some tier's load interval
// reaches 1 (1% without an interval) and the tier is not shown unstable
// (results.Summary.TierUnstable), its mean on either side of 1; unstable
// and clearly stable points are not.
func TestAtCriticalLoad(t *testing.T) {
	for _, tc := range []struct {
		name     string
		util, ci float64
		unstable bool
		want     bool
	}{
		{"interval reaches 1", 0.9986, 0.0027, false, true},
		{"interval below 1", 0.9996, 0.0003, false, false},
		{"unstable", 1.2, 0.01, true, false},
		{"over 1, not shown unstable", 1.01, 0.5, false, true},
		{"no interval, within 1%", 0.995, math.NaN(), false, true},
		{"no interval, further", 0.98, math.NaN(), false, false},
	} {
		s := summary("edge-first", 100, map[string]float64{"util_edge": tc.util, "util_local": 0.1}, map[string]float64{"util_edge": tc.ci, "util_local": 0})
		s.Unstable = tc.unstable
		if got := AtCriticalLoad(s); got != tc.want {
			t.Errorf("%s: load %g ± %g: critical %v, want %v", tc.name, tc.util, tc.ci, got, tc.want)
		}
	}
}

// TestSweepFiguresList: the figures a sweep draws, by file, with the
// *_stable ones leaving out the unstable and the critical points, naming
// them, and marked redundant when nothing was left out.
func TestSweepFiguresList(t *testing.T) {
	sums := sweepSummaries()
	for i := range sums { // jsq at 100 is critical: its local load's interval reaches 1
		if sums[i].Policy == "jsq" && sums[i].Value == 100 {
			sums[i].Mean[results.Index(cols, "util_local")], sums[i].CI95[results.Index(cols, "util_local")] = 0.998, 0.005
		}
	}
	figs := SweepFigures(sums, testLegend, "arrivals.rate", []string{"local", "edge", "cloud"}, nil)
	var files []string
	for _, f := range figs {
		files = append(files, f.File)
	}
	if want := []string{"mean_latency", "p95_latency", "p99_latency", "p95_large", "mean_latency_stable", "p95_large_stable", "shares"}; !slices.Equal(files, want) {
		t.Fatalf("figures %v, want %v", files, want)
	}
	st := figs[4]
	if st.Redundant || st.Title != "Mean latency vs arrival rate, stable points only" || !st.Options.FitY {
		t.Errorf("stable figure: %+v", st)
	}
	if !strings.Contains(st.Caption, "jsq at 100; edge-first at 150, 200") {
		t.Errorf("stable caption %q does not name what it left out", st.Caption)
	}
	d := memFolder{}
	for _, f := range figs {
		err := f.Draw(d, f.File, "svg", true, false)
		if empty := f.File == "p99_latency" || strings.HasPrefix(f.File, "p95_large"); empty != errors.Is(err, chart.ErrNoData) || !empty && err != nil {
			t.Fatalf("%s: %v (its column is empty: %v)", f.File, err, empty)
		}
	}
	// Nothing unstable or critical: the stable figure is the same as the other.
	var calm []results.Summary
	for _, s := range sweepSummaries() {
		if !s.Unstable {
			calm = append(calm, s)
		}
	}
	if f := SweepFigures(calm, testLegend, "arrivals.rate", nil, nil)[4]; !f.Redundant {
		t.Errorf("stable figure of a calm sweep not marked redundant: %q", f.Caption)
	}
	// A server count reads on a log axis, with ticks at its values.
	for _, f := range SweepFigures(sums, testLegend, "tiers.edge.servers", nil, nil) {
		if !f.Options.LogX {
			t.Errorf("%s of a server sweep: linear x", f.File)
		}
	}
	if ParamName("arrivals.rate") != "arrival rate" || ParamName("tiers.edge.servers") != "edge servers" {
		t.Errorf("ParamName: %q, %q", ParamName("arrivals.rate"), ParamName("tiers.edge.servers"))
	}
}

// TestSweptTicksOnALogAxis: the swept values label a log axis when they
// are spread out there, not when they crowd.
func TestSweptTicksOnALogAxis(t *testing.T) {
	if tk := chart.SweptTicks([]float64{1, 2, 3, 4, 6, 8, 12, 16}, true, 0.04); tk == nil || len(tk.Ticks(1, 16)) != 8 {
		t.Errorf("server counts 1 … 16 on a log axis: ticks %v, want 8", tk)
	}
	if tk := chart.SweptTicks([]float64{100, 101, 1000}, true, 0.04); tk != nil {
		t.Error("100 and 101 on a log axis crowd: want the automatic ticks")
	}
}

// TestShareSeries: the stacked panels take each policy's shares in tier
// order, and mark instability only on the tier whose load is ≥ 1.
func TestShareSeries(t *testing.T) {
	panels := shareSeries(sweepSummaries(), testLegend, []string{"local", "edge", "cloud"}, false)
	if len(panels) != len(allPolicies) || panels[5].Policy != "edge-first" {
		t.Fatalf("%d panels, the sixth %q; want one per policy in legend order", len(panels), panels[5].Policy)
	}
	p := panels[5]
	if !slices.Equal(p.X, []float64{10, 20, 40, 60, 80, 100, 120, 150, 200}) {
		t.Errorf("x %v", p.X)
	}
	for i, x := range p.X {
		if sum := p.Share[0][i] + p.Share[1][i] + p.Share[2][i]; math.Abs(sum-1) > 1e-12 {
			t.Errorf("x=%g: shares add up to %g", x, sum)
		}
		if p.Unstable[0][i] || p.Unstable[2][i] || p.Unstable[1][i] != (x >= 150) {
			t.Errorf("x=%g: unstable marks %v %v %v, want only the edge's, at 150 and 200", x, p.Unstable[0][i], p.Unstable[1][i], p.Unstable[2][i])
		}
	}
	if err := PlotShares(memFolder{}, "s", "png", nil, testLegend, []string{"edge"}, chart.FigureOptions{}); !errors.Is(err, chart.ErrNoData) {
		t.Errorf("no summaries: %v, want chart.ErrNoData", err)
	}
}
