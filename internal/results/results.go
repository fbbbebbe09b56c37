// Package results holds the per-run metrics of docs/design.md §5 (one runs.csv row)
// and their aggregation across replicates (one summary.csv row). It is shared
// by the experiment runner, which fills it, and the report, which writes it.
package results

import "math"

// Run is one (cell, policy, replicate) run: its key and one value per
// column of Cols. A metric that does not apply is NaN here and an empty cell
// in the CSV.
type Run struct {
	Experiment string
	Param      string  // swept parameter path, "" without a sweep
	Value      float64 // swept value, NaN without a sweep
	Policy     string  // the entry's label
	Seed       int     // replicate number, 0-based
	Cols       []Column
	Values     []float64 // one per column of Cols
}

// Get returns the named column's value, NaN if the run has no such column.
func (r Run) Get(name string) float64 {
	if i := Index(r.Cols, name); i >= 0 && i < len(r.Values) {
		return r.Values[i]
	}
	return math.NaN()
}

// Set sets the named column's value; it reports whether the run has it.
func (r *Run) Set(name string, x float64) bool {
	if i := Index(r.Cols, name); i >= 0 && i < len(r.Values) {
		r.Values[i] = x
		return true
	}
	return false
}

// Tasks is the run's measured task count.
func (r Run) Tasks() int {
	if x := r.Get(ColTasks); !math.IsNaN(x) {
		return int(x)
	}
	return 0
}

// NewRun builds a run of these columns with the values given by name;
// every other column is missing (NaN). Unknown names are ignored.
func NewRun(cols []Column, vals map[string]float64) Run {
	r := Run{Cols: cols, Values: NaNs(len(cols))}
	for k, v := range vals {
		r.Set(k, v)
	}
	return r
}
