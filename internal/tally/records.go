package tally

import "github.com/offload-sim/offload/internal/quantile"

// Outcomes is how the measured tasks that arrived ended: each in exactly
// one way, so that Completed + Lost + TimedOut + Dropped + Abandoned =
// Arrived once the run is over. Filled only by a run that uses
// capacities, timeouts or retries (engine.Config.Dynamic); Completed is
// then Result.Tasks.
type Outcomes struct {
	Arrived   int
	Completed int
	Lost      int // its tier failed with it present, or refused it while down, and no retry was left
	TimedOut  int // its last attempt outlived the timeout, not lost
	// Dropped: it found its tier's buffer full, and no retry was left;
	// Abandoned: it ran out of patience in a queue.
	Dropped, Abandoned int
	// Retried counts the tasks sent again at least once; they are among
	// the others too.
	Retried int
	// Wasted is the server time, s, spent on attempts that did not
	// complete: lost mid-service, or timed out and left running (or
	// running until cancelled).
	Wasted float64
}

// ClassResult is one class's account over the measured tasks: those that
// arrived, those that completed and their latencies, and those that
// completed after the class's deadline.
type ClassResult struct {
	Arrived, Tasks int
	Late           int
	Latencies      *quantile.Sample // s
}

// recordClass adds a measured task of class k, completed with this
// latency, to its class.
func (r *Result) recordClass(k int32, latency float64) {
	c := &r.Class[k]
	c.Tasks++
	c.Latencies.Add(latency)
	if d := r.deadline[k]; d > 0 && latency > d {
		c.Late++
	}
}

// TaskRecord is one task's story, for traces. Times are seconds.
type TaskRecord struct {
	ID       int
	Device   int // the dispatcher that sent it
	Arrival  float64
	Size     float64
	Tier     int
	Delay    float64
	Wait     float64
	Service  float64
	Latency  float64
	Data     float64 // bits sent to the tier
	Reply    float64 // bits of the reply
	Measured bool
}
