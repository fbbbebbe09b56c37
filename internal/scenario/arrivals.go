package scenario

import "github.com/offload-sim/offload/internal/scenario/load"

// The arrival process's types, declared with their checks in package load.
type (
	// Arrivals is the arrival process, its rate multiplied during bursts.
	Arrivals = load.Arrivals
	// Burst multiplies the rate during its periodic spans.
	Burst = load.Burst
)

// The bounds of the arrival processes, declared in package load.
const MinProcessCV, MaxProcessCV = load.MinProcessCV, load.MaxProcessCV

// resolveProcess writes what the process block implies: an explicit
// poisson is left out (so that it resolves, and hashes, as today's
// scenarios do), and an mmpp's rate, when it is left out or rederive is
// set, is its stationary rate. A sweep derives it again in each cell
// (the cell may have changed rates or sojourn) unless it sweeps
// arrivals.rate itself, which Validate then refuses.
func (s *Scenario) resolveProcess(rederive bool) {
	if s.Estimator.Ca2 == "poisson" {
		s.Estimator.Ca2 = "" // the default, left out like poisson arrivals
	}
	s.Arrivals.Resolve(rederive)
}

// arrivals checks the arrival process; a run's span of arrivals bounds an
// mmpp's phase changes.
func (c *checker) arrivals() { load.CheckArrivals(&c.Checker, c.s.Arrivals, c.s.span()) }
