package results

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/quantile"
)

var testCols = RunColumns(Layout{Tiers: []string{"t0", "t1"}})

// run makes a run of two tiers; a missing share or util is NaN.
func run(exp, policy string, value float64, seed int, mean float64, share, util []float64) Run {
	vals := map[string]float64{ColTasks: 100, ColMeanLatency: mean, ColP50Latency: mean, ColP95Latency: mean, ColP99Latency: mean,
		ColMaxLatency: mean, ColMeanWait: mean, ColMeanLarge: mean, ColP95Large: mean}
	for i, x := range share {
		vals[ShareCol([]string{"t0", "t1"}[i])] = x
	}
	for i, x := range util {
		vals[UtilCol([]string{"t0", "t1"}[i])] = x
	}
	r := NewRun(testCols, vals)
	r.Experiment, r.Param, r.Value, r.Policy, r.Seed = exp, "arrivals.rate", value, policy, seed
	return r
}

func TestSummarizeGroupsInFirstAppearanceOrder(t *testing.T) {
	nan := math.NaN()
	runs := []Run{
		run("e", "jsq", 10, 0, 1, nil, nil),
		run("e", "hybrid", 10, 0, 1, nil, nil),
		run("e", "jsq", 20, 0, 1, nil, nil),
		run("e", "jsq", 10, 1, 1, nil, nil),
		{Experiment: "e", Value: nan, Policy: "jsq", Cols: testCols, Values: NaNs(len(testCols))},
		{Experiment: "e", Value: nan, Policy: "jsq", Seed: 1, Cols: testCols, Values: NaNs(len(testCols))},
		run("e", "jsq", math.Copysign(0, -1), 0, 1, nil, nil),
		run("e", "jsq", 0, 1, 1, nil, nil),
	}
	got := Summarize(runs)
	want := []struct {
		policy string
		value  float64
		runs   int
	}{{"jsq", 10, 2}, {"hybrid", 10, 1}, {"jsq", 20, 1}, {"jsq", nan, 2}, {"jsq", 0, 2}}
	if len(got) != len(want) {
		t.Fatalf("got %d summaries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Policy != w.policy || !same(g.Value, w.value, 0) || g.Runs != w.runs {
			t.Errorf("summary %d = (%s, %v, %d runs), want (%s, %v, %d runs)", i, g.Policy, g.Value, g.Runs, w.policy, w.value, w.runs)
		}
	}
}

