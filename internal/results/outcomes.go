package results

import "math"

// The names of the outcome columns, present only when the scenario has
// slow-downs, failures, timeouts or retries (Layout.Dynamic).
const (
	ColLostShare    = "lost_share"
	ColTimeoutShare = "timeout_share"
	ColRetryShare   = "retry_share"
	ColGoodput      = "goodput"
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

// outcomeColumns are lost_share, timeout_share, retry_share and goodput.
func outcomeColumns() []Column {
	share := func(f func(o *Outcomes) int) func(m *Measured) float64 {
		return func(m *Measured) float64 {
			o := m.Outcomes
			if o == nil || o.Arrived == 0 {
				return math.NaN()
			}
			return float64(f(o)) / float64(o.Arrived)
		}
	}
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
