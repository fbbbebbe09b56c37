package results

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Difference is one policy against a baseline in one cell: the paired
// per-replicate differences policy − baseline of one metric (docs/design.md
// §8.2), over the replicates where both sides have the value.
type Difference struct {
	Experiment, Param string
	Value             float64 // NaN without a sweep
	Policy, Baseline  string
	Metric            string
	// PolicyMean and BaselineMean are the two sides' means over the pairs
	// used, so that PolicyMean − BaselineMean = Diff.
	PolicyMean, BaselineMean float64
	Diff, CI95               float64 // mean difference and its 95% half-width (NaN below two pairs)
	Pairs                    int
	// Unstable: either side's cell is unstable (Summary.Unstable), so its
	// latencies depend on the run length.
	Unstable bool
}

// Verdict says on which side of zero the interval lies: "lower" (the
// policy is below the baseline: the whole interval under 0), "higher",
// "identical" (equal in every pair: the two made the same decisions), or
// "not separated" (the interval reaches 0, or there are too few pairs).
func (d Difference) Verdict() string {
	switch {
	case d.Pairs >= 2 && d.Diff == 0 && d.CI95 == 0:
		return "identical"
	case d.Pairs < 2 || !isFinite(d.CI95):
		return "not separated"
	case d.Diff+d.CI95 < 0:
		return "lower"
	case d.Diff-d.CI95 > 0:
		return "higher"
	}
	return "not separated"
}

// CompareTo pairs every policy's runs with the baseline's by (cell,
// replicate) and returns, per cell in order of first appearance and per
// policy in its order there, the paired difference of metric. Runs are
// those of one runs.csv. The baseline must be one of the runs' policies
// and metric one of their columns; a cell without the baseline gives no
// rows.
func CompareTo(runs []Run, baseline, metric string) ([]Difference, error) {
	var pols []string
	for _, r := range runs {
		if !slices.Contains(pols, r.Policy) {
			pols = append(pols, r.Policy)
		}
	}
	if !slices.Contains(pols, baseline) {
		return nil, fmt.Errorf("baseline %q is not among the runs' policies (allowed: %s)", baseline, strings.Join(pols, ", "))
	}
	if len(runs) > 0 && Index(runs[0].Cols, metric) < 0 {
		return nil, fmt.Errorf("metric %q is not a runs.csv column (allowed: %s)", metric, strings.Join(Names(runs[0].Cols), ", "))
	}
	type cellKey struct {
		exp, param string
		value      uint64
	}
	var cells []cellKey
	byCell := map[cellKey][]Run{}
	for _, r := range runs {
		k := cellKey{r.Experiment, r.Param, valueKey(r.Value)}
		if _, ok := byCell[k]; !ok {
			cells = append(cells, k)
		}
		byCell[k] = append(byCell[k], r)
	}
	type polKey struct {
		cell   cellKey
		policy string
	}
	unstable := map[polKey]bool{}
	for _, s := range Summarize(runs) {
		unstable[polKey{cellKey{s.Experiment, s.Param, valueKey(s.Value)}, s.Policy}] = s.Unstable
	}
	isUnstable := func(k cellKey, pol string) bool { return unstable[polKey{k, pol}] }
	var out []Difference
	for _, k := range cells {
		group := byCell[k]
		bySeed := map[string]map[int]float64{}
		var order []string
		for _, r := range group {
			if bySeed[r.Policy] == nil {
				bySeed[r.Policy] = map[int]float64{}
				order = append(order, r.Policy)
			}
			bySeed[r.Policy][r.Seed] = r.Get(metric)
		}
		base, ok := bySeed[baseline]
		if !ok {
			continue
		}
		seeds := make([]int, 0, len(base))
		for s := range base {
			seeds = append(seeds, s)
		}
		slices.Sort(seeds)
		for _, pol := range order {
			if pol == baseline {
				continue
			}
			var a, b []float64
			for _, s := range seeds {
				x, ok := bySeed[pol][s]
				if ok && isFinite(x) && isFinite(base[s]) {
					a, b = append(a, x), append(b, base[s])
				}
			}
			d := Difference{Experiment: k.exp, Param: k.param, Value: group[0].Value, Policy: pol, Baseline: baseline, Metric: metric,
				Unstable: isUnstable(k, pol) || isUnstable(k, baseline)}
			d.Diff, d.CI95, d.Pairs = PairedDiff(a, b)
			d.PolicyMean, _, _ = MeanCI95(a)
			d.BaselineMean, _, _ = MeanCI95(b)
			if d.Pairs == 0 {
				d.PolicyMean, d.BaselineMean = math.NaN(), math.NaN()
			}
			out = append(out, d)
		}
	}
	return out, nil
}

// CompareHeader is the header of compare_<metric>.csv: one row per (cell,
// policy), the paired difference policy − baseline and its 95% half-width.
var CompareHeader = []string{"experiment", "param", "value", "policy", "baseline", "metric", "pairs",
	"policy_mean", "baseline_mean", "diff", "diff_ci95", "verdict", "unstable"}

// WriteCompare writes the differences under CompareHeader.
func WriteCompare(w io.Writer, ds []Difference) error {
	return writeTable(w, CompareHeader, len(ds), func(i int) []string {
		d := ds[i]
		return []string{d.Experiment, d.Param, formatFloat(d.Value), d.Policy, d.Baseline, d.Metric, strconv.Itoa(d.Pairs),
			formatFloat(d.PolicyMean), formatFloat(d.BaselineMean), formatFloat(d.Diff), formatFloat(d.CI95), d.Verdict(), formatBool(d.Unstable)}
	})
}
