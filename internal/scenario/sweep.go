package scenario

import (
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/offload-sim/offload/internal/scenario/tier"
)

// Sweep varies Param (a --set path, e.g. arrivals.rate, tiers.edge.servers or
// policies.h0.epsilon) over Values; each value is one cell. A swept policy
// option is written as a float64.
type Sweep struct {
	Param  string    `yaml:"param"`  // a numeric field's --set path
	Values []float64 `yaml:"values"` // in the field's unit; integral for integer fields
}

// Cell is one point of a sweep: the scenario with Param set to Value.
type Cell struct {
	Param    string    // the swept --set path; "" without a sweep
	Value    float64   // the value applied; NaN without a sweep
	Scenario *Scenario // a deep copy with the value applied; its Sweep is nil
}

// Cells expands the sweep into one validated Cell per value, in the file's
// order. Without a sweep it returns one cell, the scenario itself (a copy).
// It returns Validate's errors if the scenario or any cell is invalid.
func (s *Scenario) Cells() ([]Cell, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Sweep == nil {
		return []Cell{{Value: math.NaN(), Scenario: s.Clone()}}, nil
	}
	cells := make([]Cell, len(s.Sweep.Values))
	for i, v := range s.Sweep.Values {
		c, ferr := s.cell(v)
		if ferr != nil { // Validate applied every value already
			return nil, Errors{ferr}
		}
		cells[i] = Cell{Param: s.Sweep.Param, Value: v, Scenario: c}
	}
	return cells, nil
}

// cell is a copy of s, without its sweep, with the swept field set to v.
func (s *Scenario) cell(v float64) (*Scenario, *FieldError) {
	sw := s.Sweep
	s.Sweep = nil // not copied into each cell: a long sweep would cost its square
	c := s.Clone()
	s.Sweep = sw
	// c is a fresh copy, so it may be written in place, by resolve too.
	if tgt, ferr := resolve(c, sw.Param); ferr == nil && tgt.IsKeys() {
		// An option has no Go type to spell the value for: the float64
		// itself is the cell's value.
		if ferr := setOption(tgt, v); ferr != nil {
			ferr.Field = sw.Param
			return nil, ferr
		}
		return c, nil
	}
	// 'f' so that 1e6 reads as the integer 1000000 when the field is an int.
	if _, ferr := c.apply(sw.Param, strconv.FormatFloat(v, 'f', -1, 64)); ferr != nil {
		return nil, ferr
	}
	c.resolveObservation() // a swept observation field may have made the block
	c.resolveProcess(sw.Param != "arrivals.rate")
	return c, nil
}

// sweep checks the sweep last, when the rest of the scenario's errors are
// known: a cell reports only what the base scenario does not already. A
// swept field needs no value of its own (each cell's is checked), but one
// it is given is checked like any other: no cell runs it, but what reads
// the base scenario (the plan's estimates and warnings, validate's output)
// does.
func (c *checker) sweep() {
	sw := c.s.Sweep
	if sw == nil {
		return
	}
	swept, ok := c.sweepParam(sw.Param)
	if swept != nil {
		if tgt, ferr := resolve(c.s.Clone(), sw.Param); ferr == nil && tgt.Value.IsValid() && tgt.Value.IsZero() {
			c.Errs = slices.DeleteFunc(c.Errs, func(e *FieldError) bool { return slices.Equal(e.Path, swept) })
		}
	}
	if c.sweepValues(sw.Values) && ok {
		c.sweepCells(sw.Values, swept)
	}
}

// sweepValues checks the list of values: not empty, not too long, finite,
// none twice. It reports whether the cells are worth checking.
func (c *checker) sweepValues(values []float64) bool {
	if len(values) == 0 {
		c.Add(path("sweep", "values"), "none given: list at least one value")
		return false
	}
	if len(values) > MaxCells {
		c.Add(path("sweep", "values"), "%d values is out of range: must be ≤ %d (one cell each)", len(values), MaxCells)
		return false
	}
	seen := map[float64]int{}
	for i, v := range values {
		at := path("sweep", "values", strconv.Itoa(i))
		c.Num(at, v, true, "")
		if j, dup := seen[v]; dup {
			// Two cells with one value would pool as extra replicates.
			c.Add(at, "%s is not allowed: listed twice (also sweep.values[%d])", fmtNum(v), j)
		}
		seen[v] = i
	}
	return true
}

// sweepCells checks each cell, reporting only what the base scenario does
// not already.
func (c *checker) sweepCells(values []float64, swept []string) {
	base := map[string]bool{}
	for _, e := range c.Errs {
		base[e.Error()] = true
	}
	for i, v := range values {
		if !finite(v) {
			continue // reported above
		}
		at := path("sweep", "values", strconv.Itoa(i))
		cell, ferr := c.s.cell(v)
		if ferr != nil {
			c.Add(at, "%s cannot be applied: %s", fmtNum(v), ferr.Error())
			continue
		}
		if err := cell.validateCell(swept); err != nil {
			for _, e := range err.(Errors) {
				if !base[e.Error()] {
					c.Add(at, "%s gives an invalid cell: %s", fmtNum(v), e.Error())
				}
			}
		}
	}
}

// validateCell checks a cell of a sweep that varies the field at swept: only
// the checks that field takes part in, since the rest of the cell is the
// base scenario, already checked. A sweep of 10⁴ cells over a scenario of
// 10³ tiers would otherwise cost 10⁷ tier checks.
func (s *Scenario) validateCell(swept []string) error {
	c := newChecker(s)
	switch swept[0] {
	case "arrivals", "tasks", "warmup", "duration", "warmup_time":
		c.run()
		c.arrivals()
		c.limits()
	case "workload":
		c.workload()
	case "tiers":
		i, _ := strconv.Atoi(swept[1])
		tier.CheckOne(&c.Checker, i, c.s.Tiers[i])
	case "policies":
		i, _ := strconv.Atoi(swept[1])
		if c.s.pols != nil {
			c.entry(path("policies", swept[1]), c.s.Policies[i], c.s.tierKinds())
		}
	case "estimator":
		c.estimator()
	default:
		return s.Validate()
	}
	return c.Errs.OrNil()
}

// sweepParam checks the swept path: it must reach a number outside the
// sweep. It returns the field's canonical path, if it resolves.
func (c *checker) sweepParam(p string) ([]string, bool) {
	at := path("sweep", "param")
	if p == "" {
		c.Add(at, "none given: name the field to vary, e.g. arrivals.rate")
		return nil, false
	}
	tgt, ferr := resolve(c.s.Clone(), p)
	v, segs := tgt.Value, tgt.Path
	switch {
	case ferr != nil:
		c.Add(at, "%q is not allowed: %s", p, ferr.Msg)
		return nil, false
	case segs[0] == "sweep":
		c.Add(at, "%q is not allowed: a sweep cannot vary itself", p)
		return nil, false
	case segs[0] == "seed" || segs[0] == "seeds":
		// Replicates are the runs of every cell, not a cell of their own.
		c.Add(at, "%q is not allowed: replicates are set by seed and seeds (--seed, --seeds), not swept", p)
		return nil, false
	case segs[0] == "slo":
		// The thresholds name runs.csv's columns, which every cell shares.
		c.Add(at, "%q is not allowed: SLO thresholds name runs.csv columns, the same in every cell; list several under slo.latency instead", p)
		return nil, false
	case tgt.IsKeys():
		return segs, true // an option is whatever the catalog accepts
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Float64:
		return segs, true
	}
	c.Add(at, "%q is not allowed: it is %s, and a sweep varies a number", p, describe(v.Type()))
	return nil, false
}
