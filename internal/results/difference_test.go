package results

import (
	"math"
	"strings"
	"testing"
)

// TestCompareTo pairs by (cell, replicate): a replicate the baseline lacks
// is left out, and the differences are those of the pairs.
func TestCompareTo(t *testing.T) {
	var runs []Run
	add := func(pol string, value float64, seed int, mean float64) {
		runs = append(runs, run("e", pol, value, seed, mean, nil, []float64{0.5, 0.5}))
	}
	for seed, base := range []float64{1, 2, 3} {
		add("base", 10, seed, base)
		add("a", 10, seed, base+0.5)  // +0.5 in every pair
		add("b", 10, seed, base-0.25) // −0.25
		add("base", 20, seed, 10*base)
		add("a", 20, seed, 10*base)
	}
	add("a", 10, 7, 100) // no baseline replicate 7: not a pair
	ds, err := CompareTo(runs, "base", ColMeanLatency)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 3 {
		t.Fatalf("%d differences, want 3: %+v", len(ds), ds)
	}
	want := []struct {
		pol     string
		value   float64
		diff    float64
		verdict string
	}{{"a", 10, 0.5, "higher"}, {"b", 10, -0.25, "lower"}, {"a", 20, 0, "identical"}}
	for i, w := range want {
		d := ds[i]
		if d.Policy != w.pol || d.Value != w.value || math.Abs(d.Diff-w.diff) > 1e-12 || d.Pairs != 3 || d.CI95 != 0 || d.Verdict() != w.verdict {
			t.Errorf("difference %d: %+v (%s), want %s at %v: %v, 3 pairs, %s", i, d, d.Verdict(), w.pol, w.value, w.diff, w.verdict)
		}
	}
	if d := ds[0]; d.PolicyMean-d.BaselineMean != d.Diff {
		t.Errorf("means %v − %v ≠ diff %v", d.PolicyMean, d.BaselineMean, d.Diff)
	}
	if _, err := CompareTo(runs, "nope", ColMeanLatency); err == nil || !strings.Contains(err.Error(), "allowed: base, a, b") {
		t.Errorf("unknown baseline: %v", err)
	}
	if _, err := CompareTo(runs, "base", "nope"); err == nil || !strings.Contains(err.Error(), "allowed: tasks") {
		t.Errorf("unknown metric: %v", err)
	}
}
