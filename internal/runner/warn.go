package runner

import (
	"fmt"
	"time"

	"github.com/offload-sim/offload/internal/experiment"
)

// Thresholds of planWarnings.
const (
	// secondsPerTask is a task's simulation cost for the estimate: above
	// BenchmarkEngine's cost a task with a cheap policy, for hybrid's
	// estimator and the bookkeeping around a run (docs/performance.md).
	secondsPerTask = 0.5e-6
	// secondsPerProgramTask is a task's cost under an exec policy: about
	// a Python example's round trip per decision (docs/performance.md).
	secondsPerProgramTask = 50e-6
	// longRun is the estimated wall time past which a plan is worth a
	// warning: long enough that a slip (a zero too many) is costly.
	longRun = 10 * time.Minute
	// minMeasured is the fewest measured tasks per run whose statistics
	// mean anything: below it a P95 rests on fewer than 50 tasks, and the
	// warmup transient is a large share of the mean.
	minMeasured = 1000
)

// planWarnings says, before anything runs, whether plan will take very long
// on workers parallel runs (shard: this machine's part of it) or whose runs
// are too short to mean anything. It warns; the caller decides whether and
// where to say it (the library does not print).
func planWarnings(plan *experiment.Plan, workers int, shard experiment.Shard) []string {
	sc := plan.Scenario
	est := sc.Estimate()
	var ws []string
	arrivals := est.Arrivals
	if !shard.Whole() {
		arrivals /= float64(shard.Count)
	}
	par := float64(max(1, min(workers, est.Runs)))
	cost := secondsPerTask
	if n := plan.Programs(); n > 0 { // their share of the runs pays a round trip per task
		share := float64(n) / float64(len(plan.Policies))
		cost = (1-share)*secondsPerTask + share*secondsPerProgramTask
	}
	if d := time.Duration(arrivals * cost / par * float64(time.Second)); d > longRun {
		ws = append(ws, fmt.Sprintf("%s: about %s of simulation (%.3g tasks over %d runs on %d workers, at ~%g µs a task); --seeds, --tasks or --set sweep.values= make it shorter",
			plan.Name, d.Round(time.Minute), arrivals, est.Runs, int(par), cost*1e6))
	}
	measured, how := float64(sc.Tasks), "tasks"
	if sc.Tasks == 0 && sc.Duration > 0 {
		// The rate of the least loaded cell: a swept rate's smallest value.
		rate := sc.Arrivals.Rate
		if sc.Sweep != nil && sc.Sweep.Param == "arrivals.rate" {
			for _, v := range sc.Sweep.Values {
				rate = min(rate, v)
			}
		}
		measured, how = rate*sc.Duration, fmt.Sprintf("tasks (about: %g s at %g tasks/s)", sc.Duration, rate)
	}
	if measured > 0 && measured < minMeasured {
		ws = append(ws, fmt.Sprintf("%s: %.0f measured %s per run: fewer than %d, too few for the means and tails to mean much",
			plan.Name, measured, how, minMeasured))
	}
	return ws
}
