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
	// shown to exceed 1 (TierUnstable): the tier's queue grows without
	// bound, so the cell's latencies depend on the run length and are not a
	// steady state.
	Unstable bool
}

// StabilityLevel is the family-wise level of the instability test: the
// largest chance that a cell none of whose tiers is loaded beyond its
// capacity is flagged unstable.
const StabilityLevel = 0.05

// TierUnstable reports whether the tier of util_ column j is shown to be
// loaded beyond its capacity. The test is one-sided, Student's t over the
// replicates' measured offered loads: the null hypothesis is a mean load
// ≤ 1, rejected at level StabilityLevel/k, k the cell's tiers (Bonferroni,
// so that a cell of many tiers near capacity is not flagged by the chance
// high measure of one of them). The replicates' spread is the run length's
// own measure of noise: a longer run measures the load more closely, and
// a smaller excess over 1 is shown. The standard error is CI95's half-width
// over its t multiplier with Runs − 1 degrees of freedom (a util_ value is
// measured in every run), so that the test reads the same from summary.csv
// as from the runs. With one replicate there is no spread to test against,
// and a load ≥ 1 is flagged.
func (s Summary) TierUnstable(j int) bool { return s.overloadTest()(j) }

// overloadTest returns TierUnstable's test of s's columns; the t quantiles
// it needs are computed at most once.
func (s Summary) overloadTest() func(j int) bool {
	k := 0
	for _, c := range s.Cols {
		if strings.HasPrefix(c.Name, "util_") {
			k++
		}
	}
	t975, crit := math.NaN(), math.NaN()
	return func(j int) bool {
		if j < 0 || j >= len(s.Cols) || !strings.HasPrefix(s.Cols[j].Name, "util_") {
			return false
		}
		mean, ci := s.Mean[j], s.CI95[j]
		switch {
		case !(mean >= 1): // NaN too: an unknown load is not unstable
			return false
		case s.Runs < 2 || !isFinite(ci):
			return true
		case ci == 0:
			return mean > 1
		}
		if math.IsNaN(crit) {
			t975, crit = TQuantile975(s.Runs-1), tQuantile(1-StabilityLevel/float64(k), s.Runs-1)
		}
		return (mean-1)/(ci/t975) > crit
	}
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
	sums := make([]Summary, len(order))
	for i, k := range order {
		sums[i] = summarizeGroup(groups[k])
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
	for j := range cols {
		for i, r := range g {
			col[i] = math.NaN()
			if j < len(r.Values) {
				col[i] = r.Values[j]
			}
		}
		mean[j], ci[j], _ = MeanCI95(col)
	}
	s := Summary{
		Experiment: g[0].Experiment, Param: g[0].Param, Value: g[0].Value, Policy: g[0].Policy,
		Runs: len(g), Cols: cols, Mean: mean, CI95: ci,
	}
	unstable := s.overloadTest()
	for j := range cols {
		if unstable(j) {
			s.Unstable = true
		}
	}
	return s
}