func TestSummarizeMeansAndIntervals(t *testing.T) {
	nan := math.NaN()
	var runs []Run
	for i, m := range []float64{1, 2, 3, 4, 5} {
		r := run("e", "hybrid", 40, i, m, []float64{0.2 * m, 1 - 0.2*m}, []float64{0.5, 0.1 * m})
		r.Set(ColMAPE, []float64{10, nan, 20, nan, 30}[i]) // only estimator runs have it
		runs = append(runs, r)
	}
	s := Summarize(runs)
	if len(s) != 1 {
		t.Fatalf("got %d summaries, want 1", len(s))
	}
	g := s[0]
	t5 := 2.776445105 * math.Sqrt(2.5) / math.Sqrt(5) // t_{0.975,4}·sd/√n for 1..5
	t3 := 4.302652730 * 10 / math.Sqrt(3)             // 10,20,30: sd 10
	checks := []struct {
		name      string
		got, want float64
	}{
		{"runs", float64(g.Runs), 5},
		{"tasks mean", g.Get(ColTasks), 100},
		{"tasks ci", g.CI(ColTasks), 0},
		{"mean_latency mean", g.Get(ColMeanLatency), 3},
		{"mean_latency ci", g.CI(ColMeanLatency), t5},
		{"p95_large ci", g.CI(ColP95Large), t5},
		{"mape mean (3 of 5)", g.Get(ColMAPE), 20},
		{"mape ci (3 of 5)", g.CI(ColMAPE), t3},
		{"decision_ns mean (none)", g.Get(ColDecisionNs), nan},
		{"decision_ns ci (none)", g.CI(ColDecisionNs), nan},
		{"share_0 mean", g.Get(ShareCol("t0")), 0.6},
		{"share_0 ci", g.CI(ShareCol("t0")), 0.2 * t5},
		{"share_1 mean", g.Get(ShareCol("t1")), 0.4},
		{"util_1 mean", g.Get(UtilCol("t1")), 0.3},
	}
	for _, c := range checks {
		if !same(c.got, c.want, 1e-9) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if g.Unstable {
		t.Errorf("Unstable = true with means %v", g.Mean)
	}
}

func TestSummarizeUnstable(t *testing.T) {
	cases := []struct {
		name  string
		utils [][]float64
		want  bool
	}{
		// Without shares there are no task counts, and so no test: the
		// point estimate (unstable_test.go tests the test).
		{"below one", [][]float64{{0.5, 0.99}, {0.5, 0.99}}, false},
		{"mean exactly one, no task counts", [][]float64{{0.5, 0.9}, {0.5, 1.1}}, true},
		{"one replicate at one", [][]float64{{0.5, 1}}, true},
		{"one replicate over, mean under", [][]float64{{0.5, 0.8}, {0.5, 1.1}}, false},
		{"missing util", [][]float64{{math.NaN()}, {math.NaN()}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var runs []Run
			for i, u := range c.utils {
				runs = append(runs, run("e", "jsq", 1, i, 1, nil, u))
			}
			if got := Summarize(runs)[0].Unstable; got != c.want {
				t.Errorf("Unstable for utils %v = %v, want %v", c.utils, got, c.want)
			}
		})
	}
}

func TestSummarizeMissingTierValues(t *testing.T) {
	runs := []Run{
		run("e", "jsq", 1, 0, 1, []float64{1}, nil),
		run("e", "jsq", 1, 1, 1, []float64{0.5, 0.5}, []float64{0.2, 0.4}),
	}
	g := Summarize(runs)[0]
	if g.Get(ShareCol("t0")) != 0.75 || g.Get(ShareCol("t1")) != 0.5 || !math.IsNaN(g.CI(ShareCol("t1"))) {
		t.Errorf("missing shares: mean %v ci %v, want [0.75 0.5] with NaN ci for tier 1", g.Mean, g.CI95)
	}
}

// Row reads every declared column from the measurements, in order; each
// column's value matches a hand computation.
func TestRowReadsEveryColumn(t *testing.T) {
	m := &Measured{Tasks: 4, Latencies: quantile.Of([]float64{4, 1, 3, 2}), LargeLatencies: quantile.Of([]float64{4}), SumWait: 2, SumAPE: 1, Predicted: 4,
		Span: 2, TierCount: []int{1, 3}, TierWork: []float64{2, 6}, TierCapacity: []float64{1, 6}, DecisionNs: math.NaN()}
	cols := RunColumns(Layout{Tiers: []string{"a", "b"}})
	got := Row(cols, m)
	want := map[string]float64{ColTasks: 4, ColMeanLatency: 2.5, ColP50Latency: 2, ColP95Latency: 4, ColP99Latency: 4, ColMaxLatency: 4,
		ColMeanWait: 0.5, ColMeanLarge: 4, ColP95Large: 4, ColMAPE: 25, "share_a": 0.25, "share_b": 0.75, "util_a": 1, "util_b": 0.5}
	for i, c := range cols {
		w, ok := want[c.Name]
		if !ok {
			w = math.NaN()
		}
		if !same(got[i], w, 1e-15) {
			t.Errorf("%s = %v, want %v", c.Name, got[i], w)
		}
		if c.Get == nil || c.Name == "" {
			t.Errorf("column %d has no name or getter", i)
		}
	}
	if Index(cols, "share_b") != len(cols)-3 || Index(cols, "share_moon") != -1 {
		t.Errorf("Index: share_b at %d, share_moon at %d", Index(cols, "share_b"), Index(cols, "share_moon"))
	}
}
