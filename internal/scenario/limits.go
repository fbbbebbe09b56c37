package scenario

import (
	"math"
	"strconv"

	"github.com/offload-sim/offload/internal/quantile"
	"github.com/offload-sim/offload/internal/scenario/limit"
)

// The bounds of package limit, under the names the scenario's callers
// use; the manual lists them from there.
const (
	MaxServers     = limit.MaxServers
	MaxSeeds       = limit.MaxSeeds
	MaxTasks       = limit.MaxTasks
	MaxArrivals    = limit.MaxArrivals
	MinRate        = limit.MinRate
	MaxRate        = limit.MaxRate
	MinSpeed       = limit.MinSpeed
	MaxSpeed       = limit.MaxSpeed
	MinMean        = limit.MinMean
	MaxMean        = limit.MaxMean
	MaxAlpha       = limit.MaxAlpha
	MaxCV          = limit.MaxCV
	MaxDelay       = limit.MaxDelay
	MinBurstFactor = limit.MinBurstFactor
	MaxBurstFactor = limit.MaxBurstFactor
	MinBurstTime   = limit.MinBurstTime
	MaxSpan        = limit.MaxSpan
	MaxEdges       = limit.MaxEdges
	MaxWindow      = limit.MaxWindow
	MaxPenaltyK    = limit.MaxPenaltyK
	MaxCells       = limit.MaxCells
	MaxTiers       = limit.MaxTiers
	MaxBursts      = limit.MaxBursts
	MaxEntries     = limit.MaxEntries
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

// span is the seconds of arrivals one run covers: duration + warmup_time,
// or in tasks mode its expectation at the lowest rate the bursts allow.
func (s *Scenario) span() float64 {
	if !s.MeasuredByTasks() {
		return s.Duration + s.WarmupTime
	}
	lo, _ := s.Arrivals.FactorRange()
	return float64(s.Tasks+s.Warmup.Fixed()) / (s.Arrivals.Rate * lo)
}

// arrivalBound is the arrivals one run expects (an upper bound in duration
// mode) and how many of them are measured.
func (s *Scenario) arrivalBound() (arrivals, measured float64) {
	if s.MeasuredByTasks() {
		return float64(s.Tasks) + float64(s.Warmup.Fixed()), float64(s.Tasks)
	}
	_, hi := s.Arrivals.FactorRange()
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
	lo, hi := s.Arrivals.FactorRange()
	rate := s.Arrivals.Rate
	if len(s.Arrivals.Bursts) > 0 {
		if peak := s.Arrivals.PeakRate() * hi; peak > MaxRate {
			c.Add(path("arrivals", "rate"), "%s × the bursts' factors (up to %s where they overlap) = %s tasks/s is out of range: must be ≤ %s", fmtNum(s.Arrivals.PeakRate()), fmtNum(hi), fmtNum(peak), fmtNum(MaxRate))
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
