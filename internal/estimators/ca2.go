package estimators

import "math"

// Ca2Mode selects the C_a² the model component uses.
type Ca2Mode uint8

const (
	// Ca2Poisson is the paper's C_a² = 1 (PoissonCa2).
	Ca2Poisson Ca2Mode = iota
	// Ca2Online is this project's extension (docs/design.md §2.13): each
	// tier's C_a² is the squared coefficient of variation of the
	// inter-dispatch times it was sent within the window (Ca2Window).
	Ca2Online
)

// The online C_a² estimate's memory and its guards.
const (
	// Ca2Gaps is the most inter-dispatch times a tier remembers: the
	// estimate covers the window or the last Ca2Gaps gaps, whichever is
	// shorter, so its memory is fixed whatever the rate.
	Ca2Gaps = 1024
	// Ca2MinGaps is how many gaps the estimate needs before it replaces
	// PoissonCa2: the SCV of a handful of gaps is noise.
	Ca2MinGaps = 16
	// MaxCa2 caps the estimate: a burst edge inside the window can make
	// the sample SCV huge for a moment, and the model should not follow
	// it beyond what any process here produces (renewal cv ≤ 10).
	MaxCa2 = 100
)

// Ca2Window estimates a stream's C_a² from the gaps between its events in
// the last w seconds (at most Ca2Gaps of them): a ring of (time, gap)
// with running sums of the gaps and their squares. Sums are refreshed
// from the ring once per Ca2Gaps updates, so that the additions and
// subtractions cannot drift. The zero value is not usable; call
// NewCa2Window.
type Ca2Window struct {
	w          float64
	times, gap []float64 // ring, oldest at head
	head, n    int
	last       float64 // time of the latest event, NaN before the first
	s1, s2     float64
	ops        int
}

// NewCa2Window returns an empty estimator over a window of w seconds.
func NewCa2Window(w float64) Ca2Window {
	return Ca2Window{w: w, times: make([]float64, Ca2Gaps), gap: make([]float64, Ca2Gaps), last: math.NaN()}
}

// Add records an event at time now (non-decreasing).
func (c *Ca2Window) Add(now float64) {
	if math.IsNaN(c.last) {
		c.last = now
		return
	}
	g := now - c.last
	c.last = now
	c.expire(now)
	if c.n == Ca2Gaps {
		c.pop()
	}
	i := (c.head + c.n) % Ca2Gaps
	c.times[i], c.gap[i] = now, g
	c.n++
	c.s1 += g
	c.s2 += g * g
	c.tick()
}

// Ca2 is the estimate at now: the gaps' sample variance over their mean
// squared, PoissonCa2 with fewer than Ca2MinGaps gaps (or all gaps 0),
// at most MaxCa2.
func (c *Ca2Window) Ca2(now float64) float64 {
	c.expire(now)
	if c.n < Ca2MinGaps {
		return PoissonCa2
	}
	n := float64(c.n)
	m := c.s1 / n
	if !(m > 0) {
		return PoissonCa2
	}
	v := max(0, (c.s2-n*m*m)/(n-1)) // builtins: math.Max and math.Min are calls, with the same results
	return min(v/(m*m), MaxCa2)
}

// expire drops the gaps that ended before now − w.
func (c *Ca2Window) expire(now float64) {
	for c.n > 0 && c.times[c.head] <= now-c.w {
		c.pop()
	}
}

func (c *Ca2Window) pop() {
	g := c.gap[c.head]
	c.s1 -= g
	c.s2 -= g * g
	c.head = (c.head + 1) % Ca2Gaps
	c.n--
	c.tick()
}

// tick refreshes the sums from the ring once per Ca2Gaps updates.
func (c *Ca2Window) tick() {
	if c.ops++; c.ops < Ca2Gaps {
		return
	}
	c.ops = 0
	c.s1, c.s2 = 0, 0
	for k := range c.n {
		g := c.gap[(c.head+k)%Ca2Gaps]
		c.s1 += g
		c.s2 += g * g
	}
}

// ModelWaitCa2 is ModelWait with the arrival SCV ca2 in place of
// PoissonCa2: the same Allen–Cunneen wait at the capped utilisation,
// scaled by (C_a² + C_s²)/2.
func ModelWaitCa2(c int, lambdaHat, mu, ca2, cs2, rhoMax float64) float64 {
	capacity := float64(c) * mu
	rho := min(lambdaHat/capacity, rhoMax) // the builtin: math.Min is a call, with the same results
	if !(rho > 0) {
		return 0
	}
	return ErlangC(c, rho*float64(c)) / (capacity * (1 - rho)) * (ca2 + cs2) / 2
}
