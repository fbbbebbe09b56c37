package experiment

import (
	"context"
	"math"
	"testing"
)

// A plan given an earlier plan's runs takes the runs that are the same
// (same cell, policy and options, replicate), labelled as its own, and
// makes the others: its rows are those it would have made alone, value for
// value. A policy with other options, or a cell with another rate, is not
// taken.
func TestMemoTakesOnlyTheSameRuns(t *testing.T) {
	first, err := NewPlan("first", defaultAt(t, 60, 2000, 2, "policies=[hybrid, random]", "sweep={param: arrivals.rate, values: [40, 60]}"))
	if err != nil {
		t.Fatal(err)
	}
	outs, err := first.Execute(context.Background(), Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	memo := NewMemo()
	memo.Add(first, outs)
	second := func() *Plan {
		p, err := NewPlan("second", defaultAt(t, 60, 2000, 2, "name=other",
			"policies=[{name: hybrid, as: h0, epsilon: 0}, random, hybrid]", "sweep={param: arrivals.rate, values: [60, 80]}"))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	alone, err := second().Execute(context.Background(), Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := second()
	made := 0
	withMemo, err := p.Execute(context.Background(), Options{Workers: 2, Progress: func(int, int) { made++ },
		Reuse: func(j Job) (Outcome, bool) { return memo.Lookup(p, j) }})
	if err != nil {
		t.Fatal(err)
	}
	// Taken: random and hybrid at rate 60, both replicates.
	if want := len(p.Jobs()) - 4; made != want {
		t.Errorf("made %d runs, want %d (4 taken from the first plan)", made, want)
	}
	for i := range alone {
		a, b := alone[i].Run, withMemo[i].Run
		same := a.Experiment == b.Experiment && a.Param == b.Param && a.Value == b.Value && a.Policy == b.Policy &&
			a.Seed == b.Seed && len(a.Values) == len(b.Values) && len(a.Cols) == len(b.Cols)
		for k := range a.Values {
			same = same && math.Float64bits(a.Values[k]) == math.Float64bits(b.Values[k])
		}
		if !same {
			t.Errorf("job %+v: with the memo %v %v, alone %v %v", p.Jobs()[i], b.Policy, b.Values, a.Policy, a.Values)
		}
	}
}
