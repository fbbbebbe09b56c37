package experiment

import (
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
)

// timer measures the wall-clock cost of a policy's decisions
// (--time-decisions). The clock lives here, not in the engine, which stays
// free of wall-clock time.
type timer struct {
	total time.Duration
	n     int
}

// timed returns p wrapped to time its decisions, and its timer. The
// wrapper has p's capabilities (dispatch.Wrap): the engine feeds p's
// observer and feedback directly, gives a clairvoyant p the oracle, and
// leaves a blind p's view uncounted, as it does without the timer.
func timed(p dispatch.Policy) (dispatch.Policy, *timer) {
	t := &timer{}
	return dispatch.Wrap(p, func(v *dispatch.View) dispatch.Decision {
		start := time.Now()
		d := p.Decide(v)
		t.total += time.Since(start)
		t.n++
		return d
	}), t
}

// meanNs is the mean decision time over the timers of every device.
func meanNs(ts []*timer) float64 {
	var total time.Duration
	n := 0
	for _, t := range ts {
		total += t.total
		n += t.n
	}
	return float64(total.Nanoseconds()) / float64(max(n, 1))
}
