package load

import (
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/scenario/limit"
	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// Data is the law of a task's data in bits (docs/design.md §1.5): either a
// distribution of its own, with the size laws' families and parameters
// (deterministic {mean}, exponential {mean}, lognormal {mean, cv}, pareto
// {alpha, mean}, bounded-pareto {alpha, low, high}), or {proportional: f},
// f bits per work unit of the task's size. The zero Data is none.
type Data struct {
	Dist  string  `yaml:"dist,omitempty"`                                 // a size law's family
	Alpha float64 `yaml:"alpha,omitempty" label:"tail index α"`           // pareto shape, > 2; bounded-pareto, > 0
	Mean  float64 `yaml:"mean,omitempty" unit:"bits"`                     // bits, > 0; none for bounded-pareto
	CV    float64 `yaml:"cv,omitempty" label:"CV"`                        // lognormal coefficient of variation, > 0
	Low   float64 `yaml:"low,omitempty" label:"lower bound" unit:"bits"`  // bounded-pareto lower bound, bits, > 0
	High  float64 `yaml:"high,omitempty" label:"upper bound" unit:"bits"` // bounded-pareto upper bound, bits, > low
	// Proportional, if > 0, makes the data this many bits per work unit of
	// the task's size (and takes no dist).
	Proportional float64 `yaml:"proportional,omitempty" label:"per work unit" unit:"bits"`
	// File and Column are an empirical law's data, as for a size law: the
	// named column (default size) of a CSV relative to the scenario file;
	// Mean, if set, scales the values to it.
	File   string `yaml:"file,omitempty"`
	Column string `yaml:"column,omitempty"`

	values *attached // the column's values (Attach)
}

// Given reports whether the data law is set.
func (d Data) Given() bool { return d != Data{} }

// Law is the data's distribution as a size law (when not proportional).
func (d Data) Law() Dist {
	return Dist{Dist: d.Dist, Alpha: d.Alpha, Mean: d.Mean, CV: d.CV, Low: d.Low, High: d.High, File: d.File, Column: d.Column, values: d.values}
}

// Attach gives an empirical data law the values of its column, read by
// the caller from its file; clones share them, read-only.
func (d *Data) Attach(values []float64) {
	d.values = &attached{xs: values, digest: schema.Digest(values)}
}

// Digest is the SHA-256 of the attached values, or "" when none are.
func (d *Data) Digest() string { return d.values.digestOrNone() }

// The bounds of data laws and links.
const (
	// MaxData bounds a data law's mean and upper bound, bits (125 TB).
	MaxData = 1e15
	// MinData bounds a data law's mean and lower bound from below, bits.
	MinData = 1e-9
	// MaxDataFactor bounds data: {proportional}, bits per work unit.
	MaxDataFactor = 1e15
	// MinBandwidth and MaxBandwidth bound a link's bandwidth, bit/s.
	MinBandwidth, MaxBandwidth = 1e-3, 1e18
)

// dataLaws lists the families a data law may take, in the order messages
// give them: the size laws drawn from a distribution.
func dataLaws() []string {
	return []string{"pareto", "exponential", "deterministic", "lognormal", "bounded-pareto", "empirical"}
}

// CheckData checks workload.data and workload.reply.
func CheckData(cc *schema.Checker, w Workload) {
	c := loadChecker{Checker: cc}
	c.dataLaw(path("workload", "data"), w.Data)
	c.dataLaw(path("workload", "reply"), w.Reply)
}

// dataLaw checks one data law at segs.
func (c loadChecker) dataLaw(segs []string, d Data) {
	if !d.Given() {
		return
	}
	at := func(f string) []string { return sub(segs, f) }
	if d.Proportional != 0 {
		if c.Num(at("proportional"), d.Proportional, d.Proportional > 0, "must be > 0 (bits per work unit)") {
			c.Upper(at("proportional"), d.Proportional, MaxDataFactor, " bits per work unit")
		}
		if d.Law() != (Dist{}) {
			c.Add(segs, "proportional with a distribution is not allowed: give either proportional (bits per work unit) or {dist, ...}, not both")
		}
		return
	}
	if !slices.Contains(dataLaws(), d.Dist) {
		c.Add(at("dist"), "%q is not allowed: must be one of %s (or give proportional: bits per work unit)", d.Dist, strings.Join(dataLaws(), ", "))
		return
	}
	if d.Dist != "empirical" && (d.File != "" || d.Column != "") {
		c.Add(at("file"), "%q is not allowed: %s takes no file or column (only empirical does)", d.File+d.Column, d.Dist)
	}
	switch d.Dist {
	case "empirical":
		c.dataEmpirical(at, d)
	case "bounded-pareto":
		c.dataBounded(at, d)
	default:
		c.dataParametric(at, d)
	}
}

// dataEmpirical checks an empirical data law: a file, a mean that only
// scales, no parameters of a family.
func (c loadChecker) dataEmpirical(at func(string) []string, d Data) {
	if d.File == "" {
		c.Add(at("file"), `"" is not allowed: empirical needs the CSV whose column gives the bits, relative to the scenario file`)
	}
	if d.Mean != 0 && c.Num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (bits: the values are scaled to this mean), or leave it out for the column's own") {
		c.Within(at("mean"), d.Mean, MinData, MaxData, " bits")
	}
	for _, f := range []struct {
		name string
		x    float64
	}{{"alpha", d.Alpha}, {"cv", d.CV}, {"low", d.Low}, {"high", d.High}} {
		if f.x != 0 {
			c.Add(at(f.name), "%s is not allowed: empirical takes no %s", fmtNum(f.x), f.name)
		}
	}
}

