package testbed

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/quantile"
	"github.com/offload-sim/offload/internal/results"
)

// Result is what one emulated run saw. The request counts cover every task
// of the run, warmup included, and always satisfy
// Sent = Completed + Rejected + Failed; Dispatched = Sent + Unsent.
// Latency metrics cover the measured tasks that completed.
type Result struct {
	Dispatched int // attempts the policy placed (a retried task's each)
	Sent       int // requests that left the client (delay over)
	Completed  int // answered with timings
	// Rejected counts the requests that ended as the scenario has them
	// end: answered 503 by their tier (its queue full, down, or failed
	// with the task present), or cancelled at the scenario's timeout.
	Rejected int
	Failed   int // refused by the client, timed out (--timeout), connection error, other status
	Unsent   int // interrupted inside their delay, or cancelled there at their timeout: never sent
	// FirstError is the first rejection's or failure's reason, if any.
	FirstError error
	// Failures counts the failed requests by reason (the Reason constants):
	// Σ Failures = Failed.
	Failures map[string]int
	// MaxInFlight is Config.MaxInFlight (0: no limit), and PeakInFlight the
	// most requests that were in flight at once.
	MaxInFlight, PeakInFlight int
	// Health is what the health checks saw, one per tier.
	Health []TierHealth

	Measured  int       // measured tasks dispatched
	Tasks     int       // measured tasks completed
	Latencies []float64 // model s, measured completed tasks
	Large     []float64 // model s, the large ones among them
	SumWait   float64   // model s, as the tiers reported it
	SumAPE    float64   // Σ |predicted − realised latency| / realised
	Predicted int       // measured completed tasks with a prediction
	Span      float64   // model s, the measured window of arrivals
	TierCount []int     // measured tasks dispatched to each tier
	TierWork  []float64 // their sizes' sum, work units
	// Per tier, the measured tasks that completed there, and the sums of
	// their latencies and waits (model s): the per-tier breakdown.
	TierDone       []int
	TierSumLatency []float64
	TierSumWait    []float64

	// Out is how the measured tasks ended, each in one way: completed
	// (Tasks), lost, timed out or dropped (Config.TaskTimeout); a task
	// whose request failed unexpectedly is in none of them.
	Out Outcomes
	// Classes is each task class's account (Config.Classes).
	Classes []ClassResult

	// Lag is how late the client dispatched against its open-loop schedule.
	Lag  LagStats
	lags []time.Duration

	tiers []dispatch.Tier
	large float64
	scale float64 // wall seconds per model second
}

// Outcomes counts how measured tasks ended, as the simulator's account
// does.
type Outcomes struct {
	Arrived, Lost, TimedOut, Dropped int
	Retried                          int // sent again at least once; also among the others
}

// ClassResult is one class's account over the measured tasks: those that
// arrived, those that completed, their latencies (model s), and those
// that completed after the class's deadline.
type ClassResult struct {
	Arrived, Tasks, Late int
	Latencies            []float64
}

// LagStats summarises the client's schedule lag over every arrival.
type LagStats struct {
	Mean, P99, Max time.Duration
}

func newResult(cfg *Config) *Result {
	nt := len(cfg.Tiers)
	return &Result{TierCount: make([]int, nt), TierWork: make([]float64, nt), tiers: cfg.Tiers,
		TierDone: make([]int, nt), TierSumLatency: make([]float64, nt), TierSumWait: make([]float64, nt), large: cfg.Large, scale: cfg.TimeScale,
		Span: cfg.Duration.Seconds() / cfg.TimeScale, Failures: map[string]int{}, MaxInFlight: cfg.MaxInFlight, Health: newHealth(nt),
		Classes: make([]ClassResult, len(cfg.Classes))}
}

func (r *Result) dispatched(f *flight) {
	r.Dispatched++
	if f.measured && f.tries == 0 {
		r.Measured++
		r.Out.Arrived++
		if len(r.Classes) > 0 {
			r.Classes[f.class].Arrived++
		}
	}
	if f.tier >= 0 {
		r.placed(f)
	}
}

// placed counts a measured task at its tier: at its dispatch, or behind a
// real balancer when the tier's answer names it.
func (r *Result) placed(f *flight) {
	if f.measured {
		r.TierCount[f.tier]++
		r.TierWork[f.tier] += f.size
	}
}

// unplace takes back a measured task's count at the tier of an attempt
// that failed, as it is sent again: a task counts once, at the tier of
// its last attempt.
func (r *Result) unplace(f *flight) {
	if f.measured {
		r.TierCount[f.tier]--
		r.TierWork[f.tier] -= f.size
	}
}

func (r *Result) unsent(*flight) { r.Unsent++ }

// failed records a failed request and why.
func (r *Result) failed(reason string) {
	r.Failed++
	r.Failures[reason]++
}

