package scenario

import (
	"math"
	"strconv"

	"github.com/offload-sim/offload/internal/quantile"
)

// The bounds Validate enforces beyond each field's meaning. They keep every
// run's arithmetic finite and every run's cost bounded, whatever a file (or
// a fuzzer) writes: none is near a value an experiment uses (the paper's
// largest scenario has 16 servers, 10 replicates, 210,000 tasks per run, a
// rate of 200 tasks/s and 9 cells). A value beyond one is "out of range".
const (
	// MaxServers bounds a tier's servers: the engine keeps a few words of
	// state per server and scans them to dispatch, so 10⁵ servers is
	// already ~1.6 MB and 10⁵ steps per task.
	MaxServers = 100000
	// MaxSeeds bounds the replicates: every (cell, policy) runs this many
	// times, and 10⁴ already makes a plan of 8·10⁴ runs per cell.
	MaxSeeds = 10000
	// MaxTasks bounds tasks + warmup, the arrivals of one run in tasks
	// mode: 10⁹ events is hours of simulation and 16 GB of latencies.
	MaxTasks = 1000000000
	// MaxArrivals bounds the arrivals one run can expect in duration mode,
	// rate × the largest product of burst factors × (duration +
	// warmup_time): the same 10⁹ as MaxTasks.
	MaxArrivals = 1e9
	// MinRate and MaxRate bound the arrival rate (tasks/s), also once
	// multiplied by the bursts' factors: below 10⁻⁹ the next arrival is
	// 30 years away, beyond 10⁹ a second of arrivals is already MaxArrivals.
	MinRate, MaxRate = 1e-9, 1e9
	// MinSpeed and MaxSpeed bound a server's speed (work units/s). With
	// sizes within [MinMean, MaxMean], a service time stays within
	// [10⁻²¹, 10¹⁵] s: far from float64's limits even for a heavy tail,
	// and MaxSpeed is 10³ times any real machine's ops/s.
	MinSpeed, MaxSpeed = 1e-6, 1e12
	// MinMean and MaxMean bound the mean task size (work units): a size
	// distribution's quantiles and moments then stay finite.
	MinMean, MaxMean = 1e-9, 1e9
	// MaxAlpha bounds the Pareto shape: beyond 10⁶ the sizes equal the
	// mean to within 10⁻⁶ (use deterministic), and (α−1)/α rounds to 1.
	MaxAlpha = 1e6
	// MaxCV bounds a coefficient of variation (lognormal sizes, delays):
	// the lognormal's σ² = ln(1 + cv²) overflows to +Inf for cv ≳ 10¹⁵⁴,
	// and at cv = 100 (σ ≈ 3) one task in 10⁶ is already 10⁵ times the
	// median.
	MaxCV = 100
	// MaxDelay bounds a tier's mean delay, in seconds (11.6 days): a
	// delay longer than any run span is a tier no task returns from.
	MaxDelay = 1e6
	// MinBurstFactor and MaxBurstFactor bound a burst's factor: the rate
	// it gives is bounded by MinRate and MaxRate too, but a factor alone
	// beyond these is a typo for a rate.
	MinBurstFactor, MaxBurstFactor = 1e-6, 1e6
	// MinBurstTime bounds a burst's length and (when not 0) period, in
	// seconds: the arrival sampler steps through every burst edge, so a
	// period of 10⁻⁹ s over a 1 s gap between arrivals is 10⁹ steps for
	// one arrival.
	MinBurstTime = 1e-6
	// MaxSpan bounds duration + warmup_time, and a burst's start, period
	// and length, in seconds (31.7 years): at 10⁹ s a float64 time still
	// resolves 10⁻⁷ s, finer than any delay a tier models.
	MaxSpan = 1e9
	// MaxEdges bounds the burst edges (starts and ends) one run crosses,
	// for the same reason as MinBurstTime: each is a step of the arrival
	// sampler. A run's span is duration + warmup_time, or in tasks mode
	// (tasks + warmup) over the lowest rate.
	MaxEdges = 1e9
	// MaxWindow bounds the estimator's window (s), and MaxPenaltyK its
	// penalty factor: 1 + K·x must stay finite.
	MaxWindow, MaxPenaltyK = MaxSpan, 1e6
	// MaxCells bounds a sweep's values: each is a cell of policies ×
	// seeds runs, and each is validated.
	MaxCells = 10000
	// MaxTiers, MaxBursts and MaxEntries bound the lengths of tiers,
	// arrivals.bursts and policies: Validate checks every cell of a sweep,
	// and each item is work per task in a run.
	MaxTiers, MaxBursts, MaxEntries = 1000, 1000, 1000
)

// Estimate is what a scenario's plan costs, for the caller to check against
// its limits (memory, time) before running anything. Counts of arrivals are
// upper bounds on the expectation: in duration mode every burst is taken as
// active for the whole span, as if all overlapped.
type Estimate struct {
	Cells    int // sweep values, or 1
	Policies int // policy entries
	Seeds    int // replicates
	Runs     int // Cells × Policies × Seeds

	// ArrivalsPerRun is the largest over cells of the arrivals one run
	// expects, warmup included (tasks mode: tasks + warmup, exactly).
	ArrivalsPerRun float64
	// BytesPerRun is the largest over cells of the memory one run holds:
	// 8 bytes per measured latency, twice (the latencies and the large
	// tasks' ones, at worst all of them), up to quantile.ExactLimit of them
	// (a sketch of bounded size beyond), plus 16 bytes per server. Replicates that run at once
	// multiply it: that is the caller's to account.
	BytesPerRun float64
	// Arrivals and Bytes sum ArrivalsPerRun and BytesPerRun over every run
	// of every cell.
	Arrivals, Bytes float64
}

