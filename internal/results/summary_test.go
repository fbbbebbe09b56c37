package results

import (
	"math"
	"testing"
)

func run(exp, policy string, value float64, seed int, mean float64, share, util []float64) Run {
	nan := math.NaN()
	return Run{Experiment: exp, Param: "arrivals.rate", Value: value, Policy: policy, Seed: seed,
		Tasks: 100, MeanLatency: mean, P50Latency: mean, P95Latency: mean, P99Latency: mean,
		MaxLatency: mean, MeanWait: mean, MeanLarge: mean, P95Large: mean, MAPE: nan, DecisionNs: nan,
		Share: share, Util: util}
}

func TestSummarizeGroupsInFirstAppearanceOrder(t *testing.T) {
	nan := math.NaN()
	runs := []Run{
		run("e", "jsq", 10, 0, 1, nil, nil),
		run("e", "hybrid", 10, 0, 1, nil, nil),
		run("e", "jsq", 20, 0, 1, nil, nil),
		run("e", "jsq", 10, 1, 1, nil, nil),
		{Experiment: "e", Value: nan, Policy: "jsq"},
		{Experiment: "e", Value: nan, Policy: "jsq", Seed: 1},
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
		r.MAPE = []float64{10, nan, 20, nan, 30}[i] // only estimator runs have it
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
		{"tasks mean", g.Mean.Tasks, 100},
		{"tasks ci", g.CI95.Tasks, 0},
		{"mean_latency mean", g.Mean.MeanLatency, 3},
		{"mean_latency ci", g.CI95.MeanLatency, t5},
		{"p95_large ci", g.CI95.P95Large, t5},
		{"mape mean (3 of 5)", g.Mean.MAPE, 20},
		{"mape ci (3 of 5)", g.CI95.MAPE, t3},
		{"decision_ns mean (none)", g.Mean.DecisionNs, nan},
		{"decision_ns ci (none)", g.CI95.DecisionNs, nan},
		{"share_0 mean", g.Mean.Share[0], 0.6},
		{"share_0 ci", g.CI95.Share[0], 0.2 * t5},
		{"share_1 mean", g.Mean.Share[1], 0.4},
		{"util_1 mean", g.Mean.Util[1], 0.3},
	}
	for _, c := range checks {
		if !same(c.got, c.want, 1e-9) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if g.Unstable {
		t.Errorf("Unstable = true with mean utils %v", g.Mean.Util)
	}
}

func TestSummarizeUnstable(t *testing.T) {
	cases := []struct {
		name  string
		utils [][]float64
		want  bool
	}{
		{"below one", [][]float64{{0.5, 0.99}, {0.5, 0.99}}, false},
		{"mean exactly one", [][]float64{{0.5, 0.9}, {0.5, 1.1}}, true},
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

func TestSummarizeRaggedTiers(t *testing.T) {
	runs := []Run{
		run("e", "jsq", 1, 0, 1, []float64{1}, nil),
		run("e", "jsq", 1, 1, 1, []float64{0.5, 0.5}, []float64{0.2, 0.4}),
	}
	g := Summarize(runs)[0]
	if len(g.Mean.Share) != 2 || g.Mean.Share[0] != 0.75 || g.Mean.Share[1] != 0.5 || !math.IsNaN(g.CI95.Share[1]) {
		t.Errorf("ragged shares: mean %v ci %v, want [0.75 0.5] with NaN ci for tier 1", g.Mean.Share, g.CI95.Share)
	}
}

func TestMetricsColumn(t *testing.T) {
	m := Metrics{MeanLatency: 1.5, Share: []float64{0.25, 0.75}, Util: []float64{0.1, 0.2}}
	tiers := []string{"edge", "cloud"}
	for _, c := range []struct {
		name string
		want float64
		ok   bool
	}{{"mean_latency_s", 1.5, true}, {"share_cloud", 0.75, true}, {"util_edge", 0.1, true}, {"share_moon", math.NaN(), false}} {
		got, ok := m.Column(tiers, c.name)
		if ok != c.ok || !same(got, c.want, 0) {
			t.Errorf("Column(%q) = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if got, want := len(Columns(tiers)), len(m.Vector()); got != want {
		t.Errorf("len(Columns) = %d, len(Vector) = %d; they must align", got, want)
	}
}
