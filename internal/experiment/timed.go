package experiment

import (
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
)

// timer wraps a policy to measure the wall-clock cost of its decisions
// (--time-decisions). The clock lives here, not in the engine, which stays
// free of wall-clock time.
type timer struct {
	inner dispatch.Policy
	obs   dispatch.Observer // inner's, if it observes
	total time.Duration
	n     int
}

// Decide times the inner policy's decision.
func (t *timer) Decide(v *dispatch.View) dispatch.Decision {
	start := time.Now()
	d := t.inner.Decide(v)
	t.total += time.Since(start)
	t.n++
	return d
}

// Dispatched forwards to the inner policy if it observes (a no-op call
// otherwise, paid only when timing).
func (t *timer) Dispatched(now float64, tier int) {
	if t.obs != nil {
		t.obs.Dispatched(now, tier)
	}
}

// timedClairvoyant keeps the oracle's capability through the wrapper (see
// clairvoyantProbe for why it is a method, not an embedded interface).
type timedClairvoyant struct{ *timer }

// Clairvoyant implements dispatch.Clairvoyant.
func (timedClairvoyant) Clairvoyant() {}

// timed returns the wrapped policy and its timer.
func timed(p dispatch.Policy) (dispatch.Policy, *timer) {
	t := &timer{inner: p}
	t.obs, _ = p.(dispatch.Observer)
	if _, ok := p.(dispatch.Clairvoyant); ok {
		return timedClairvoyant{t}, t
	}
	return t, t
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