// dataBounded checks a bounded-Pareto data law: alpha > 0, 0 < low <
// high, no mean (it follows from the three).
func (c loadChecker) dataBounded(at func(string) []string, d Data) {
	if d.Mean != 0 {
		c.Add(at("mean"), "%s is not allowed: bounded-pareto's mean follows from alpha, low and high; leave it out", fmtNum(d.Mean))
	}
	if c.Num(at("alpha"), d.Alpha, d.Alpha > 0, "bounded-pareto needs alpha > 0") {
		c.Upper(at("alpha"), d.Alpha, limit.MaxAlpha, "")
	}
	okL := c.Num(at("low"), d.Low, d.Low > 0, "bounded-pareto needs low > 0 (bits)")
	c.Lower(at("low"), d.Low, MinData, " bits")
	okH := c.Num(at("high"), d.High, d.High > d.Low, "bounded-pareto needs high > low (bits)")
	c.Upper(at("high"), d.High, MaxData, " bits")
	if okL && okH && d.High/d.Low > MaxBoundRatio {
		c.Add(at("high"), "%s is out of range: high/low must be ≤ %s", fmtNum(d.High), fmtNum(MaxBoundRatio))
	}
}

// dataParametric checks a data law of a family with a mean: its mean,
// and only the parameters its family takes.
func (c loadChecker) dataParametric(at func(string) []string, d Data) {
	c.Num(at("mean"), d.Mean, d.Mean > 0, "must be > 0 (bits)")
	c.Within(at("mean"), d.Mean, MinData, MaxData, " bits")
	for _, f := range []struct {
		name string
		x    float64
	}{{"low", d.Low}, {"high", d.High}} {
		if f.x != 0 {
			c.Add(at(f.name), "%s is not allowed: %s takes no %s (only bounded-pareto does)", fmtNum(f.x), d.Dist, f.name)
		}
	}
	switch {
	case d.Dist == "pareto":
		if c.Num(at("alpha"), d.Alpha, d.Alpha > 2, "pareto needs alpha > 2 (alpha ≤ 2 has infinite variance)") {
			c.Upper(at("alpha"), d.Alpha, limit.MaxAlpha, " (for data that barely varies use dist: deterministic)")
		}
	case d.Alpha != 0:
		c.Add(at("alpha"), "%s is not allowed: %s takes no alpha (only pareto does)", fmtNum(d.Alpha), d.Dist)
	}
	switch {
	case d.Dist == "lognormal":
		if c.Num(at("cv"), d.CV, d.CV > 0, "must be > 0 (coefficient of variation; for a constant use dist: deterministic)") {
			c.Upper(at("cv"), d.CV, limit.MaxCV, "")
		}
	case d.CV != 0:
		c.Add(at("cv"), "%s is not allowed: %s takes no cv (only lognormal does)", fmtNum(d.CV), d.Dist)
	}
}

// RestateData applies --set's rule for data laws after a write at segs: a
// law given as a mapping (workload.data, workload.reply, or under
// workload) replaces the law in force rather than merging into it, and a
// new dist or proportional drops the fields it does not take, so that
// --set workload.data={proportional: 8} over a lognormal law is that
// proportional law.
func (w *Workload) RestateData(segs []string, n *yaml.Node) {
	for _, f := range []struct {
		name string
		d    *Data
	}{{"data", &w.Data}, {"reply", &w.Reply}} {
		var m *yaml.Node
		switch strings.Join(segs, ".") {
		case "workload." + f.name + ".dist":
			keep := Data{Dist: f.d.Dist, Mean: f.d.Mean}
			switch f.d.Dist {
			case "pareto":
				keep.Alpha = f.d.Alpha
			case "lognormal":
				keep.CV = f.d.CV
			case "bounded-pareto":
				keep = Data{Dist: f.d.Dist, Alpha: f.d.Alpha, Low: f.d.Low, High: f.d.High}
			case "empirical":
				keep = Data{Dist: f.d.Dist, Mean: f.d.Mean, File: f.d.File, Column: f.d.Column}
			}
			*f.d = keep
			continue
		case "workload." + f.name + ".proportional":
			*f.d = Data{Proportional: f.d.Proportional}
			continue
		case "workload." + f.name:
			m = n
		case "workload":
			m = schema.Child(n, f.name)
		}
		if m = schema.Deref(m); m == nil || m.Kind != yaml.MappingNode {
			continue
		}
		var fresh Data
		if err := m.Decode(&fresh); err == nil {
			*f.d = fresh
		}
	}
}
