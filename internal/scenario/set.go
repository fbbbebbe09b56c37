package scenario

import (
	"reflect"
	"strings"

	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

// Set overrides one field, as --set path=value does. The path is a dotted
// list of yaml names; a list element is addressed by index
// ("arrivals.bursts.0.factor", or "arrivals.bursts[0].factor"), a tier also
// by name ("tiers.edge.servers") and a policy entry also by label
// ("policies.h0"), a name winning over an index. The value is YAML, decoded
// strictly into the field's type: "8", "[jsq, random]", "{mean: 0.01, cv: 0}".
// A mapping merges into the current value, as a file merges over Default; a
// list, a scalar or a policy entry replaces it; "null" removes the sweep or
// empties a list.
//
// Below a policy entry, name and as are its fields and any other key is an
// option: policies.h0.epsilon=0.1 writes Options["epsilon"], and
// policies.h0.penalty.k=2 writes into the mapping of option penalty
// (creating it). An option takes any YAML value; null removes it.
//
// Restating workload.size.dist (alone or inside a mapping) without alpha or cv
// resets the parameter the new distribution does not take, and gives pareto
// its default alpha if it had none, so that
// --set workload.size.dist=exponential is enough to switch distributions.
//
// Set does not validate; on error s is left unchanged and the error is a
// *FieldError naming the path.
func (s *Scenario) Set(path, value string) error {
	if _, err := s.set(path, value); err != nil {
		return err
	}
	return nil
}

// set is Set, also returning the canonical path it wrote (tiers by index).
func (s *Scenario) set(p, value string) ([]string, *FieldError) {
	c := s.Clone() // so that a failed Set leaves s as it was
	segs, ferr := c.apply(p, value)
	if ferr != nil {
		return nil, ferr
	}
	*s = *c
	return segs, nil
}

// apply is set in place: on error, c may be partly written.
func (c *Scenario) apply(p, value string) ([]string, *FieldError) {
	tgt, ferr := resolve(c, p)
	if ferr != nil {
		return nil, ferr
	}
	v, segs := tgt.Value, tgt.Path
	n, ferr := schema.ParseValue(p, value, MaxFileSize)
	if ferr != nil {
		return nil, ferr
	}
	if tgt.IsKeys() {
		return segs, c.applyOption(tgt, n, p, value)
	}
	if n == nil {
		if v.Kind() != reflect.String {
			return nil, &FieldError{Field: p, Msg: "an empty value is not allowed: want " + describe(v.Type())}
		}
		v.SetString("")
		return segs, nil
	}
	if schema.IsNull(schema.Deref(n)) && v.Kind() != reflect.Pointer && v.Kind() != reflect.Slice {
		// yaml.v3 would decode null into a struct or a number as no change.
		return nil, &FieldError{Field: p, Msg: "null is not allowed: want " + describe(v.Type()) + " (null only removes the sweep or empties a list)"}
	}
	if ferr := scenarioSchema.Decode(v, n, p, value); ferr != nil {
		return nil, ferr
	}
	c.restateDist(segs, n)
	return segs, nil
}

// applyOption writes the --set value n at an option path.
func (c *Scenario) applyOption(tgt schema.Target, n *yaml.Node, p, value string) *FieldError {
	if n == nil {
		return &FieldError{Field: p, Msg: "an empty value is not allowed: want a YAML value (null removes the option)"}
	}
	val, ferr := schema.AnyOf(n, p, value)
	if ferr != nil {
		return ferr
	}
	if ferr := setOption(tgt, val); ferr != nil {
		ferr.Field = p
		return ferr
	}
	return nil
}

// restateDist applies Set's distribution rule after a write at segs.
func (s *Scenario) restateDist(segs []string, n *yaml.Node) {
	s.Workload.RestateData(segs, n)
	var size *yaml.Node
	switch strings.Join(segs, ".") {
	case "workload.size.dist":
		restateSize(&s.Workload.Size, &yaml.Node{Kind: yaml.MappingNode})
		return
	case "workload.size":
		size = n
	case "workload":
		size = schema.Child(n, "size")
	}
	restateSize(&s.Workload.Size, size)
}

// resolve walks a --set path to an addressable field or to a policy
// option, allocating the sweep if the path goes through it (callers work
// on a clone).
func resolve(s *Scenario, p string) (schema.Target, *FieldError) {
	return scenarioSchema.Resolve(reflect.ValueOf(s), p, "the scenario")
}

// setOption writes val (nil: remove) at an option path.
func setOption(t schema.Target, val any) *FieldError {
	return t.Holder.Addr().Interface().(*PolicyEntry).SetOption(t.Keys, val)
}
