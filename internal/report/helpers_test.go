package report

import (
	"flag"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// summary builds a summary of the three test tiers' columns with the given
// means and half-widths by column name; every other column is missing.
func summary(pol string, value float64, mean, ci map[string]float64) results.Summary {
	s := results.Summary{Policy: pol, Value: value, Runs: 2, Cols: cols,
		Mean: results.NaNs(len(cols)), CI95: results.NaNs(len(cols))}
	for k, v := range mean {
		if i := results.Index(cols, k); i >= 0 {
			s.Mean[i] = v
		}
	}
	for k, v := range ci {
		if i := results.Index(cols, k); i >= 0 {
			s.CI95[i] = v
		}
	}
	return s
}

// testLegend is the paper's eight in registry order.
var testLegend = chart.Legend{Labels: allPolicies, Policies: allPolicies}

// -update rewrites golden files where a package has them; this one has
// none, but every package with tests takes the flag.
var _ = flag.Bool("update", false, "rewrite golden files (this package has none)")

var tiers = []string{"local", "edge", "cloud"}

var cols = results.RunColumns(results.Layout{Tiers: tiers})