// Estimate sizes the plan of a scenario: every cell, policy and replicate.
// It is meaningful for a valid scenario; for an invalid one it still
// returns, with whatever the fields give.
func (s *Scenario) Estimate() Estimate {
	cells := []*Scenario{s}
	if s.Sweep != nil && len(s.Sweep.Values) > 0 {
		cells = cells[:0]
		for _, v := range s.Sweep.Values {
			if c, ferr := s.cell(v); ferr == nil {
				cells = append(cells, c)
			}
		}
		if len(cells) == 0 {
			cells = []*Scenario{s}
		}
	}
	e := Estimate{Cells: len(cells), Policies: len(s.Policies), Seeds: max(s.Seeds, 0)}
	perCell := e.Policies * e.Seeds
	e.Runs = e.Cells * perCell
	for _, c := range cells {
		arrivals, measured := c.arrivalBound()
		servers := 0.0
		for _, t := range c.Tiers {
			servers += float64(max(t.Servers, 0))
		}
		bytes := 2*8*min(measured, quantile.ExactLimit) + 16*servers
		e.ArrivalsPerRun = max(e.ArrivalsPerRun, arrivals)
		e.BytesPerRun = max(e.BytesPerRun, bytes)
		e.Arrivals += arrivals * float64(perCell)
		e.Bytes += bytes * float64(perCell)
	}
	return e
}

// factorRange is the smallest and largest product of burst factors the
// rate can be multiplied by, as if every burst could overlap every other.
// A product may overflow to +Inf or underflow to 0: both compare as out of
// range, which they are.
func (s *Scenario) factorRange() (lo, hi float64) {
	lo, hi = 1, 1
	for _, b := range s.Arrivals.Bursts {
		switch {
		case !(b.Factor > 0) || !finite(b.Factor): // reported on its own
		case b.Factor > 1:
			hi *= b.Factor
		default:
			lo *= b.Factor
		}
	}
	return lo, hi
}

// span is the seconds of arrivals one run covers: duration + warmup_time,
// or in tasks mode its expectation at the lowest rate the bursts allow.
func (s *Scenario) span() float64 {
	if !s.MeasuredByTasks() {
		return s.Duration + s.WarmupTime
	}
	lo, _ := s.factorRange()
	return float64(s.Tasks+s.Warmup.Fixed()) / (s.Arrivals.Rate * lo)
}

// arrivalBound is the arrivals one run expects (an upper bound in duration
// mode) and how many of them are measured.
func (s *Scenario) arrivalBound() (arrivals, measured float64) {
	if s.MeasuredByTasks() {
		return float64(s.Tasks) + float64(s.Warmup.Fixed()), float64(s.Tasks)
	}
	_, hi := s.factorRange()
	peak := s.Arrivals.Rate * hi
	return peak * (s.Duration + s.WarmupTime), peak * s.Duration
}

// edges counts the burst starts and ends a run crosses over its span.
func (s *Scenario) edges() float64 {
	span := s.span()
	total := 0.0
	for _, b := range s.Arrivals.Bursts {
		n := 1.0
		if b.Every > 0 {
			n = math.Max(0, span-b.Start)/b.Every + 1
			if b.Count > 0 {
				n = math.Min(n, float64(b.Count))
			}
		}
		total += 2 * n
	}
	return total
}

// limits checks the bounds that involve several fields (the per-field ones
// are with each field), unless the fields themselves are already wrong.
func (c *checker) limits() {
	s := c.s
	if c.Failed(path("arrivals")) || c.Failed(path("tasks")) || c.Failed(path("warmup")) ||
		c.Failed(path("duration")) || c.Failed(path("warmup_time")) || c.Failed(nil) {
		return
	}
	lo, hi := s.factorRange()
	rate := s.Arrivals.Rate
	if len(s.Arrivals.Bursts) > 0 {
		if peak := s.peakRate() * hi; peak > MaxRate {
			c.Add(path("arrivals", "rate"), "%s × the bursts' factors (up to %s where they overlap) = %s tasks/s is out of range: must be ≤ %s", fmtNum(s.peakRate()), fmtNum(hi), fmtNum(peak), fmtNum(MaxRate))
			return
		}
		if low := rate * lo; low < MinRate {
			c.Add(path("arrivals", "rate"), "%s × the bursts' factors (down to %s where they overlap) = %s tasks/s is out of range: must be ≥ %s", fmtNum(rate), fmtNum(lo), fmtNum(low), fmtNum(MinRate))
			return
		}
	}
	if !s.MeasuredByTasks() {
		if n, _ := s.arrivalBound(); n > MaxArrivals {
			c.Add(path("arrivals", "rate"), "%s tasks/s (× %s at the bursts' peak) over %s s (duration + warmup_time) gives up to %s arrivals per run, which is out of range: must be ≤ %s", fmtNum(rate), fmtNum(hi), fmtNum(s.Duration+s.WarmupTime), approx(n), fmtNum(MaxArrivals))
		}
	}
	if n := s.edges(); n > MaxEdges {
		c.Add(path("arrivals", "bursts"), "%s burst edges in a run of %s s is out of range: must be ≤ %s (lengthen every, or give count)", approx(n), approx(s.span()), fmtNum(MaxEdges))
	}
}

// approx writes an estimated count to three digits: its last digits are
// rounding noise.
func approx(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
