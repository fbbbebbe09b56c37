package workload

import (
	"math"
	"math/rand/v2"
)

// Burst multiplies the arrival rate by Factor during
// [Start + n·Every, Start + n·Every + Length) for n = 0, 1, … (Count bursts,
// or unbounded when Count is 0; a single burst when Every is 0).
type Burst struct {
	Start, Every, Length, Factor float64
	Count                        int
}

// Schedule is a piecewise-constant arrival rate: Rate times the factors of
// the bursts active at t (overlapping bursts multiply).
type Schedule struct {
	Rate   float64 // base rate, tasks/s
	Bursts []Burst
}

// state reports whether burst b is active at t and the next time after t at
// which that changes (+Inf if never).
func (b *Burst) state(t float64) (active bool, next float64) {
	if t < b.Start {
		return false, b.Start
	}
	if b.Every <= 0 {
		end := b.Start + b.Length
		if t < end {
			return true, end
		}
		return false, math.Inf(1)
	}
	n := math.Floor((t - b.Start) / b.Every)
	if b.Count > 0 && n >= float64(b.Count) {
		n = float64(b.Count - 1)
	}
	s := b.Start + n*b.Every
	if t < s { // rounding put t just before burst n: it is in the gap after n−1
		return false, s
	}
	if e := s + b.Length; t < e {
		return true, e
	}
	if b.Count > 0 && n+1 >= float64(b.Count) {
		return false, math.Inf(1)
	}
	return false, s + b.Every
}

// At returns the rate at time t and the next time it may change.
func (s *Schedule) At(t float64) (rate, next float64) {
	rate, next = s.Rate, math.Inf(1)
	for i := range s.Bursts {
		b := &s.Bursts[i]
		on, nb := b.state(t)
		if on {
			rate *= b.Factor
		}
		next = min(next, nb)
	}
	return rate, next
}

// Next samples the first arrival after t of the non-homogeneous Poisson
// process, exactly, by inverting its integrated rate: draw E ~ Exp(1) and walk
// the constant pieces until their integrated rate covers E. One draw per
// arrival, so the stream does not depend on the schedule's shape.
func (s *Schedule) Next(t float64, r *rand.Rand) float64 {
	next, _ := s.next(t, r, nil)
	return next
}

// pollSteps is how many constant pieces next walks between two looks at
// its stop channel: a burst period far shorter than the mean inter-arrival
// time makes one arrival cross millions of pieces.
const pollSteps = 1 << 14

// stopped reports whether stop (nil: never) is closed, without waiting.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// next is Next, giving up (false) when stop is closed: one arrival must not
// hold a run past an interrupt, however many burst edges it crosses.
func (s *Schedule) next(t float64, r *rand.Rand, stop <-chan struct{}) (float64, bool) {
	return s.walk(t, r.ExpFloat64(), stop)
}

// Arrival is next: Schedule is the Poisson Process.
func (s *Schedule) Arrival(t float64, r *rand.Rand, stop <-chan struct{}) (float64, bool) {
	return s.next(t, r, stop)
}

// walk returns the time after t at which the integrated rate since t
// reaches e, or false when stop is closed first. The Poisson process walks
// an Exp(1) draw; the renewal and MMPP processes walk their own draws
// through the same pieces (process.go), which is how bursts speed their
// clock.
func (s *Schedule) walk(t, e float64, stop <-chan struct{}) (float64, bool) {
	if len(s.Bursts) == 0 {
		return t + e/s.Rate, true
	}
	for step := 1; ; step++ {
		if step%pollSteps == 0 && stopped(stop) {
			return math.Inf(1), false
		}
		rate, next := s.At(t)
		if next <= t { // guard against a boundary lost to rounding
			next = math.Nextafter(t, math.Inf(1))
		}
		if dt := e / rate; t+dt < next {
			return t + dt, true
		}
		e -= rate * (next - t)
		t = next
	}
}
