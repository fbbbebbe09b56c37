package runner

import (
	"fmt"

	"github.com/offload-sim/offload/internal/results"
)

// checkBatches refuses a --batches that cannot make an interval and a
// test of independence (3 batches at least), and --batches with
// --precision, whose replicates already give each cell its interval.
func checkBatches(o Options) error {
	switch {
	case o.Batches == 0:
		return nil
	case o.Batches < 3:
		return BadInputf("--batches %d: at least 3 batches (the interval needs 2, the test of their independence 3; 10 to 30 are usual)", o.Batches)
	case o.Precision != nil:
		return BadInputf("--batches with --precision: one adds replicates, the other splits each run into batches; give one")
	}
	return nil
}

// batchNote is the warning on the runs whose batch means the von Neumann
// test finds correlated: their batch_ci95 is too narrow ("" when none is).
func batchNote(k int, runs []results.Run) string {
	if k == 0 {
		return ""
	}
	n, worst := 0, 0.0
	for _, r := range runs {
		if r.Get(results.ColBatchCorrelated) == 1 {
			n++
			worst = max(worst, r.Get(results.ColBatchLag1))
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d runs have correlated batch means (--batches %d; lag-1 autocorrelation up to %.2f): their batch_ci95 is too narrow; give fewer batches or longer runs (--tasks)",
		n, len(runs), k, worst)
}
