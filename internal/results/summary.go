package results

import (
	"math"
	"strings"
)

// Summary aggregates the replicates of one (experiment, param, value,
// policy) cell: one summary.csv row.
type Summary struct {
	Experiment string
	Param      string  // "" without a sweep
	Value      float64 // NaN without a sweep
	Policy     string  // or, in the mape experiment, the estimator
	Runs       int     // replicates in the cell

	// Cols are the runs' columns. Mean holds, per column, the mean over the
	// replicates that have the value; CI95 the half-width of its 95%
	// Student-t interval (NaN with fewer than two such replicates). NaN in
	// Mean: missing in every run.
	Cols       []Column
	Mean, CI95 []float64

	// Unstable is true when some tier's offered load (a util_ column) is
	// shown to exceed 1 (see overloaded): the tier's queue grows without
	// bound, so the cell's latencies depend on the run length and are not
	// a steady state.
	Unstable bool

	// Precise marks a summary of a run until precise (--precision): its
	// Precision is the relative half-width the cell's rule reached for
	// this policy, PrecisionMet whether the whole cell met the target
	// (summary.csv's precision and precision_met, present only then).
	Precise      bool
	Precision    float64
	PrecisionMet bool
}

// TierUnstable reports whether the tier of util_ column j is one the
// cell's instability rests on: the cell is Unstable and the tier's mean
// offered load is ≥ 1. It reads the same from summary.csv as from the runs.
func (s Summary) TierUnstable(j int) bool {
	return s.Unstable && j >= 0 && j < len(s.Cols) && strings.HasPrefix(s.Cols[j].Name, "util_") && s.Mean[j] >= 1
}

// Get returns the mean of the named column, NaN if there is none.
func (s Summary) Get(name string) float64 {
	if i := Index(s.Cols, name); i >= 0 {
		return s.Mean[i]
	}
	return math.NaN()
}

// CI returns the 95% half-width of the named column, NaN if there is none.
func (s Summary) CI(name string) float64 {
	if i := Index(s.Cols, name); i >= 0 {
		return s.CI95[i]
	}
	return math.NaN()
}

// Summarize groups runs by (experiment, param, value, policy), in order of
// first appearance so that the output does not depend on map order, and
// aggregates each group column by column. Runs of one group share their
// columns.
func Summarize(runs []Run) []Summary {
	type key struct {
		exp, param, policy string
		value              uint64
	}
	var order []key
	groups := map[key][]Run{}
	for _, r := range runs {
		k := key{r.Experiment, r.Param, r.Policy, valueKey(r.Value)}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	all := make([][]Run, len(order))
	for i, k := range order {
		all[i] = groups[k]
	}
	noise := pooledNoise(all)
	sums := make([]Summary, len(order))
	for i, g := range all {
		sums[i] = summarizeGroup(g)
		sums[i].Unstable = overloaded(g, noise)
	}
	return sums
}

// valueKey makes a map key of a swept value: every NaN (no sweep) is one
// key, and −0 equals +0 as it does under ==.
func valueKey(v float64) uint64 {
	if math.IsNaN(v) {
		return math.Float64bits(math.NaN())
	}
	return math.Float64bits(v + 0)
}

func summarizeGroup(g []Run) Summary {
	cols := g[0].Cols
	mean, ci := make([]float64, len(cols)), make([]float64, len(cols))
	col := make([]float64, len(g))
	t975 := map[int]float64{} // by count: the columns mostly share one
	for j := range cols {
		for i, r := range g {
			col[i] = math.NaN()
			if j < len(r.Values) {
				col[i] = r.Values[j]
			}
		}
		m, sd, n := meanSD(col)
		mean[j], ci[j] = m, math.NaN()
		if n >= 2 {
			t, ok := t975[n]
			if !ok {
				t = TQuantile975(n - 1)
				t975[n] = t
			}
			ci[j] = t * sd / math.Sqrt(float64(n))
		}
	}
	s := Summary{
		Experiment: g[0].Experiment, Param: g[0].Param, Value: g[0].Value, Policy: g[0].Policy,
		Runs: len(g), Cols: cols, Mean: mean, CI95: ci,
	}
	return s
}
