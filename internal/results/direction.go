package results

import "strings"

// Direction says which way of a column is better, for the rankings.
type Direction int

const (
	LowerBetter  Direction = iota // latency, waits, energy, losses, errors
	HigherBetter                  // goodput
	NoBetter                      // shares, loads, counts: neither way is better
)

// DirectionOf is the direction of the runs.csv column name, read from the
// name alone so that a folder's runs.csv, read back, ranks as it was made.
func DirectionOf(name string) Direction {
	switch {
	case name == ColGoodput:
		return HigherBetter
	case name == ColTasks, name == ColWarmupTasks, name == ColSketched, name == ColBatchCI95, name == ColBatchLag1, name == ColBatchCorrelated,
		strings.HasPrefix(name, "share_"), strings.HasPrefix(name, "util_"):
		return NoBetter
	}
	return LowerBetter
}
