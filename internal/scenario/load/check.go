// Package load is the part of a scenario that describes the load offered
// to the tiers: the arrival process and its bursts, the task-size law, the
// data each task sends and receives, and a recorded trace that replaces
// the first two; with each block's checks, which package scenario runs
// from its Validate.
//
// It knows nothing of the rest of a scenario: what a check needs of it (a
// run's span of arrivals) is an argument, and every message names its
// field by the YAML path it has in a scenario file.
package load

import (
	"math"
	"strconv"

	"github.com/offload-sim/offload/internal/schema"
)

// loadChecker is the scenario's collector of problems, with what the checks
// need of the rest of the scenario.
type loadChecker struct {
	*schema.Checker
	span float64 // a run's seconds of arrivals
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

// approx writes an estimated count to three digits: its last digits are
// rounding noise.
func approx(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
