package report

import (
	"errors"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// The per-class figures: listed only when the summaries have class
// columns, the deadline misses only when a class has a deadline, one panel
// per class; each draws.
func TestClassFigures(t *testing.T) {
	layout := results.Layout{Tiers: []string{"edge"}, Classes: []string{"fast", "slow"}}
	ccols := results.RunColumns(layout)
	var sums []results.Summary
	for _, v := range []float64{10, 50, 100} {
		for k, pol := range []string{"hybrid", "jsq"} {
			s := results.Summary{Policy: pol, Value: v, Runs: 2, Cols: ccols, Mean: results.NaNs(len(ccols)), CI95: results.NaNs(len(ccols))}
			set := func(c string, m float64) { s.Mean[results.Index(ccols, c)], s.CI95[results.Index(ccols, c)] = m, m/10 }
			set(results.ColMeanLatency, 0.05*v)
			set(results.ClassLatencyCol("fast"), 0.01*v*float64(k+1))
			set(results.ClassP95Col("fast"), 0.02*v)
			set(results.ClassDeadlineMissCol("fast"), 0.001*v)
			set(results.ClassLatencyCol("slow"), 0.1*v)
			set(results.ClassP95Col("slow"), 0.3*v)
			set(results.ClassDeadlineMissCol("slow"), 0)
			sums = append(sums, s)
		}
	}
	stems := func(figs []chart.Figure) (out []string) {
		for _, f := range figs {
			if slices.Contains(ClassFigures(), f.File) {
				out = append(out, f.File)
			}
		}
		return out
	}
	if got := ClassesOf(sums, []string{"slow"}); !slices.Equal(got, []Class{{"fast", false}, {"slow", true}}) {
		t.Errorf("ClassesOf: %+v", got)
	}
	if got := stems(SweepFigures(sums, testLegend, "arrivals.rate", nil, ClassesOf(sums, nil))); !slices.Equal(got, []string{ClassLatencyFigure, ClassP95Figure}) {
		t.Errorf("classes without a deadline: %v", got)
	}
	figs := SweepFigures(sums, testLegend, "arrivals.rate", nil, ClassesOf(sums, []string{"fast"}))
	if got := stems(figs); !slices.Equal(got, ClassFigures()) {
		t.Errorf("a class with a deadline: %v", got)
	}
	m := memFolder{}
	for _, f := range figs {
		if err := f.Draw(m, f.File, "png", true, true); err != nil && !errors.Is(err, chart.ErrNoData) {
			t.Errorf("%s: %v", f.File, err)
		}
	}
	for _, f := range ClassFigures() {
		if len(m[f+".png"]) == 0 {
			t.Errorf("%s.png not drawn", f)
		}
	}
	// Without classes: none, whatever the scenario says of deadlines.
	plain := sweepSummaries()
	if got := stems(SweepFigures(plain, testLegend, "arrivals.rate", nil, ClassesOf(plain, []string{"fast"}))); len(got) != 0 {
		t.Errorf("no class columns: %v", got)
	}
}

func TestScenarioDeadlines(t *testing.T) {
	got, err := ScenarioDeadlines([]byte("classes:\n  - {name: a, share: 0.5, deadline: 0.1}\n  - {name: b, share: 0.5}\n"))
	if err != nil || !slices.Equal(got, []string{"a"}) {
		t.Errorf("deadlines %v, %v; want [a]", got, err)
	}
	if got, err := ScenarioDeadlines([]byte("tiers: []\n")); err != nil || got != nil {
		t.Errorf("no classes: %v, %v", got, err)
	}
}
