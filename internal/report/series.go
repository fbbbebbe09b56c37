package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// buildSeries turns summaries into one series per policy, in order of first
// appearance. pick returns a summary's mean and CI half-width of the plotted
// metric. A point is left out when its swept value or mean is missing, or,
// on a log axis, when its mean is not positive (it has no place there); a
// missing half-width draws no bar. Points are sorted by x so the line does
// not zigzag when a sweep lists its values out of order.
func buildSeries(sums []results.Summary, legend chart.Legend, pick func(results.Summary) (mean, ci float64), logY bool) []chart.Series {
	var out []chart.Series
	index := map[string]int{}
	for _, s := range sums {
		mean, ci := pick(s)
		if !isFinite(s.Value) || !isFinite(mean) || (logY && mean <= 0) {
			continue
		}
		if !isFinite(ci) || ci < 0 {
			ci = 0
		}
		i, ok := index[s.Policy]
		if !ok {
			i = len(out)
			index[s.Policy] = i
			out = append(out, chart.Series{Label: s.Policy})
		}
		out[i].Points = append(out[i].Points, chart.Point{X: s.Value, Y: mean, Low: ci, High: ci, Unstable: s.Unstable})
	}
	for _, sr := range out {
		slices.SortStableFunc(sr.Points, func(a, b chart.Point) int { return cmp.Compare(a.X, b.X) })
	}
	// Legends list policies in the legend's order in every plot, even when
	// a policy's first points were left out (unstable, or not positive on a
	// log axis).
	slices.SortStableFunc(out, func(a, b chart.Series) int { return cmp.Compare(legend.Rank(a.Label), legend.Rank(b.Label)) })
	return out
}

// pickColumn returns a pick function for a summary.csv metric name.
func pickColumn(metric string) func(results.Summary) (float64, float64) {
	return func(s results.Summary) (float64, float64) {
		return s.Get(metric), s.CI(metric)
	}
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
