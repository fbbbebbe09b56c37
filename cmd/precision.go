package cmd

import (
	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/experiment"
)

// precisionFlags are --precision, --max-seeds and --precision-on: run each
// cell until its policies' intervals are narrow enough (docs/experiments.md).
type precisionFlags struct {
	target   float64
	maxSeeds int
	on       string
	batches  int                    // --batches: each run's batch means
	given    func(name string) bool // whether a flag was on the command line
}

// register adds the flags to c when its experiment takes them (offers
// says so); without them, precision always returns nil.
func (f *precisionFlags) register(c *cobra.Command, offers bool) {
	fl := c.Flags()
	f.given = fl.Changed
	if !offers {
		return
	}
	fl.Float64Var(&f.target, "precision", 0, "add replicates to each cell until every policy's 95% half-width is at most this fraction `R` of its estimate (e.g. 0.01; --seeds, at least 10, before the first test)")
	fl.IntVar(&f.maxSeeds, "max-seeds", experiment.DefaultMaxSeeds, "with --precision: the most replicates a cell may take (`N`)")
	fl.StringVar(&f.on, "precision-on", "mean", "with --precision: the `statistic` made precise: mean (latency), p95 or p99 (the median over replicates of the run's percentile, with an order-statistics interval)")
	fl.IntVar(&f.batches, "batches", 0, "split each run's measured tasks, in arrival order, into `K` batches: the interval of its mean latency from the batch means and their lag-1 autocorrelation (batch_ columns; one long run: --seeds 1)")
}

// precision returns the rule of the flags for a plan of seeds replicates,
// nil without --precision; its errors are bad input naming the flag.
func (f *precisionFlags) precision(seeds int) (*experiment.Precision, error) {
	if !f.given("precision") {
		for _, name := range []string{"max-seeds", "precision-on"} {
			if f.given(name) {
				return nil, badInputf("--%s: only with --precision", name)
			}
		}
		return nil, nil
	}
	p, err := experiment.NewPrecision(f.target, seeds, f.maxSeeds, f.on)
	if err != nil {
		return nil, badInput(err)
	}
	return p, nil
}
