package scenario

import (
	"slices"
	"strconv"

	"github.com/offload-sim/offload/internal/schema"
)

// MaxSLOs bounds the SLO thresholds (each adds two runs.csv columns), and
// MaxSLOLatency each threshold, in seconds: beyond 11.6 days no task of a
// bounded run is late (the same bound as MaxDelay).
const (
	MaxSLOs       = 16
	MaxSLOLatency = 1e6
)

// SLO is a latency service-level objective: runs.csv gains, per threshold,
// the share of measured tasks (and of large tasks) whose latency exceeds it
// (docs/design.md §5.4). Empty, it is left out of the resolved scenario, so
// a scenario without one keeps its form and hash.
type SLO struct {
	// Latency lists the thresholds, in seconds: one number or a list.
	Latency Thresholds `yaml:"latency,omitempty" label:"SLO latency" unit:"s"`
}

// Thresholds are latency thresholds in seconds. A file may write one as a
// number (latency: 0.1) or several as a list (latency: [0.05, 0.1]); the
// resolved scenario writes a list.
type Thresholds = schema.Numbers

// slo checks the thresholds: finite, in (0, MaxSLOLatency], at most
// MaxSLOs, none twice (two equal thresholds would name the same columns).
func (c *checker) slo() {
	ts := c.s.SLO.Latency
	if !c.Count(path("slo", "latency"), len(ts), MaxSLOs, "thresholds") {
		return
	}
	for i, x := range ts {
		at := path("slo", "latency", strconv.Itoa(i))
		if !c.Num(at, x, x > 0, "must be > 0 (s)") {
			continue
		}
		c.Upper(at, x, MaxSLOLatency, " s")
		if j := slices.Index(ts[:i], x); j >= 0 {
			c.Add(at, "%s is not allowed: listed twice (also slo.latency[%d])", fmtNum(x), j)
		}
	}
}

// breakdown checks that the per-tier columns have names of their own: a
// tier called "s" would give mean_latency_s and mean_wait_s, the overall
// means' columns.
func (c *checker) breakdown() {
	if !c.s.Breakdown {
		return
	}
	for i, t := range c.s.Tiers {
		if t.Name == "s" {
			c.Add(path("tiers", strconv.Itoa(i), "name"), "%q is not allowed with breakdown: true: its columns mean_latency_s and mean_wait_s would be the overall means' (rename the tier)", t.Name)
		}
	}
}
