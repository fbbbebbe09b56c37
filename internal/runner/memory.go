package runner

import (
	"fmt"

	"github.com/offload-sim/offload/internal/experiment"
)

// seriesBytes is what the burst experiment keeps per task for its time
// series (arrival, latency, tier), beyond the latencies Estimate counts.
const seriesBytes = 24

// CheckMemory refuses a plan whose runs, as many at once as there are
// workers, would need more memory than limit (0: no limit), before anything
// is written: the Go runtime's out-of-memory crash is not an answer. The
// message names what drives the estimate and what to change.
func CheckMemory(plan *experiment.Plan, workers int, limit float64) error {
	if limit <= 0 {
		return nil
	}
	est := plan.Scenario.Estimate()
	perRun := est.BytesPerRun + plan.TapeBytes(est.ArrivalsPerRun)
	if plan.SeriesWidth > 0 {
		perRun += seriesBytes * est.ArrivalsPerRun
	}
	parallel := float64(max(1, min(workers, est.Runs)))
	need := perRun * parallel
	if need <= limit {
		return nil
	}
	sc := plan.Scenario
	driver := fmt.Sprintf("duration %g s at arrivals.rate %g tasks/s", sc.Duration+sc.WarmupTime, sc.Arrivals.Rate)
	if sc.MeasuredByTasks() {
		driver = fmt.Sprintf("tasks %d (+ warmup %v)", sc.Tasks, sc.Warmup)
	}
	return BadInputf("the plan needs about %s of memory (%s: %.3g arrivals per run, %s per run, %g runs at once with -j %d), over the %s allowed (--max-memory); lower the run length, the servers or -j",
		bytesText(need), driver, est.ArrivalsPerRun, bytesText(perRun), parallel, workers, bytesText(limit))
}

// bytesText writes a byte count in binary units, three digits.
func bytesText(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}
