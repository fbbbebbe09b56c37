package results

import (
	"math"

	"github.com/offload-sim/offload/internal/quantile"
)

// The names of the outcome columns, present only when the scenario has
// slow-downs, failures, timeouts or retries (Layout.Dynamic).
const (
	ColLostShare    = "lost_share"
	ColTimeoutShare = "timeout_share"
	ColRetryShare   = "retry_share"
	ColGoodput      = "goodput"
	// ColDropShare is present only when a tier has a finite buffer
	// (Layout.Buffer).
	ColDropShare = "drop_share"
	// ColAbandonShare is present only when tasks have patience
	// (Layout.Patience).
	ColAbandonShare = "abandon_share"
)

// Outcomes is how a run's measured tasks ended. Every arrived task ends
// in exactly one way: completed (Measured.Tasks), lost, timed out, or
// dropped or abandoned (the queue disciplines' outcomes); the shares are
// over Arrived and, with the completed share, sum to 1.
type Outcomes struct {
	Arrived            int
	Lost, TimedOut     int
	Dropped, Abandoned int
	Retried            int // sent again at least once; also counted among the others
}

// outShare is the share of Arrived that f counts; NaN without an account.
func outShare(f func(o *Outcomes) int) func(m *Measured) float64 {
	return func(m *Measured) float64 {
		o := m.Outcomes
		if o == nil || o.Arrived == 0 {
			return math.NaN()
		}
		return float64(f(o)) / float64(o.Arrived)
	}
}

// dropColumn is drop_share.
func dropColumn() Column {
	return Column{Name: ColDropShare, Doc: "share of the measured tasks that arrived and were dropped: their tier's buffer was full at their last attempt",
		Get: outShare(func(o *Outcomes) int { return o.Dropped })}
}

// abandonColumn is abandon_share.
func abandonColumn() Column {
	return Column{Name: ColAbandonShare, Doc: "share of the measured tasks that arrived and left a queue out of patience",
		Get: outShare(func(o *Outcomes) int { return o.Abandoned })}
}

// ClassMeasured is one task class's account over a run's measured tasks:
// those that arrived, those that completed and their latencies (s), and
// those that completed after the class's deadline.
type ClassMeasured struct {
	Arrived, Tasks, Late int
	Latencies            *quantile.Sample
}

// The per-class columns' names.
func ClassLatencyCol(c string) string      { return "mean_latency_class_" + c }
func ClassP95Col(c string) string          { return "p95_latency_class_" + c }
func ClassDeadlineMissCol(c string) string { return "deadline_miss_class_" + c }

// classColumns are each class's mean and 95th percentile latency and
// deadline miss share.
func classColumns(classes []string) []Column {
	var cols []Column
	get := func(k int, f func(c *ClassMeasured) float64) func(m *Measured) float64 {
		return func(m *Measured) float64 {
			if k >= len(m.Classes) {
				return math.NaN()
			}
			return f(&m.Classes[k])
		}
	}
	for k, c := range classes {
		cols = append(cols,
			Column{Name: ClassLatencyCol(c), Unit: "s", Doc: "mean latency of the measured tasks of class " + c + " that completed",
				Get: get(k, func(c *ClassMeasured) float64 { return c.Latencies.Mean() })},
			Column{Name: ClassP95Col(c), Unit: "s", Doc: "95th percentile of the latency of the measured tasks of class " + c + " that completed",
				Get: get(k, func(c *ClassMeasured) float64 { return c.Latencies.Quantile(0.95) })},
			Column{Name: ClassDeadlineMissCol(c), Doc: "share of the measured tasks of class " + c + " that arrived and did not complete within its deadline: completed late, or dropped, abandoned, lost or timed out (without a deadline, those that did not complete)",
				Get: get(k, func(c *ClassMeasured) float64 {
					if c.Arrived == 0 {
						return math.NaN()
					}
					return float64(c.Arrived-c.Tasks+c.Late) / float64(c.Arrived)
				})})
	}
	return cols
}

// outcomeColumns are lost_share, timeout_share, retry_share and goodput.
func outcomeColumns() []Column {
	share := outShare
	return []Column{
		{Name: ColLostShare, Doc: "share of the measured tasks that arrived and were lost: their tier failed with them present, or refused them while down, with no retry left",
			Get: share(func(o *Outcomes) int { return o.Lost })},
		{Name: ColTimeoutShare, Doc: "share of the measured tasks that arrived and timed out on their last attempt",
			Get: share(func(o *Outcomes) int { return o.TimedOut })},
		{Name: ColRetryShare, Doc: "share of the measured tasks that arrived and were sent again at least once (whatever their end)",
			Get: share(func(o *Outcomes) int { return o.Retried })},
		{Name: ColGoodput, Doc: "tasks/s: measured tasks completed per second of the measured window",
			Get: func(m *Measured) float64 {
				if m.Outcomes == nil || !(m.Span > 0) {
					return math.NaN()
				}
				return float64(m.Tasks) / m.Span
			}},
	}
}
