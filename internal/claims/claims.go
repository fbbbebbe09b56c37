// Package claims checks the paper's claims (docs/design.md §6) against the runs of
// the four experiments, with the paired rule: per cell, the 95% Student-t
// interval of the per-replicate difference (common random numbers make the
// replicates of two policies comparable pair by pair). A claim PASSes if the
// interval lies on the claimed side in every cell, FAILs if it lies on the
// other side in any cell, and is INCONCLUSIVE otherwise.
package claims

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/offload-sim/offload/internal/results"
)

// Verdict is a claim's or a cell's outcome.
type Verdict string

// The verdicts of docs/design.md §6.
const (
	Pass         Verdict = "PASS"
	Fail         Verdict = "FAIL"
	Inconclusive Verdict = "INCONCLUSIVE"
	NotRun       Verdict = "NOT RUN"
	Skipped      Verdict = "SKIPPED" // a cell left out by the claim's own condition
)

// Cell is one paired comparison: the mean difference a − b over replicates
// and its 95% half-width, where the claim says a < b.
type Cell struct {
	Label   string // e.g. "rate 60"
	A, B    float64
	Diff    float64
	CI95    float64
	N       int
	Verdict Verdict
	Note    string
}

// Comparison is one claimed inequality checked in every cell.
type Comparison struct {
	Title string // what is compared, without its unit
	// A and B name the two sides (Cell.A, Cell.B), as the table heads its
	// columns; Unit is the unit of their values ("" for a pure number).
	A, B, Unit string
	Cells      []Cell
}

// Claim is one claim of docs/design.md §6 with its verdict and the numbers behind it.
type Claim struct {
	ID          int
	Text        string
	Verdict     Verdict
	Comparisons []Comparison
	// Evidence holds comparisons that explain the verdict without counting
	// toward it (e.g. claim 1's ε = 0 variant of hybrid): a reader sees why
	// a cell came out as it did from numbers the same run produced.
	Evidence []Comparison
	Notes    []string
}

// Lower judges mean(a) < mean(b) from paired replicates (the rule of
// every claim), for a table outside the claims that reads the same way.
func Lower(label string, a, b []float64) Cell { return lower(label, a, b) }

// lower judges the claim mean(a) < mean(b) from paired replicates.
func lower(label string, a, b []float64) Cell {
	d, ci, n := results.PairedDiff(a, b)
	ma, _, _ := results.MeanCI95(a)
	mb, _, _ := results.MeanCI95(b)
	c := Cell{Label: label, A: ma, B: mb, Diff: d, CI95: ci, N: n}
	switch {
	case n < 2 || math.IsNaN(ci):
		c.Verdict = Inconclusive
	case d == 0 && ci == 0:
		c.Verdict, c.Note = Inconclusive, "identical in every replicate"
	case d+ci < 0:
		c.Verdict = Pass
	case d-ci > 0:
		c.Verdict = Fail
	default:
		c.Verdict = Inconclusive
	}
	return c
}

// combine folds cell verdicts: any FAIL fails, all PASS passes.
func combine(cells []Cell) Verdict {
	v, counted := Pass, false
	for _, c := range cells {
		switch c.Verdict {
		case Skipped:
			continue
		case Fail:
			return Fail
		case Inconclusive:
			v = Inconclusive
		}
		counted = true
	}
	if !counted {
		return Inconclusive
	}
	return v
}

// verdictOf folds comparisons the same way as cells.
func verdictOf(cs []Comparison) Verdict {
	var all []Cell
	for _, c := range cs {
		all = append(all, Cell{Verdict: combine(c.Cells)})
	}
	return combine(all)
}

// table indexes runs by (value, policy), each a slice by replicate.
type table struct {
	values []float64
	param  string
	by     map[string][]float64 // key: value|policy → per-seed metric
	seeds  int
}

func key(v float64, p string) string { return fmt.Sprintf("%v|%s", v, p) }

// index builds a table of metric over runs.
func index(runs []results.Run, metric func(results.Run) float64) table {
	t := table{by: map[string][]float64{}}
	for _, r := range runs {
		t.seeds = max(t.seeds, r.Seed+1)
		t.param = r.Param
		if !slices.Contains(t.values, r.Value) && !(math.IsNaN(r.Value) && slices.ContainsFunc(t.values, math.IsNaN)) {
			t.values = append(t.values, r.Value)
		}
	}
	slices.SortFunc(t.values, cmp.Compare[float64])
	for _, r := range runs {
		k := key(r.Value, r.Policy)
		s, ok := t.by[k]
		if !ok {
			s = make([]float64, t.seeds)
			for i := range s {
				s[i] = math.NaN()
			}
		}
		s[r.Seed] = metric(r)
		t.by[k] = s
	}
	return t
}

func (t table) get(v float64, p string) []float64 { return t.by[key(v, p)] }

func (t table) label(v float64) string {
	if math.IsNaN(v) {
		return "all"
	}
	return fmt.Sprintf("%s = %g", t.param, v)
}

// compare checks policy a < policy b on every value of t; the values are
// in unit.
func (t table) compare(title, unit, a, b string, keep func(v float64) (bool, string)) Comparison {
	c := Comparison{Title: title, A: a, B: b, Unit: unit}
	for _, v := range t.values {
		x, y := t.get(v, a), t.get(v, b)
		if x == nil || y == nil {
			continue
		}
		if keep != nil {
			if ok, why := keep(v); !ok {
				c.Cells = append(c.Cells, Cell{Label: t.label(v), Verdict: Skipped, Note: why, Diff: math.NaN(), CI95: math.NaN(), A: math.NaN(), B: math.NaN()})
				continue
			}
		}
		c.Cells = append(c.Cells, lower(t.label(v), x, y))
	}
	return c
}
