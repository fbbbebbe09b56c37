package scenario

import (
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/scenario/tier"
)

// Class is one class of tasks: its share of the arrivals, its priority at
// a priority tier (the lower first), its size law (omitted: the
// workload's), its deadline and its patience.
type Class struct {
	Name     string  `yaml:"name"`                                          // [a-z0-9_-]+, unique: it names columns
	Share    float64 `yaml:"share" label:"class share"`                     // in (0, 1]; the shares sum to 1
	Priority int     `yaml:"priority,omitempty" label:"class priority"`     // ≥ 0, the lower served first
	Size     *Dist   `yaml:"size,omitempty" label:"class size law"`         // omitted: workload.size
	Deadline float64 `yaml:"deadline,omitempty" label:"deadline" unit:"s"`  // s from arrival; omitted: none
	Patience *Dist   `yaml:"patience,omitempty" label:"class patience law"` // omitted: the scenario's patience
}

// HasBuffers reports whether a tier has a finite buffer: only then does
// runs.csv carry drop_share.
func (s *Scenario) HasBuffers() bool {
	return slices.ContainsFunc(s.Tiers, func(t Tier) bool { return t.Buffer > 0 })
}

// HasPatience reports whether some task may leave a queue out of
// patience: only then does runs.csv carry abandon_share.
func (s *Scenario) HasPatience() bool {
	return s.Patience != nil || slices.ContainsFunc(s.Classes, func(c Class) bool { return c.Patience != nil })
}

// ClassNames are the classes' names, in order (nil without classes).
func (s *Scenario) ClassNames() []string {
	var names []string
	for _, c := range s.Classes {
		names = append(names, c.Name)
	}
	return names
}

// cloneClasses gives c its own classes and laws.
func cloneClasses(c *Scenario) {
	c.Classes = cloneSlice(c.Classes)
	for i := range c.Classes {
		k := &c.Classes[i]
		k.Size, k.Patience = clonePtr(k.Size), clonePtr(k.Patience)
	}
	c.Patience = clonePtr(c.Patience)
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// disciplines checks the tiers' disciplines and buffers, and the classes.
// Every discipline takes capacity over time, a timeout and patience (under
// ps no task waits, so a patience never runs out there).
func (c *checker) disciplines() {
	tier.CheckDisciplines(&c.Checker, c.s.Tiers)
	c.classes()
}

// classes checks the task classes and the patience laws.
func (c *checker) classes() {
	s := c.s
	if s.Trace != nil && len(s.Classes) > 0 {
		c.Add(path("classes"), "not allowed with a trace: its rows carry the sizes")
	}
	sum, seen := 0.0, map[string]int{}
	for i, k := range s.Classes {
		at := func(f ...string) []string { return sub(path("classes", strconv.Itoa(i)), f...) }
		if j, dup := seen[k.Name]; !ValidTierName(k.Name) {
			c.Add(at("name"), "%q is not allowed: must match ^[a-z0-9_-]+$ (it becomes a CSV column name)", k.Name)
		} else if dup {
			c.Add(at("name"), "%q is not allowed: class names must be unique (classes[%d] has it too)", k.Name, j)
		} else {
			seen[k.Name] = i
		}
		c.Num(at("share"), k.Share, k.Share > 0 && k.Share <= 1, "must be in (0, 1]")
		sum += k.Share
		c.Integer(at("priority"), k.Priority, k.Priority >= 0 && k.Priority <= 1000, "must be in [0, 1000], the lower served first")
		c.Num(at("deadline"), k.Deadline, k.Deadline >= 0, "must be > 0 (s from arrival), or leave it out")
		c.Upper(at("deadline"), k.Deadline, MaxSpan, " s")
		c.law(at("size"), k.Size)
		c.law(at("patience"), k.Patience)
	}
	if len(s.Classes) > 0 && (sum < 1-1e-9 || sum > 1+1e-9) {
		c.Add(path("classes"), "shares sum to %s: they must sum to 1", strconv.FormatFloat(sum, 'g', 12, 64))
	}
	c.law(path("patience"), s.Patience)
}

// law checks a class's size or a patience law: pareto, exponential,
// deterministic or lognormal, of mean > 0.
func (c *checker) law(at []string, d *Dist) {
	if d == nil {
		return
	}
	in := func(f string) []string { return sub(at, f) }
	if !slices.Contains(tier.GapLaws(), d.Dist) {
		c.Add(in("dist"), "%q is not allowed: must be one of %s", d.Dist, strings.Join(tier.GapLaws(), ", "))
		return
	}
	c.Num(in("mean"), d.Mean, d.Mean > 0, "must be > 0")
	c.Upper(in("mean"), d.Mean, MaxMean, "")
	if d.Dist == "pareto" {
		c.Num(in("alpha"), d.Alpha, d.Alpha > 2, "pareto needs alpha > 2")
	} else if d.Alpha != 0 {
		c.Add(in("alpha"), "%s is not allowed: %s takes no alpha", fmtNum(d.Alpha), d.Dist)
	}
	if d.Dist == "lognormal" {
		c.Num(in("cv"), d.CV, d.CV > 0, "must be > 0 (coefficient of variation)")
	} else if d.CV != 0 {
		c.Add(in("cv"), "%s is not allowed: %s takes no cv", fmtNum(d.CV), d.Dist)
	}
}
