package scenario

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

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
	v, segs := tgt.v, tgt.segs
	n, ferr := parseValue(p, value)
	if ferr != nil {
		return nil, ferr
	}
	if tgt.isOption() {
		if n == nil {
			return nil, &FieldError{Field: p, Msg: "an empty value is not allowed: want a YAML value (null removes the option)"}
		}
		w := newWalker(n, nil)
		w.anyValue(n, nil, 0)
		if len(w.errs) > 0 {
			return nil, &FieldError{Field: p, Msg: valueErr(value, w.errs)}
		}
		budget := w.limit
		var val any
		if d := deref(n); d == nil || !isNull(d) {
			val = nodeToAny(n, &budget, 0)
		}
		if ferr := c.setOption(tgt, val); ferr != nil {
			ferr.Field = p
			return nil, ferr
		}
		return segs, nil
	}
	if n == nil {
		if v.Kind() != reflect.String {
			return nil, &FieldError{Field: p, Msg: "an empty value is not allowed: want " + describe(v.Type())}
		}
		v.SetString("")
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
	return segs, nil
}

// parseValue reads a --set value as one YAML node; nil for an empty value.
// A second document would be silently ignored by yaml.Unmarshal, so it is
// an error, as in a file.
func parseValue(p, value string) (*yaml.Node, *FieldError) {
	if len(value) > MaxFileSize {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("a value of %d bytes is out of range: at most %d bytes (1 MiB)", len(value), MaxFileSize)}
	}
	dec := yaml.NewDecoder(strings.NewReader(value))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not valid YAML: %s", value, yamlMsg(err))}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not allowed: a second YAML document (after ---); a value is one document", value)}
	} else if !errors.Is(err, io.EOF) {
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
	s.restateData(segs, n)
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
		case d.Dist == "bounded-pareto":
			d.Alpha = 0 // no default shape: the file gives it
		case d.Dist != "pareto":
			d.Alpha = 0
		case d.Alpha == 0:
			d.Alpha = DefaultAlpha
		}
	}
	if child(size, "cv") == nil && d.Dist != "lognormal" {
		d.CV = 0
	}
	restateBounded(d, size)
}

// target is where a --set path leads: a field (v), or an option of a
// policy entry (entry and keys, v invalid). segs is the canonical path,
// lists by index.
type target struct {
	v     reflect.Value
	entry int
	keys  []string
	segs  []string
}

func (t target) isOption() bool { return len(t.keys) > 0 }

// splitPath splits a --set path into segments: dots separate them, and a
// bracketed index or name is a segment of its own (tiers[1].servers is
// tiers.1.servers).
func splitPath(p string) ([]string, string) {
	var parts []string
	var cur strings.Builder
	afterBracket := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '.':
			if !afterBracket || cur.Len() > 0 {
				parts = append(parts, cur.String())
			}
			cur.Reset()
			afterBracket = false
		case '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, "unclosed [ (paths look like tiers[1].servers or tiers.edge.servers)"
			}
			if cur.Len() > 0 || (i > 0 && !afterBracket) {
				parts = append(parts, cur.String())
			}
			cur.Reset()
			parts = append(parts, p[i+1:i+end])
			i += end
			afterBracket = true
		case ']':
			return nil, "] without [ (paths look like tiers[1].servers or tiers.edge.servers)"
		default:
			if afterBracket {
				return nil, "want . or [ after ] (paths look like tiers[1].servers)"
			}
			cur.WriteByte(c)
		}
	}
	if !afterBracket {
		parts = append(parts, cur.String())
	}
	return parts, ""
}

// resolve walks a --set path to an addressable field or to a policy
// option, allocating the sweep if the path goes through it (callers work
// on a clone).
func resolve(s *Scenario, p string) (target, *FieldError) {
	fail := func(format string, args ...any) (target, *FieldError) {
		return target{}, &FieldError{Field: p, Msg: fmt.Sprintf(format, args...)}
	}
	parts, msg := splitPath(p)
	if msg != "" {
		return fail("%s", msg)
	}
	cur := reflect.ValueOf(s).Elem()
	segs := make([]string, 0, len(parts))
	for i, part := range parts {
		where := strings.Join(parts[:i], ".")
		if part == "" {
			return fail("empty path segment (paths look like tiers.edge.servers)")
		}
		if cur.Kind() == reflect.Pointer {
			if cur.IsNil() {
				cur.Set(reflect.New(cur.Type().Elem()))
			}
			cur = cur.Elem()
		}
		if cur.Type() == policyEntryType {
			// segs is policies, index: below an entry, name and as are its
			// fields and every other key an option.
			switch part {
			case "name":
				cur = cur.Field(0)
			case "as":
				cur = cur.Field(1)
			default:
				j, _ := strconv.Atoi(segs[1])
				keys := slices.Clone(parts[i:])
				for _, k := range keys {
					if k == "" {
						return fail("empty path segment (paths look like policies.hybrid.epsilon)")
					}
				}
				return target{entry: j, keys: keys, segs: append(segs, keys...)}, nil
			}
			segs = append(segs, part)
			continue
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
	return target{v: cur, segs: segs}, nil
}

// setOption writes val (nil: remove) at an option path.
func (s *Scenario) setOption(t target, val any) *FieldError {
	e := &s.Policies[t.entry]
	if e.Options == nil {
		if val == nil {
			return nil
		}
		e.Options = map[string]any{}
	}
	m := e.Options
	for i, k := range t.keys[:len(t.keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			if old, there := m[k]; there && old != nil {
				return &FieldError{Msg: fmt.Sprintf("option %s is %v, not a mapping: it has no %q", strings.Join(t.keys[:i+1], "."), old, t.keys[i+1])}
			}
			if val == nil {
				return nil
			}
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	last := t.keys[len(t.keys)-1]
	if val == nil {
		delete(m, last)
		if len(e.Options) == 0 {
			e.Options = nil // "none" is nil, so that the entry marshals as a name
		}
		return nil
	}
	m[last] = val
	return nil
}

func orTop(where string) string {
	if where == "" {
		return "the scenario"
	}
	return where
}

// sliceIndex finds a list element by index, a tier by name or a policy
// entry by label.
func sliceIndex(list reflect.Value, part, where string) (int, string) {
	var names []string
	noun := "element"
	switch l := list.Interface().(type) {
	case []Tier:
		noun = "tier"
		for _, t := range l {
			names = append(names, t.Name)
		}
	case []PolicyEntry:
		noun = "policy"
		for _, e := range l {
			names = append(names, e.Label())
		}
	}
	if j := slices.Index(names, part); j >= 0 {
		return j, ""
	}
	if j, err := strconv.Atoi(part); err == nil && j >= 0 && j < list.Len() {
		return j, ""
	}
	if list.Len() == 0 {
		return 0, fmt.Sprintf("no %s %q: %s is empty (set the whole list instead, e.g. %s=[...])", noun, part, where, where)
	}
	allowed := fmt.Sprintf("an index 0 to %d", list.Len()-1)
	if names != nil {
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
