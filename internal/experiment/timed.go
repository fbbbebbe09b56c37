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

func (t *timer) meanNs() float64 { return float64(t.total.Nanoseconds()) / float64(max(t.n, 1)) }

// The engine discovers Observer and Clairvoyant by type assertion, so the
// wrapper must carry exactly the capabilities of what it wraps.
type timedObserver struct {
	*timer
	dispatch.Observer
}

type timedClairvoyant struct{ *timer }

// Clairvoyant implements dispatch.Clairvoyant (see clairvoyantProbe for why
// it is not embedded).
func (timedClairvoyant) Clairvoyant() {}

// timed returns the wrapped policy and its timer.
func timed(p dispatch.Policy) (dispatch.Policy, *timer) {
	t := &timer{inner: p}
	switch q := p.(type) {
	case dispatch.Observer:
		return timedObserver{t, q}, t
	case dispatch.Clairvoyant:
		return timedClairvoyant{t}, t
	}
	return t, t
}
