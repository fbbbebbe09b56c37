package scenario

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Set overrides one field, as --set path=value does. The path is a dotted
// list of yaml names; a list element is addressed by index
// ("arrivals.bursts.0.factor"), and a tier also by name ("tiers.edge.servers",
// a name winning over an index). The value is YAML, decoded strictly into the
// field's type: "8", "[jsq, random]", "{mean: 0.01, cv: 0}". A mapping merges
// into the current value, as a file merges over Default; a list or a scalar
// replaces it; "null" removes the sweep or empties a list.
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
	v, segs, ferr := resolve(c, p)
	if ferr != nil {
		return nil, ferr
	}
	n, ferr := parseValue(p, value)
	if ferr != nil {
		return nil, ferr
	}
	if n == nil {
		if v.Kind() != reflect.String {
			return nil, &FieldError{Field: p, Msg: "an empty value is not allowed: want " + describe(v.Type())}
		}
		v.SetString("")
		*s = *c
		return segs, nil
	}
	if isNull(deref(n)) && v.Kind() != reflect.Pointer && v.Kind() != reflect.Slice {
		// yaml.v3 would decode null into a struct or a number as no change.
		return nil, &FieldError{Field: p, Msg: "null is not allowed: want " + describe(v.Type()) + " (null only removes the sweep or empties a list)"}
	}
	w := newWalker(n, nil)
	w.walk(n, v.Type(), nil)
	if len(w.errs) > 0 {
		return nil, &FieldError{Field: p, Msg: valueErr(value, w.errs)}
	}
	ptr := reflect.New(v.Type())
	ptr.Elem().Set(v)
	if err := n.Decode(ptr.Interface()); err != nil {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not allowed: %s", value, yamlMsg(err))}
	}
	v.Set(ptr.Elem())
	c.restateDist(segs, n)
	*s = *c
	return segs, nil
}

// parseValue reads a --set value as one YAML node; nil for an empty value.
func parseValue(p, value string) (*yaml.Node, *FieldError) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(value), &doc); err != nil {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not valid YAML: %s", value, yamlMsg(err))}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// valueErr phrases the walk's findings inside a --set value: the value as
// typed, then what is wrong, with the inner field when there is one.
func valueErr(value string, errs Errors) string {
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
		if _, rule, ok := strings.Cut(e.Msg, " is not allowed: "); ok && e.Field == "" {
			parts[i] = rule // the value is quoted once, in front
		}
	}
	return fmt.Sprintf("%q is not allowed: %s", value, strings.Join(parts, "; "))
}

// restateDist applies Set's distribution rule after a write at segs.
func (s *Scenario) restateDist(segs []string, n *yaml.Node) {
	var size *yaml.Node
	switch strings.Join(segs, ".") {
	case "workload.size.dist":
		restateSize(&s.Workload.Size, &yaml.Node{Kind: yaml.MappingNode})
		return
	case "workload.size":
		size = n
	case "workload":
		size = child(n, "size")
	}
	restateSize(&s.Workload.Size, size)
}

// restateSize: when a size mapping is given without alpha (or cv), that
// parameter takes the default of the distribution now in force.
func restateSize(d *Dist, size *yaml.Node) {
	if size = deref(size); size == nil || size.Kind != yaml.MappingNode {
		return
	}
	if child(size, "alpha") == nil {
		switch {
		case d.Dist != "pareto":
			d.Alpha = 0
		case d.Alpha == 0:
			d.Alpha = DefaultAlpha
		}
	}
	if child(size, "cv") == nil && d.Dist != "lognormal" {
		d.CV = 0
	}
}

// resolve walks a --set path to an addressable field, allocating the sweep
// if the path goes through it (callers work on a clone). It also returns the
// canonical path, with tiers by index.
func resolve(s *Scenario, p string) (reflect.Value, []string, *FieldError) {
	cur := reflect.ValueOf(s).Elem()
	parts := strings.Split(p, ".")
	segs := make([]string, 0, len(parts))
	for i, part := range parts {
		where := strings.Join(parts[:i], ".")
		fail := func(format string, args ...any) (reflect.Value, []string, *FieldError) {
			return reflect.Value{}, nil, &FieldError{Field: p, Msg: fmt.Sprintf(format, args...)}
		}
		if part == "" {
			return fail("empty path segment (paths look like tiers.edge.servers)")
		}
		if cur.Kind() == reflect.Pointer {
			if cur.IsNil() {
				cur.Set(reflect.New(cur.Type().Elem()))
			}
			cur = cur.Elem()
		}
		switch cur.Kind() {
		case reflect.Struct:
			f, ok := fieldByName(cur.Type(), part)
			if !ok {
				return fail("no field %q in %s (allowed: %s)", part, orTop(where), strings.Join(fieldNames(cur.Type()), ", "))
			}
			cur = cur.FieldByIndex(f.Index)
			segs = append(segs, part)
		case reflect.Slice:
			j, msg := sliceIndex(cur, part, where)
			if msg != "" {
				return fail("%s", msg)
			}
			cur = cur.Index(j)
			segs = append(segs, strconv.Itoa(j))
		default:
			return fail("no field %q in %s: it is %s, which has no fields", part, where, describe(cur.Type()))
		}
	}
	return cur, segs, nil
}

func orTop(where string) string {
	if where == "" {
		return "the scenario"
	}
	return where
}

// sliceIndex finds a list element by index, or a tier by name.
func sliceIndex(list reflect.Value, part, where string) (int, string) {
	tiers, isTiers := list.Interface().([]Tier)
	if isTiers {
		for j, t := range tiers {
			if t.Name == part {
				return j, ""
			}
		}
	}
	if j, err := strconv.Atoi(part); err == nil && j >= 0 && j < list.Len() {
		return j, ""
	}
	noun := "element"
	if isTiers {
		noun = "tier"
	}
	if list.Len() == 0 {
		return 0, fmt.Sprintf("no %s %q: %s is empty (set the whole list instead, e.g. %s=[...])", noun, part, where, where)
	}
	allowed := fmt.Sprintf("an index 0 to %d", list.Len()-1)
	if isTiers {
		names := make([]string, len(tiers))
		for j, t := range tiers {
			names[j] = t.Name
		}
		allowed = strings.Join(names, ", ") + ", or " + allowed
	}
	return 0, fmt.Sprintf("no %s %q in %s (allowed: %s)", noun, part, where, allowed)
}

// yamlMsg strips yaml.v3's "yaml: " and "unmarshal errors:" framing.
func yamlMsg(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	return strings.Join(strings.Fields(msg), " ")
}
