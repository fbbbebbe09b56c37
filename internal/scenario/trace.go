package scenario

import (
	"fmt"
	"slices"

	"github.com/offload-sim/offload/internal/schema"
)

// Trace replays a recorded workload (docs/design.md §5) in place of
// arrivals and workload.size: the file gives both.
type Trace struct {
	// File is the trace, in the tool's format (offload trace convert),
	// relative to the scenario file's folder.
	File string `yaml:"file"`
	// Rate, if set, scales time so that the mean rate (N − 1)/(last − first
	// arrival) is this, tasks/s; omitted: the trace's own.
	Rate float64 `yaml:"rate,omitempty" label:"arrival rate" unit:"tasks/s"`
	// MeanSize, if set, scales sizes so that their mean is this, work units;
	// omitted: the trace's own unit (tokens, seconds).
	MeanSize float64 `yaml:"mean_size,omitempty" label:"mean task size" unit:"work units"`
	// Resample is "" (each replicate replays the trace's sizes) or
	// "bootstrap" (sizes drawn with replacement per replicate, on the size
	// stream; arrivals kept).
	Resample string `yaml:"resample,omitempty"`

	// rows are the trace's arrivals and sizes, attached by the caller that
	// read File (AttachTrace): unexported, so yaml and Hash ignore them,
	// and shared read-only between clones.
	rows *traceRows
}

type traceRows struct {
	arrivals, sizes []float64
	digest          string // SHA-256 of the rows, for Hash
}

// Rows returns the attached trace's arrivals (s, from 0) and sizes as in
// the file, unscaled, or nil when none is attached.
func (t *Trace) Rows() (arrivals, sizes []float64) {
	if t == nil || t.rows == nil {
		return nil, nil
	}
	return t.rows.arrivals, t.rows.sizes
}

// Resamples lists the allowed values of trace.resample ("" is none).
func Resamples() []string { return []string{"bootstrap"} }

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
	s.Trace.rows = &traceRows{arrivals: arrivals, sizes: sizes, digest: schema.Digest(arrivals, sizes)}
	if s.Tasks == 0 && s.Duration == 0 && s.Warmup.Fixed() < len(arrivals) {
		s.Tasks = len(arrivals) - s.Warmup.Fixed()
	}
	return s.Validate()
}

// traceSpan is the trace's span of arrivals after trace.rate's scaling.
func (t *Trace) traceSpan() float64 {
	a := t.rows.arrivals
	n := len(a)
	if t.Rate > 0 {
		return float64(n-1) / t.Rate
	}
	return a[n-1] - a[0]
}

// trace checks the trace block in place of arrivals and workload.size.
func (c *checker) trace() {
	s := c.s
	t := s.Trace
	if t.File == "" {
		c.Add(path("trace", "file"), `"" is not allowed: give the trace file (the tool's format, see offload trace convert), relative to the scenario file`)
	}
	c.Num(path("trace", "rate"), t.Rate, t.Rate >= 0, "must be > 0 (tasks/s), or leave it out for the trace's own rate")
	c.Upper(path("trace", "rate"), t.Rate, MaxRate, " tasks/s")
	c.Num(path("trace", "mean_size"), t.MeanSize, t.MeanSize >= 0, "must be > 0 (work units), or leave it out for the trace's own sizes")
	c.Upper(path("trace", "mean_size"), t.MeanSize, MaxMean, " work units")
	if t.MeanSize > 0 {
		c.Lower(path("trace", "mean_size"), t.MeanSize, MinMean, " work units")
	}
	if t.Resample != "" && !slices.Contains(Resamples(), t.Resample) {
		c.Add(path("trace", "resample"), "%q is not allowed: must be bootstrap, or leave it out to replay the sizes in order", t.Resample)
	}
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
	if t.rows != nil { // else checked against the rows when they are attached
		c.traceRows(t)
	}
}

// traceRows checks the run length against the attached rows.
func (c *checker) traceRows(t *Trace) {
	s := c.s
	n := len(t.rows.arrivals)
	if s.Tasks > 0 && s.Warmup.Fixed()+s.Tasks > n {
		c.Add(path("tasks"), "%d + warmup %v = %d is out of range: the trace %s has %d rows (leave tasks out for every row after the warmup)", s.Tasks, s.Warmup, s.Tasks+s.Warmup.Fixed(), t.File, n)
	}
	if s.Tasks == 0 && s.Duration == 0 && s.Warmup.Fixed() >= n {
		c.Add(path("warmup"), "%d is out of range: the trace %s has %d rows", s.Warmup, t.File, n)
	}
	if s.Duration > 0 && finite(s.Duration) && finite(s.WarmupTime) {
		if span := t.traceSpan(); s.Duration+s.WarmupTime > span {
			c.Add(path("duration"), "%s + warmup_time %s = %s s is out of range: the trace %s spans %s s (at trace.rate %s)", fmtNum(s.Duration), fmtNum(s.WarmupTime), fmtNum(s.Duration+s.WarmupTime), t.File, fmtNum(span), fmtNum(t.Rate))
		}
	}
}
