// Package tier is the part of a scenario that describes its tiers: each
// pool of servers, its speed and delay, its capacity over time (episodes,
// slow-downs, failures), its queue discipline and buffer, its energy
// model; with their checks, which package scenario runs from its Validate.
//
// It knows nothing of the rest of a scenario: what a check needs of it
// (whether the tasks carry data) is an argument, and every message names
// its field by the YAML path it has in a scenario file.
package tier

import (
	"math"

	"github.com/offload-sim/offload/internal/schema"
)

// tierChecker is the scenario's collector of problems.
type tierChecker struct {
	*schema.Checker
}

// path builds a fresh canonical path; fresh so that no two errors share a
// backing array.
func path(segs ...string) []string { return segs }

// sub extends a path without aliasing the parent's backing array.
func sub(segs []string, more ...string) []string { return schema.Sub(segs, more...) }

// fmtNum writes a number as the CSVs do, so messages quote values exactly.
func fmtNum(x float64) string { return schema.FmtNum(x) }

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
