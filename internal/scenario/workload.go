package scenario

import (
	"fmt"

	"github.com/offload-sim/offload/internal/scenario/load"
	"gopkg.in/yaml.v3"
)

// The workload's types, declared with their checks in package load.
type (
	// Workload describes task sizes and the data each task carries.
	Workload = load.Workload
	// Dist is a size distribution.
	Dist = load.Dist
)

// MaxBoundRatio bounds a bounded Pareto's high/low (declared in package
// load).
const MaxBoundRatio = load.MaxBoundRatio

// workload checks workload's size law and large-task quantile.
func (c *checker) workload() { load.CheckWorkload(&c.Checker, c.s.Workload) }

// restateSize applies a size mapping's rule, pareto's default shape
// DefaultAlpha.
func restateSize(d *Dist, size *yaml.Node) { load.RestateSize(d, size, DefaultAlpha) }

// AttachSizes gives an empirical workload.size the values of its column
// (read by the caller from workload.size.file: this package reads no file)
// and validates again.
func (s *Scenario) AttachSizes(values []float64) error {
	return s.attach("workload.size", s.Workload.Size.Dist, s.Workload.Size.Attach, values)
}

// attach gives the empirical law at field (of family dist) the values of
// its column through its Attach, and validates again.
func (s *Scenario) attach(field, dist string, to func([]float64), values []float64) error {
	if dist != "empirical" {
		return Errors{{Field: field, Msg: fmt.Sprintf("dist %q: only an empirical law takes values from a file", dist)}}
	}
	if len(values) == 0 {
		return Errors{{Field: field + ".file", Msg: "no values: an empirical law needs at least one"}}
	}
	to(values)
	return s.Validate()
}
