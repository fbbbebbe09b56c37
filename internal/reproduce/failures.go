package reproduce

import (
	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
)

// failuresName is the failures experiment's command, embedded scenario and
// folder.
const failuresName = "failures"

// FailuresSpec is the failures experiment: one slow server of ten and a
// flapping one, with timeouts and a retry, every policy side by side, and
// latency over time through the slow-down.
func failuresSpec() Experiment {
	return Experiment{Spec: runner.Spec{Name: failuresName, Embedded: failuresName,
		Short: "Policies against a slow server, a flapping one, timeouts and retries",
		Long: `Run every policy of the embedded failures scenario (or -f FILE): ten
single-server edges, one slowed to a fifth of its speed for a fixed span,
another failing at random, and a cloud, with a timeout and a retry. The table
and summary.csv give each policy's latency over completed tasks, lost_share,
timeout_share, retry_share and goodput; timeseries.csv (per window and policy,
averaged over replicates) and the figures follow latency through the first
fixed episode, shaded.`,
		Example:      "  offload failures -o results/failures\n  offload failures --window 2 --policy hybrid,jsq,p2c",
		Window:       true,
		DurationMode: true,
		Prepare:      prepareFailures,
		Side:         analysis.SeriesSidecar,
		Outputs:      analysis.FailuresOutputs,
		Files:        analysis.FailuresFiles(),
		Plots:        analysis.FailuresPlots(),
	}}
}

// prepareFailures checks the windows as burst does (duration mode, a
// bounded series).
func prepareFailures(plan *experiment.Plan, a runner.Args) error {
	return prepareSeries(failuresName, plan, a)
}