// FailureShare is Failed / Sent (0 when nothing was sent): the share of
// requests that measured nothing, which cmd compares with --max-failures.
func (r *Result) FailureShare() float64 {
	if r.Sent == 0 {
		return 0
	}
	return float64(r.Failed) / float64(r.Sent)
}

// MainFailures lists the failure reasons, most frequent first (ties by
// name), at most n of them; n ≤ 0: all.
func (r *Result) MainFailures(n int) []ReasonCount {
	var out []ReasonCount
	for k, v := range r.Failures {
		out = append(out, ReasonCount{k, v})
	}
	slices.SortFunc(out, func(a, b ReasonCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// ReasonCount is one failure reason and how many requests failed for it.
type ReasonCount struct {
	Reason string
	Count  int
}

// answered counts a request that ended at its tier as the scenario
// says: completed, or rejected (a 503 of its own, a cancel at the
// timeout).
func (r *Result) answered(o Outcome) {
	if o == Completed {
		r.Completed++
	} else {
		r.Rejected++
	}
}

// ended counts a measured task that did not complete, by why its last
// attempt failed.
func (r *Result) ended(why failure) {
	switch why {
	case failLost:
		r.Out.Lost++
	case failTimeout:
		r.Out.TimedOut++
	case failDropped:
		r.Out.Dropped++
	}
}

// completed records a completed task; latency is in model seconds, from
// its arrival.
func (r *Result) completed(f *flight, rep Reply, latency float64, classes []Class) {
	if !f.measured {
		return
	}
	r.Tasks++
	r.Latencies = append(r.Latencies, latency)
	if f.size > r.large {
		r.Large = append(r.Large, latency)
	}
	if len(classes) > 0 {
		k := &r.Classes[f.class]
		k.Tasks++
		k.Latencies = append(k.Latencies, latency)
		if d := classes[f.class].Deadline; d > 0 && latency > d {
			k.Late++
		}
	}
	wait := rep.Wait.Seconds() / r.scale
	r.SumWait += wait
	r.TierDone[f.tier]++
	r.TierSumLatency[f.tier] += latency
	r.TierSumWait[f.tier] += wait
	if f.dec.HasPred {
		t := &r.tiers[f.tier]
		r.Predicted++
		r.SumAPE += math.Abs(dispatch.PredictedLatency(t, f.dec.PredWait)-latency) / latency
	}
}

// finish computes the lag statistics once every request has ended.
func (r *Result) finish() {
	if len(r.lags) == 0 {
		return
	}
	slices.Sort(r.lags)
	var sum time.Duration
	for _, l := range r.lags {
		sum += l
	}
	r.Lag = LagStats{Mean: sum / time.Duration(len(r.lags)),
		P99: r.lags[min(len(r.lags)-1, int(math.Ceil(0.99*float64(len(r.lags))))-1)], Max: r.lags[len(r.lags)-1]}
}

// RejectionRate is Rejected / Sent (0 when nothing was sent).
func (r *Result) RejectionRate() float64 {
	if r.Sent == 0 {
		return 0
	}
	return float64(r.Rejected) / float64(r.Sent)
}

// Metrics fills the simulator's runs.csv columns (docs/design.md §5) from the run,
// through the one metrics schema: latencies in model seconds, shares over
// measured dispatched tasks, and util as the work sent per second of the
// measured window over c·s. The identifying fields (experiment, policy,
// seed, ...) are left to the caller; decision_ns is NaN.
func (r *Result) Metrics(cols []results.Column) results.Run {
	m := &results.Measured{Tasks: r.Tasks, Dispatched: r.Measured,
		Latencies: quantile.Of(slices.Clone(r.Latencies)), LargeLatencies: quantile.Of(slices.Clone(r.Large)),
		SumWait: r.SumWait, SumAPE: r.SumAPE, Predicted: r.Predicted, Span: r.Span, DecisionNs: math.NaN(),
		TierCount: r.TierCount, TierWork: r.TierWork, TierCapacity: make([]float64, len(r.tiers)),
		TierDone: r.TierDone, TierSumLatency: r.TierSumLatency, TierSumWait: r.TierSumWait}
	for i, t := range r.tiers {
		m.TierCapacity[i] = float64(t.Servers) * t.Speed
	}
	if slices.ContainsFunc(cols, func(c results.Column) bool {
		return c.Name == results.ColDropShare || c.Name == results.ColLostShare
	}) {
		o := &r.Out
		m.Outcomes = &results.Outcomes{Arrived: o.Arrived, Lost: o.Lost, TimedOut: o.TimedOut, Dropped: o.Dropped, Retried: o.Retried}
	}
	for _, k := range r.Classes {
		m.Classes = append(m.Classes, results.ClassMeasured{Arrived: k.Arrived, Tasks: k.Tasks, Late: k.Late,
			Latencies: quantile.Of(slices.Clone(k.Latencies))})
	}
	return results.Run{Cols: cols, Values: results.Row(cols, m)}
}
