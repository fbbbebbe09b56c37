package load

import (
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/scenario/limit"
	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// Workload describes task sizes.
type Workload struct {
	// Size is the size distribution, in work units.
	// Omitted (zero) only with a trace, which gives the sizes.
	Size Dist `yaml:"size,omitempty" label:"task size"`
	// LargeQuantile: a task is "large" when its size is strictly above this
	// quantile of the size distribution.
	LargeQuantile float64 `yaml:"large_quantile" label:"large-task quantile"`
	// Data is the law of the data each task sends to its tier, bits
	// (omitted: none); a tier's delay.bandwidth turns it into transfer
	// time, its tx_energy into energy.
	Data Data `yaml:"data,omitempty"`
	// Reply is the law of each task's reply, bits (omitted: none): it
	// costs the device the tier's rx_energy; its transfer time is not
	// part of the latency (docs/design.md §1.5).
	Reply Data `yaml:"reply,omitempty"`
}

// Dist is a size distribution: pareto {alpha, mean}, exponential {mean},
// deterministic {mean}, lognormal {mean, cv}, bounded-pareto {alpha, low,
// high}, whose mean follows from its parameters and is left out, or
// empirical {file, column, mean}: the values of a column, drawn uniformly.
type Dist struct {
	Dist  string  `yaml:"dist"`                                                 // pareto, exponential, deterministic, lognormal, bounded-pareto or empirical
	Alpha float64 `yaml:"alpha,omitempty" label:"tail index α"`                 // pareto shape, > 2; bounded-pareto, > 0
	Mean  float64 `yaml:"mean,omitempty" unit:"work units"`                     // work units, > 0; none for bounded-pareto
	CV    float64 `yaml:"cv,omitempty" label:"CV"`                              // lognormal coefficient of variation, ≥ 0
	Low   float64 `yaml:"low,omitempty" label:"lower bound" unit:"work units"`  // bounded-pareto lower bound, work units, > 0
	High  float64 `yaml:"high,omitempty" label:"upper bound" unit:"work units"` // bounded-pareto upper bound, work units, > low
	// File and Column are an empirical law's data: the named column of a
	// CSV with a header (the tool's trace format or any other), relative to
	// the scenario file's folder; Column omitted is "size". Mean, if set,
	// scales the values so that their mean is this.
	File   string `yaml:"file,omitempty"`
	Column string `yaml:"column,omitempty"`

	// values are the column's values, attached by the caller that read File
	// (AttachSizes): unexported, so yaml ignores them; shared read-only
	// between clones.
	values *attached
}

// attached is data a caller read from a file named in the scenario.
type attached struct {
	xs     []float64
	digest string // SHA-256 of the values, for Hash
}

// MaxBoundRatio bounds a bounded Pareto's high/low: beyond 10¹² the
// law is a Pareto whose truncation no run reaches.
const MaxBoundRatio = 1e12

// distNames lists the size distributions in the order error messages give them.
func distNames() []string {
	return []string{"pareto", "exponential", "deterministic", "lognormal", "bounded-pareto", "empirical"}
}

// CheckWorkload checks workload's size law and large-task quantile.
func CheckWorkload(cc *schema.Checker, w Workload) {
	c := loadChecker{Checker: cc}
	d := w.Size
	at := func(f string) []string { return path("workload", "size", f) }
	known := slices.Contains(distNames(), d.Dist)
	if !known {
		c.Add(at("dist"), "%q is not allowed: must be one of %s", d.Dist, strings.Join(distNames(), ", "))
	}
	switch d.Dist {
	case "bounded-pareto":
		c.boundedPareto(d, at)
	case "empirical":
		c.empirical(d, at)
	default:
		c.Num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (work units)")
		c.Within(at("mean"), d.Mean, limit.MinMean, limit.MaxMean, " work units")
		c.noBounds(d, at, known)
	}
	switch {
	case d.Dist == "bounded-pareto":
	case d.Dist == "pareto":
		c.Num(at("alpha"), d.Alpha, d.Alpha > 2, "pareto needs alpha > 2 (alpha ≤ 2 has infinite variance)")
		c.Upper(at("alpha"), d.Alpha, limit.MaxAlpha, " (for sizes that barely vary use dist: deterministic)")
	case known && d.Alpha != 0:
		c.Add(at("alpha"), "%s is not allowed: %s takes no alpha (only pareto does)", fmtNum(d.Alpha), d.Dist)
	}
	switch {
	case d.Dist == "lognormal":
		// cv 0 would silently be constant sizes: that is dist: deterministic.
		c.Num(at("cv"), d.CV, d.CV > 0, "must be > 0 (coefficient of variation; for constant sizes use dist: deterministic)")
		c.Upper(at("cv"), d.CV, limit.MaxCV, "")
	case known && d.CV != 0:
		c.Add(at("cv"), "%s is not allowed: %s takes no cv (only lognormal does)", fmtNum(d.CV), d.Dist)
	}
	q := w.LargeQuantile
	c.Num(path("workload", "large_quantile"), q, q > 0 && q < 1, "must be in (0, 1)")
}

// boundedPareto checks a bounded-Pareto size law: alpha > 0, 0 < low <
// high, no mean (it follows from the three).
func (c loadChecker) boundedPareto(d Dist, at func(string) []string) {
	if d.Mean != 0 {
		c.Add(at("mean"), "%s is not allowed: bounded-pareto's mean follows from alpha, low and high (%s); leave it out", fmtNum(d.Mean), "E[X] = α·L^α·(H^(1−α) − L^(1−α))/((1−α)(1 − (L/H)^α))")
	}
	if c.Num(at("alpha"), d.Alpha, d.Alpha > 0, "bounded-pareto needs alpha > 0") {
		c.Upper(at("alpha"), d.Alpha, limit.MaxAlpha, "")
	}
	okL := c.Num(at("low"), d.Low, d.Low > 0, "bounded-pareto needs low > 0 (work units)")
	c.Lower(at("low"), d.Low, limit.MinMean, " work units")
	okH := c.Num(at("high"), d.High, d.High > 0, "bounded-pareto needs high > low (work units)")
	c.Upper(at("high"), d.High, limit.MaxMean, " work units")
	if okL && okH {
		switch {
		case d.High <= d.Low:
			c.Add(at("high"), "%s is not allowed: must be > low (%s)", fmtNum(d.High), fmtNum(d.Low))
		case d.High/d.Low > MaxBoundRatio:
			c.Add(at("high"), "%s is out of range: high/low must be ≤ %s", fmtNum(d.High), fmtNum(MaxBoundRatio))
		}
	}
}

// empirical checks an empirical law: a file, a mean that only scales, no
// parameters of another family.
func (c loadChecker) empirical(d Dist, at func(string) []string) {
	if d.File == "" {
		c.Add(at("file"), `"" is not allowed: empirical needs the CSV whose column gives the sizes, relative to the scenario file`)
	}
	if d.Mean != 0 {
		c.Num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (work units: the values are scaled to this mean), or leave it out for the column's own")
		c.Within(at("mean"), d.Mean, limit.MinMean, limit.MaxMean, " work units")
	}
	c.noBounds(d, at, true)
}

// noBounds refuses low and high for a family other than bounded-pareto,
// and file and column for one other than empirical.
func (c loadChecker) noBounds(d Dist, at func(string) []string, known bool) {
	if !known {
		return
	}
	if d.Dist != "empirical" {
		if d.File != "" {
			c.Add(at("file"), "%q is not allowed: %s takes no file (only empirical does)", d.File, d.Dist)
		}
		if d.Column != "" {
			c.Add(at("column"), "%q is not allowed: %s takes no column (only empirical does)", d.Column, d.Dist)
		}
	}
	if d.Low != 0 {
		c.Add(at("low"), "%s is not allowed: %s takes no low (only bounded-pareto does)", fmtNum(d.Low), d.Dist)
	}
	if d.High != 0 {
		c.Add(at("high"), "%s is not allowed: %s takes no high (only bounded-pareto does)", fmtNum(d.High), d.Dist)
	}
}

// restateBounded: a bounded-pareto or empirical size mapping without mean
// has none (not the default's 1), another family's has no bounds, and one
// other than empirical no file or column.
func restateBounded(d *Dist, size *yaml.Node) {
	if d.Dist != "empirical" {
		if schema.Child(size, "file") == nil {
			d.File = ""
		}
		if schema.Child(size, "column") == nil {
			d.Column = ""
		}
	}
	if d.Dist == "bounded-pareto" || d.Dist == "empirical" {
		if schema.Child(size, "mean") == nil {
			d.Mean = 0 // bounded-pareto: it follows from the bounds; empirical: the column's own
		}
	}
	if d.Dist == "bounded-pareto" {
		return
	}
	if schema.Child(size, "low") == nil {
		d.Low = 0
	}
	if schema.Child(size, "high") == nil {
		d.High = 0
	}
}

// RestateSize applies the rule of a size law given as a mapping (in a
// file or by --set) over the law in force: without alpha (or cv), that
// parameter takes the default of the distribution now in force, alpha
// pareto's shape (the scenario's default); a bounded-pareto or empirical
// law without mean has none, and only these take bounds, file or column.
func RestateSize(d *Dist, size *yaml.Node, alpha float64) {
	if size = schema.Deref(size); size == nil || size.Kind != yaml.MappingNode {
		return
	}
	if schema.Child(size, "alpha") == nil {
		switch {
		case d.Dist == "bounded-pareto":
			d.Alpha = 0 // no default shape: the file gives it
		case d.Dist != "pareto":
			d.Alpha = 0
		case d.Alpha == 0:
			d.Alpha = alpha
		}
	}
	if schema.Child(size, "cv") == nil && d.Dist != "lognormal" {
		d.CV = 0
	}
	restateBounded(d, size)
}

// Values returns the values attached to an empirical law (AttachSizes), or
// nil when none are.
func (d *Dist) Values() []float64 {
	if d.values == nil {
		return nil
	}
	return d.values.xs
}

// Attach gives an empirical law the values of its column, read by the
// caller from its file; clones share them, read-only.
func (d *Dist) Attach(values []float64) {
	d.values = &attached{xs: values, digest: schema.Digest(values)}
}

// Digest is the SHA-256 of the attached values, or "" when none are: a
// scenario's hash covers the data it replays.
func (d *Dist) Digest() string { return d.values.digestOrNone() }

// digestOrNone is the values' digest, "" for none.
func (a *attached) digestOrNone() string {
	if a == nil {
		return ""
	}
	return a.digest
}
