package load

import (
	"slices"

	"github.com/offload-sim/offload/internal/scenario/limit"
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
	// read File (Attach): unexported, so yaml and Hash ignore them,
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

// Span is the attached trace's span of arrivals after trace.rate's
// scaling, s, or 0 when no rows are attached.
func (t *Trace) Span() float64 {
	if t == nil || t.rows == nil {
		return 0
	}
	a := t.rows.arrivals
	n := len(a)
	if t.Rate > 0 {
		return float64(n-1) / t.Rate
	}
	return a[n-1] - a[0]
}

// Attach gives the trace its rows, read by the caller from its file:
// arrivals (s, sorted, from 0) and sizes, as many of each.
func (t *Trace) Attach(arrivals, sizes []float64) {
	t.rows = &traceRows{arrivals: arrivals, sizes: sizes, digest: schema.Digest(arrivals, sizes)}
}

// Digest is the SHA-256 of the attached rows, or "" when none are.
func (t *Trace) Digest() string {
	if t == nil || t.rows == nil {
		return ""
	}
	return t.rows.digest
}

// CheckTrace checks the trace block's own fields: its file, rate, mean
// size and resampling.
func CheckTrace(cc *schema.Checker, t *Trace) {
	c := loadChecker{Checker: cc}
	if t.File == "" {
		c.Add(path("trace", "file"), `"" is not allowed: give the trace file (the tool's format, see offload trace convert), relative to the scenario file`)
	}
	c.Num(path("trace", "rate"), t.Rate, t.Rate >= 0, "must be > 0 (tasks/s), or leave it out for the trace's own rate")
	c.Upper(path("trace", "rate"), t.Rate, limit.MaxRate, " tasks/s")
	c.Num(path("trace", "mean_size"), t.MeanSize, t.MeanSize >= 0, "must be > 0 (work units), or leave it out for the trace's own sizes")
	c.Upper(path("trace", "mean_size"), t.MeanSize, limit.MaxMean, " work units")
	if t.MeanSize > 0 {
		c.Lower(path("trace", "mean_size"), t.MeanSize, limit.MinMean, " work units")
	}
	if t.Resample != "" && !slices.Contains(Resamples(), t.Resample) {
		c.Add(path("trace", "resample"), "%q is not allowed: must be bootstrap, or leave it out to replay the sizes in order", t.Resample)
	}
}
