package scenario

import (
	"fmt"

	"github.com/offload-sim/offload/internal/scenario/load"
)

// Trace replays a recorded workload in place of arrivals and
// workload.size; declared with its checks in package load.
type Trace = load.Trace

// AttachTrace gives the scenario its trace's rows (read by the caller from
// trace.file: this package reads no file) and validates again, now against
// the rows: in tasks mode warmup + tasks must not exceed them (tasks
// omitted: every row after the warmup), in duration mode warmup_time +
// duration must not exceed the (rescaled) span. arrivals must be sorted and
// start at 0, as trace.Read returns them.
func (s *Scenario) AttachTrace(arrivals, sizes []float64) error {
	if s.Trace == nil {
		return Errors{{Field: "trace", Msg: "no trace block to attach rows to"}}
	}
	if len(arrivals) != len(sizes) || len(arrivals) < 2 {
		return Errors{{Field: "trace.file", Msg: fmt.Sprintf("%d arrivals and %d sizes: need as many of each, at least 2", len(arrivals), len(sizes))}}
	}
	s.Trace.Attach(arrivals, sizes)
	if s.Tasks == 0 && s.Duration == 0 && s.Warmup.Fixed() < len(arrivals) {
		s.Tasks = len(arrivals) - s.Warmup.Fixed()
	}
	return s.Validate()
}

// trace checks the trace block in place of arrivals and workload.size.
func (c *checker) trace() {
	s := c.s
	t := s.Trace
	load.CheckTrace(&c.Checker, t)
	if s.Arrivals.Rate != 0 || len(s.Arrivals.Bursts) > 0 {
		c.Add(path("arrivals"), "is not allowed with trace: the trace file gives the arrivals (scale them with trace.rate)")
	}
	if s.Workload.Size != (Dist{}) {
		c.Add(path("workload", "size"), "is not allowed with trace: the trace file gives the sizes (scale them with trace.mean_size)")
	}
	if s.Devices > 1 {
		c.Add(path("devices"), "%d is not allowed with trace: one recorded stream feeds one dispatcher", s.Devices)
	}
	q := s.Workload.LargeQuantile
	c.Num(path("workload", "large_quantile"), q, q > 0 && q < 1, "must be in (0, 1)")
	if arr, _ := t.Rows(); arr != nil { // else checked against the rows when they are attached
		c.traceRows(t)
	}
}

// traceRows checks the run length against the attached rows.
func (c *checker) traceRows(t *Trace) {
	s := c.s
	arr, _ := t.Rows()
	n := len(arr)
	if s.Tasks > 0 && s.Warmup.Fixed()+s.Tasks > n {
		c.Add(path("tasks"), "%d + warmup %v = %d is out of range: the trace %s has %d rows (leave tasks out for every row after the warmup)", s.Tasks, s.Warmup, s.Tasks+s.Warmup.Fixed(), t.File, n)
	}
	if s.Tasks == 0 && s.Duration == 0 && s.Warmup.Fixed() >= n {
		c.Add(path("warmup"), "%d is out of range: the trace %s has %d rows", s.Warmup, t.File, n)
	}
	if s.Duration > 0 && finite(s.Duration) && finite(s.WarmupTime) {
		if span := t.Span(); s.Duration+s.WarmupTime > span {
			c.Add(path("duration"), "%s + warmup_time %s = %s s is out of range: the trace %s spans %s s (at trace.rate %s)", fmtNum(s.Duration), fmtNum(s.WarmupTime), fmtNum(s.Duration+s.WarmupTime), t.File, fmtNum(span), fmtNum(t.Rate))
		}
	}
}
