package results

import "math"

// Summary aggregates the replicates of one (experiment, param, value,
// policy) cell: one summary.csv row.
type Summary struct {
	Experiment string
	Param      string  // "" without a sweep
	Value      float64 // NaN without a sweep
	Policy     string  // or, in the mape experiment, the estimator
	Runs       int     // replicates in the cell

	// Mean holds, per column, the mean over the replicates that have the
	// value; CI95 the half-width of its 95% Student-t interval (NaN with
	// fewer than two such replicates). NaN in Mean: missing in every run.
	Mean, CI95 Metrics

	// Unstable is true when some tier's mean offered load (Mean.Util) is
	// ≥ 1: the tier's queue grows without bound, so the cell's latencies
	// depend on the run length and are not a steady state.
	Unstable bool
}

// Summarize groups runs by (experiment, param, value, policy), in order of
// first appearance so that the output does not depend on map order, and
// aggregates each group. Runs with fewer Share/Util entries than the
// widest run of their group count as missing for those tiers.
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
	ntiers := 0
	for _, r := range g {
		ntiers = max(ntiers, len(r.Share), len(r.Util))
	}
	vecs := make([][]float64, len(g))
	for i, r := range g {
		vecs[i] = r.Metrics(ntiers).Vector()
	}
	width := len(vecs[0])
	mean, ci := make([]float64, width), make([]float64, width)
	col := make([]float64, len(g))
	for j := range width {
		for i := range vecs {
			col[i] = vecs[i][j]
		}
		mean[j], ci[j], _ = MeanCI95(col)
	}
	s := Summary{
		Experiment: g[0].Experiment, Param: g[0].Param, Value: g[0].Value, Policy: g[0].Policy,
		Runs: len(g),
		Mean: metricsFromVector(mean, ntiers), CI95: metricsFromVector(ci, ntiers),
	}
	for _, u := range s.Mean.Util {
		if u >= 1 { // NaN compares false: an unknown load is not unstable
			s.Unstable = true
		}
	}
	return s
}
