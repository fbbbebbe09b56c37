package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/schema"
)

// PolicyEntry is one item of `policies:`: a policy, the label its rows
// carry, and its options (schema.Entry has its YAML shape).
type PolicyEntry = schema.Entry

// Policies is what a scenario knows of the dispatch policies. The policies package implements it, so scenario stays a leaf.
type Policies interface {
	Names() []string    // every known policy, registry order
	Defaults() []string // the paper's default set, used when a file gives no policies:
	// Check validates an entry of a known policy: its options (names and values) and what it needs of the tiers (their kinds, in order, e.g. edge-first needs a tier of kind edge). One Problem per bad option; Option "" for the entry as a whole.
	Check(name string, options map[string]any, tierKinds []string) []Problem
}

// Problem is one thing a Policies catalog finds wrong with an entry: the
// option it is about ("" for the entry as a whole; a dotted path such as
// "penalty.k" for a key inside an option's mapping) and a message that names
// the bad value and what is allowed. Validate reports it at
// policies[i].<option>, with the line and column of that option.
type Problem struct{ Option, Msg string }

// Labels lists the policy entries' labels in order: the names rows and
// columns carry.
func (s *Scenario) Labels() []string {
	labels := make([]string, len(s.Policies))
	for i, e := range s.Policies {
		labels[i] = e.Label()
	}
	return labels
}

// SelectPolicies makes the policies those named, in the order given
// (--policy): a label of one of the scenario's entries names that entry
// (labels win where a label is also a policy's name), any other name of
// the catalog a plain entry of that policy with its default options. A
// name that is neither is an error listing both; the new list is
// validated as a file's would be (a policy that needs an edge tier, say).
func (s *Scenario) SelectPolicies(names []string) error {
	var keep []PolicyEntry
	have := s.Labels()
	for _, n := range names {
		if slices.ContainsFunc(keep, func(e PolicyEntry) bool { return e.Label() == n }) {
			continue
		}
		switch i := slices.Index(have, n); {
		case i >= 0:
			keep = append(keep, s.Policies[i])
		case s.pols != nil && slices.Contains(s.pols.Names(), n):
			keep = append(keep, PolicyEntry{Name: n})
		default:
			known := "no catalog"
			if s.pols != nil {
				known = strings.Join(s.pols.Names(), ", ")
			}
			return fmt.Errorf("%q is neither a label of the scenario's policies (%s) nor a policy (%s)", n, strings.Join(have, ", "), known)
		}
	}
	s.Policies = keep
	return s.Validate()
}

func (c *checker) policies() {
	pols := c.s.pols
	if pols == nil {
		c.Add(path("policies"), "no policy catalog to check them against (parse the scenario, or give it one with SetCatalog)")
		return
	}
	names := pols.Names()
	if len(c.s.Policies) == 0 {
		c.Add(path("policies"), "none given: list at least one of %s", strings.Join(names, ", "))
		return
	}
	if !c.Count(path("policies"), len(c.s.Policies), MaxEntries, "policies") {
		return
	}
	l := entryList{names: names, known: make(map[string]bool, len(names)), kinds: c.s.tierKinds(), first: map[string]int{}}
	for _, n := range names {
		l.known[n] = true
	}
	for i, e := range c.s.Policies {
		c.policy(i, e, &l)
	}
}

// entryList is what checking each entry of policies needs of the others
// and of the catalog.
type entryList struct {
	names []string        // the catalog's policies
	known map[string]bool // the same, as a set
	kinds []string        // the tiers' kinds
	first map[string]int  // each label's first entry so far
}

// policy checks entry i: a known name, a valid label not given before,
// and its options.
func (c *checker) policy(i int, e PolicyEntry, l *entryList) {
	at := path("policies", strconv.Itoa(i))
	label := e.Label()
	if !l.known[e.Name] {
		c.Add(at, "%q is not allowed: must be one of %s", e.Name, strings.Join(l.names, ", "))
		c.Last().At = sub(at, "name")
	}
	switch j, dup := l.first[label]; {
	case e.As != "" && !ValidTierName(e.As):
		c.Add(sub(at, "as"), "%q is not allowed: must match ^[a-z0-9_-]+$ (it labels the policy's rows)", e.As)
	case dup && label != "": // "" is an unknown name, reported as such
		c.Add(at, "%q is not allowed: listed twice (policies[%d] has it too)", label, j)
		c.Last().At = sub(at, "as")
	default:
		l.first[label] = i
	}
	if l.known[e.Name] {
		c.entry(at, e, l.kinds)
	}
}

// entry passes one entry's Problems from the catalog on as errors at the
// option they name.
func (c *checker) entry(at []string, e PolicyEntry, kinds []string) {
	for _, p := range c.s.pols.Check(e.Name, e.Options, kinds) {
		segs := at
		if p.Option != "" {
			segs = sub(at, strings.Split(p.Option, ".")...)
		}
		c.Add(segs, "%s", p.Msg)
	}
}
