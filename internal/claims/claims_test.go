package claims

import (
	"math"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

func TestLowerVerdicts(t *testing.T) {
	cases := []struct {
		name string
		a, b []float64
		want Verdict
	}{
		{"clearly lower", []float64{1, 1.1, 0.9, 1}, []float64{2, 2.1, 1.9, 2}, Pass},
		{"clearly higher", []float64{3, 3.1, 2.9, 3}, []float64{2, 2.1, 1.9, 2}, Fail},
		{"overlapping", []float64{1, 3, 1, 3}, []float64{2, 2, 2, 2}, Inconclusive},
		{"one pair", []float64{1}, []float64{2}, Inconclusive},
		{"missing pairs skipped", []float64{1, math.NaN(), 1.1, 0.9}, []float64{2, 5, 2.1, 1.9}, Pass},
	}
	for _, c := range cases {
		if got := lower("x", c.a, c.b); got.Verdict != c.want {
			t.Errorf("%s: lower(%v, %v) = %s (diff %v ± %v), want %s", c.name, c.a, c.b, got.Verdict, got.Diff, got.CI95, c.want)
		}
	}
}

func TestCombine(t *testing.T) {
	p, f, i, s := Cell{Verdict: Pass}, Cell{Verdict: Fail}, Cell{Verdict: Inconclusive}, Cell{Verdict: Skipped}
	for _, c := range []struct {
		cells []Cell
		want  Verdict
	}{{[]Cell{p, p}, Pass}, {[]Cell{p, i}, Inconclusive}, {[]Cell{i, f, p}, Fail}, {[]Cell{p, s}, Pass}, {[]Cell{s}, Inconclusive}} {
		if got := combine(c.cells); got != c.want {
			t.Errorf("combine(%v) = %s, want %s", c.cells, got, c.want)
		}
	}
}

// run makes a sweep-load-like run.
func run(v float64, pol string, seed int, lat, large, util float64) results.Run {
	r := results.NewRun(results.RunColumns(results.Layout{Tiers: []string{"t"}}), map[string]float64{results.ColMeanLatency: lat, results.ColP95Large: large,
		"util_t": util, "share_t": 1})
	r.Experiment, r.Param, r.Value, r.Policy, r.Seed = "sweep-load", "arrivals.rate", v, pol, seed
	return r
}

func TestLargeTailSkipsUnstable(t *testing.T) {
	var runs []results.Run
	for s := range 4 {
		e := 0.01 * float64(s)
		runs = append(runs,
			run(10, "hybrid", s, 1, 1+e, 0.5), run(10, "jsq", s, 1, 2+e, 0.5),
			run(20, "hybrid", s, 1, 5+e, 0.5), run(20, "jsq", s, 1, 2+e, 1.5))
	}
	c := LargeTail(runs)
	if c.Verdict != Pass {
		t.Errorf("verdict %s, want PASS (the unstable load is skipped)", c.Verdict)
	}
	cells := c.Comparisons[0].Cells
	if len(cells) != 2 || cells[1].Verdict != Skipped || !strings.Contains(cells[1].Note, "jsq unstable") {
		t.Errorf("cells %+v", cells)
	}
	md := Markdown("Claims", "test", []Claim{c})
	if !strings.Contains(md, "| 2 |") || !strings.Contains(md, "SKIPPED (jsq unstable)") {
		t.Errorf("markdown lacks the verdict table or the skip note:\n%s", md)
	}
}

func TestMeanLatencyFails(t *testing.T) {
	var runs []results.Run
	for s := range 5 {
		e := 0.01 * float64(s)
		runs = append(runs, run(10, "hybrid", s, 2+e, 1, 0.5), run(10, "edge-first", s, 1+e, 1, 0.5), run(10, "model-only", s, 3+e, 1, 0.5))
	}
	if c := MeanLatency(runs); c.Verdict != Fail {
		t.Errorf("hybrid slower than edge-first in every replicate: verdict %s, want FAIL", c.Verdict)
	}
}

func TestRanking(t *testing.T) {
	mk := func(pol string, lat ...float64) []results.Run {
		var rs []results.Run
		for s, l := range lat {
			r := results.NewRun(results.RunColumns(results.Layout{}), map[string]float64{results.ColMeanLatency: l})
			r.Value, r.Policy, r.Seed = math.NaN(), pol, s
			rs = append(rs, r)
		}
		return rs
	}
	sim := append(append(mk("a", 1, 1.1, 0.9), mk("b", 2, 2.1, 1.9)...), mk("c", 2, 2.2, 1.8)...)
	same := append(append(mk("a", 1.1, 1.2, 1.0), mk("b", 2.2, 2.3, 2.1)...), mk("c", 2.5, 2.6, 2.4)...)
	flipped := append(append(mk("a", 3, 3.1, 2.9), mk("b", 2.2, 2.3, 2.1)...), mk("c", 2, 2.2, 1.8)...)
	if c := Ranking(same, sim); c.Verdict != Pass {
		t.Errorf("same order: %s, want PASS (%+v)", c.Verdict, c.Comparisons[0].Cells)
	}
	if c := Ranking(flipped, sim); c.Verdict != Fail {
		t.Errorf("a and b swapped: %s, want FAIL", c.Verdict)
	}
}

// Claim 1 marks a cell against an unstable policy, and the exploration
// evidence is rendered beside the verdict without counting toward it.
func TestMeanLatencyEvidence(t *testing.T) {
	var runs, explore []results.Run
	for seed := range 3 {
		d := 0.01 * float64(seed)
		runs = append(runs, run(60, "hybrid", seed, 1+d, 1, 0.5), run(60, "edge-first", seed, 2+d, 1, 1.2), run(60, "model-only", seed, 3+d, 1, 0.5))
		explore = append(explore, run(60, "hybrid", seed, 1+d, 1, 0.5), run(60, EpsZero, seed, 5-d, 1, 0.5), run(60, "edge-first", seed, 2+d, 1, 1.2))
	}
	c := MeanLatency(runs)
	if c.Verdict != Pass || c.Comparisons[0].Cells[0].Note != UnstableNote("edge-first") || c.Comparisons[1].Cells[0].Note != "" {
		t.Errorf("claim 1 %s, notes %q, %q; want PASS with edge-first marked unstable", c.Verdict, c.Comparisons[0].Cells[0].Note, c.Comparisons[1].Cells[0].Note)
	}
	c.Evidence = Exploration(explore)
	if len(c.Evidence) != 2 || c.Evidence[1].Cells[0].Verdict != Fail {
		t.Fatalf("evidence %+v; want two comparisons, hybrid-eps0 higher than edge-first", c.Evidence)
	}
	md := Markdown("t", "p", []Claim{c})
	if !strings.Contains(md, "evidence, not counted") || !strings.Contains(md, "| hybrid-eps0 higher (edge-first unstable") || strings.Contains(md, "| FAIL") {
		t.Errorf("markdown:\n%s", md)
	}
	if Exploration(nil) != nil {
		t.Error("Exploration(nil) should be nil: no runs, no evidence")
	}
}

// ExplainByExploration names a load where hybrid loses to edge-first only
// because it explores.
func TestExplainByExploration(t *testing.T) {
	var runs, explore []results.Run
	for seed := range 3 {
		d := 0.01 * float64(seed)
		runs = append(runs, run(10, "hybrid", seed, 1.1+d, 1, 0.1), run(10, "edge-first", seed, 1+d, 1, 0.1), run(10, "model-only", seed, 1.2+d, 1, 0.1),
			run(80, "hybrid", seed, 1+d, 1, 0.5), run(80, "edge-first", seed, 2+d, 1, 0.5), run(80, "model-only", seed, 3+d, 1, 0.5))
		explore = append(explore, run(10, "hybrid", seed, 1.1+d, 1, 0.1), run(10, EpsZero, seed, 1+d, 1, 0.1), run(10, "edge-first", seed, 1+d, 1, 0.1),
			run(80, "hybrid", seed, 1+d, 1, 0.5), run(80, EpsZero, seed, 1+d, 1, 0.5), run(80, "edge-first", seed, 2+d, 1, 0.5))
	}
	c := MeanLatency(runs)
	c.Evidence = Exploration(explore)
	why := ExplainByExploration(c)
	if c.Verdict != Fail || !strings.Contains(why, "(arrivals.rate = 10)") {
		t.Errorf("claim 1 %s, explanation %q; want FAIL explained at rate 10 alone", c.Verdict, why)
	}
	c.Evidence = nil
	if why := ExplainByExploration(c); why != "" {
		t.Errorf("without evidence: %q", why)
	}
}

// shadowRow is one mape-experiment row: an estimator's error in one run,
// split by whether the chosen tier had an idle server.
func shadowRow(v float64, est string, seed int, mape, idle, busy, share float64) results.Run {
	return results.Run{Param: "arrivals.rate", Value: v, Policy: est, Seed: seed, Cols: results.ShadowColumns(),
		Values: []float64{mape, 0, idle, busy, share}}
}

func TestMAPEIdleSplitEvidence(t *testing.T) {
	var rows []results.Run
	for s := range 3 {
		e := 0.1 * float64(s) // replicate noise, so that intervals have a width
		for _, v := range []float64{60, 100} {
			sh := 0.75 - (v-60)/160 + e/10 // 75% idle at 60 tasks/s, 50% at 100
			rows = append(rows,
				shadowRow(v, "hybrid", s, 36+e, 39+e, 27+e, sh),
				shadowRow(v, "model-only", s, 36+e, 39+e, 28+e, sh),
				shadowRow(v, "queue-only", s, 31+e, 29+e, 35+e, sh))
		}
	}
	c := MAPE(rows)
	if c.Verdict != Fail {
		t.Errorf("verdict %s, want FAIL (queue-only lower)", c.Verdict)
	}
	if len(c.Evidence) != 3 {
		t.Fatalf("%d evidence comparisons, want 3 (idle: vs queue-only; busy: vs queue-only, vs model-only)", len(c.Evidence))
	}
	for i, want := range []Verdict{Fail, Pass, Pass} {
		if got := c.Evidence[i].Cells[0].Verdict; got != want {
			t.Errorf("evidence %d (%s): %s, want %s", i, c.Evidence[i].Title, got, want)
		}
	}
	if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "51–76% of the tasks, by load") {
		t.Errorf("notes %q: want the idle share's range, 51–76%%", c.Notes)
	}
	// Rows from before the split (empty cells) give no evidence, not zeros.
	nan := math.NaN()
	for i := range rows {
		rows[i].Values[2], rows[i].Values[3], rows[i].Values[4] = nan, nan, nan
	}
	if c := MAPE(rows); len(c.Evidence) != 0 || len(c.Notes) != 0 {
		t.Errorf("without the split: evidence %v, notes %q; want none", c.Evidence, c.Notes)
	}
}
