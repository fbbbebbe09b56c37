package scenario

import (
	"strconv"

	"github.com/offload-sim/offload/internal/schema"
)

// FieldError is one problem with a scenario: where it is and what is wrong.
// Its text is "file:line:column: field: message", each part left out when
// unknown, e.g.
//
//	sweep.yaml:14:22: tiers[1] (edge).servers: 0 is not allowed: must be ≥ 1
type FieldError = schema.FieldError

// Errors is every problem found in a scenario, in the order found. Parse,
// Validate and Cells return it (as an error) so that a user fixes a file in
// one pass rather than one error per run; errors.As reaches the items.
type Errors = schema.Errors

// tierNamer names a tier beside its index in a field name, "tiers[1]
// (edge)", from what name gives for index i.
func tierNamer(name func(i int) string) schema.Namer {
	return func(segs []string) string {
		if len(segs) != 2 || segs[0] != "tiers" || name == nil {
			return ""
		}
		i, _ := strconv.Atoi(segs[1])
		switch n := name(i); {
		case ValidTierName(n):
			return n
		case n != "":
			return strconv.Quote(n)
		}
		return ""
	}
}

// path builds a fresh canonical path; fresh so that no two errors share a
// backing array.
func path(segs ...string) []string { return segs }

// sub extends a path without aliasing the parent's backing array.
func sub(segs []string, more ...string) []string { return schema.Sub(segs, more...) }

// fmtNum writes a number as the CSVs do, so messages quote values exactly.
func fmtNum(x float64) string { return schema.FmtNum(x) }
