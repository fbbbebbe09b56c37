// Package tally is a simulation run's result (Result: the measured tasks'
// latencies and sums, per tier, per shadow predictor, per class, and how
// they ended) and its recording, one measured task at a time, and the
// record of each task that a run's listeners are told (TaskRecord). The
// engine fills them and hands them out (engine.Result is this Result); the
// layer that turns results into CSV columns is internal/results.
//
// Recording is on the simulator's per-task path: it allocates nothing once
// the latency samples have grown, and it divides and looks up nothing of
// the run's configuration, which New reads once into the Result.
package tally

import (
	"math"

	"github.com/offload-sim/offload/internal/quantile"
)

// TierResult is what one tier saw during the measured window.
type TierResult struct {
	// Copies is how many physical tiers this scenario tier is: 1, or the
	// device count for a local tier (each device has its own).
	Copies int
	Count  int     // measured tasks sent to the tier
	Work   float64 // sum of their sizes, work units
	// Little's law check: AreaN is ∫ n(t) dt over the measured window (n =
	// tasks waiting or in service); Reached and SumSojourn count the tasks that
	// reached the tier in the window and their time in it (wait + service).
	AreaN      float64
	Reached    int
	SumSojourn float64
	// SumLatency and SumWait add up the latency and the queueing wait of the
	// measured tasks sent to the tier (Count of them), s: the per-tier
	// breakdown of runs.csv.
	SumLatency, SumWait float64
	// Data and Reply add up the bits of the measured tasks sent to the
	// tier and of their replies, for the transfer energy (docs/design.md §1.11).
	Data, Reply float64
}

// ShadowResult is one shadow predictor's error over the measured tasks.
type ShadowResult struct {
	SumAPE     float64 // Σ |predicted − realised latency| / realised
	SumAbsWait float64 // Σ |predicted − realised wait|, s
	// The part of SumAPE over the IdleTasks measured tasks whose chosen
	// tier had an idle server in the view at the decision.
	IdleTasks  int
	SumAPEIdle float64
}

// Result is a run's raw measurements. Latencies are kept whole up to
// Setup.ExactLimit measured tasks, so that percentiles are exact (8 bytes
// per measured task, plus 8 per large task), and sketched beyond it, so that
// memory stays bounded at any run length (internal/quantile).
type Result struct {
	Tasks          int              // measured tasks
	Latencies      *quantile.Sample // s
	LargeLatencies *quantile.Sample // s, tasks with size > Setup.Large
	SumWait        float64          // s
	SumAPE         float64          // the policy's own Σ |pred − real| / real
	Predicted      int              // measured tasks that carried a prediction
	Span           float64          // s, length of the measured window of arrivals
	Tier           []TierResult
	Shadow         []ShadowResult
	// Out is how the measured tasks ended, kept by a run that uses
	// capacities, timeouts or retries (engine.Config.Dynamic); zero
	// otherwise.
	Out Outcomes
	// Class is each class's account (engine.Config.Classes); nil without.
	Class []ClassResult

	// invMu is 1/μ of each scenario tier, the quotient record's errors
	// take on every predicted task: computed once, the same value, so
	// that record divides nothing per task.
	invMu []float64
	// delay, large, deadline: each scenario tier's mean delay, the size
	// past which a task is large, and each class's deadline (0: none).
	delay    []float64
	large    float64
	deadline []float64
}

// Setup is what a Result keeps of its run's configuration.
type Setup struct {
	Mu, MeanDelay []float64 // each scenario tier's service rate and mean delay (s)
	Shadows       int       // shadow predictors
	ExactLimit    int       // latencies kept whole up to this many (quantile.New)
	// Tasks is how many measured tasks the run expects (0: a run by
	// duration), room for the latencies.
	Tasks int
	// Large is the size past which a task is large (+Inf: none);
	// LargeShare the share of the tasks that are, by the size law, room
	// for their latencies.
	Large, LargeShare float64
	// Deadlines is each class's deadline from arrival, s (0: none); nil
	// for a run without classes.
	Deadlines []float64
}

// New is an empty result for a run of c: each tier's Copies is its
// caller's to count.
func New(c *Setup) *Result {
	r := &Result{Tier: make([]TierResult, len(c.Mu)), Shadow: make([]ShadowResult, c.Shadows)}
	r.invMu = make([]float64, len(c.Mu))
	for i, mu := range c.Mu {
		r.invMu[i] = 1 / mu
	}
	r.delay, r.large, r.deadline = c.MeanDelay, c.Large, c.Deadlines
	r.Latencies = quantile.New(c.ExactLimit, c.Tasks)
	r.LargeLatencies = quantile.New(c.ExactLimit, largeHint(c))
	if len(c.Deadlines) > 0 {
		r.Class = make([]ClassResult, len(c.Deadlines))
		for k := range r.Class {
			r.Class[k].Latencies = quantile.New(c.ExactLimit, 0)
		}
	}
	return r
}

// Record adds one measured task, run at scenario tier i with this wait and
// latency (s): its class, size and bits sent and received, and the
// policy's own predicted wait if it made one (pred; RecordShadows adds the
// shadows' errors).
func (r *Result) Record(i int, class int32, size, data, reply float64, pred bool, predWait, wait, latency float64) {
	r.Tasks++
	r.Latencies.Add(latency)
	if size > r.large {
		r.LargeLatencies.Add(latency)
	}
	r.SumWait += wait
	if r.Class != nil {
		r.recordClass(class, latency)
	}
	t := &r.Tier[i]
	t.Count++
	t.Work += size
	t.SumLatency += latency
	t.SumWait += wait
	t.Data += data
	t.Reply += reply
	if pred {
		r.Predicted++
		r.SumAPE += math.Abs(predWait+r.invMu[i]+r.delay[i]-latency) / latency
	}
}

// RecordShadows adds the shadows' errors on a measured task, run at
// scenario tier i with this wait and latency (s): shPred holds their
// predicted waits, and idle tells whether the chosen tier had an idle
// server in the view at the decision. Apart from Record, so that a run
// without shadows carries none of it on the per-task path.
func (r *Result) RecordShadows(i int, idle bool, wait, latency float64, shPred []float64) {
	inv, d := r.invMu[i], r.delay[i]
	for j, w := range shPred {
		sh := &r.Shadow[j]
		ape := math.Abs(w+inv+d-latency) / latency
		sh.SumAPE += ape
		sh.SumAbsWait += math.Abs(w - wait)
		if idle {
			sh.IdleTasks++
			sh.SumAPEIdle += ape
		}
	}
}

// largeHint is room for the large tasks a run of c expects by its size
// law, and a tenth more, so that their sample seldom grows its slice.
func largeHint(c *Setup) int {
	if c.Tasks <= 0 || !(c.Large < math.Inf(1)) {
		return 0
	}
	return int(float64(c.Tasks)*c.LargeShare*1.1) + 16
}
