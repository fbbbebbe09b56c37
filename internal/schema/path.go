package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Target is where a --set path leads: a field (Value), or keys below a
// value of a custom type that are not its fields (Holder and Keys, Value
// invalid: an option of a policy entry). Path is the canonical path, lists
// by index.
type Target struct {
	Value  reflect.Value
	Holder reflect.Value
	Keys   []string
	Path   []string
}

// IsKeys reports whether the path ended below a custom value's fields.
func (t Target) IsKeys() bool { return len(t.Keys) > 0 }

// SplitPath splits a --set path into segments: dots separate them, and a
// bracketed index or name is a segment of its own (tiers[1].servers is
// tiers.1.servers). A malformed path gives "" and what is wrong.
func (s *Schema) SplitPath(p string) ([]string, string) {
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
				return nil, "unclosed [ (paths look like " + s.IndexPath + " or " + s.NamePath + ")"
			}
			if cur.Len() > 0 || (i > 0 && !afterBracket) {
				parts = append(parts, cur.String())
			}
			cur.Reset()
			parts = append(parts, p[i+1:i+end])
			i += end
			afterBracket = true
		case ']':
			return nil, "] without [ (paths look like " + s.IndexPath + " or " + s.NamePath + ")"
		default:
			if afterBracket {
				return nil, "want . or [ after ] (paths look like " + s.IndexPath + ")"
			}
			cur.WriteByte(c)
		}
	}
	if !afterBracket {
		parts = append(parts, cur.String())
	}
	return parts, ""
}

// Resolve walks a --set path from root (a pointer to the document's
// struct) to an addressable field, or to keys below a custom value,
// allocating what is nil on the way (callers work on a copy). top is what
// messages call the root ("the scenario").
func (s *Schema) Resolve(root reflect.Value, p, top string) (Target, *FieldError) {
	fail := func(format string, args ...any) (Target, *FieldError) {
		return Target{}, &FieldError{Field: p, Msg: fmt.Sprintf(format, args...)}
	}
	parts, msg := s.SplitPath(p)
	if msg != "" {
		return fail("%s", msg)
	}
	cur := root.Elem()
	segs := make([]string, 0, len(parts))
	for i, part := range parts {
		if part == "" {
			return fail("empty path segment (paths look like %s)", s.NamePath)
		}
		if cur.Kind() == reflect.Pointer {
			if cur.IsNil() {
				cur.Set(reflect.New(cur.Type().Elem()))
			}
			cur = cur.Elem()
		}
		if c := s.custom(cur.Type()); c != nil && !c.isField(cur, part) {
			keys := slices.Clone(parts[i:])
			if slices.Contains(keys, "") {
				return fail("empty path segment (paths look like %s)", c.PathExample)
			}
			return Target{Holder: cur, Keys: keys, Path: append(segs, keys...)}, nil
		}
		next, seg, msg := s.step(cur, part, strings.Join(parts[:i], "."), top)
		if msg != "" {
			return fail("%s", msg)
		}
		cur = next
		segs = append(segs, seg)
	}
	return Target{Value: cur, Path: segs}, nil
}

// isField reports whether key names a field of the custom value v.
func (c *Custom) isField(v reflect.Value, key string) bool {
	if c.Field == nil {
		return false
	}
	_, ok := c.Field(v, key)
	return ok
}

// step goes from cur, at the path where, to its part: a field, a list
// item, or a custom value's field. It returns the canonical segment, or
// what is wrong.
func (s *Schema) step(cur reflect.Value, part, where, top string) (reflect.Value, string, string) {
	if c := s.custom(cur.Type()); c != nil {
		v, _ := c.Field(cur, part)
		return v, part, ""
	}
	switch cur.Kind() {
	case reflect.Struct:
		f, ok := FieldByName(cur.Type(), part)
		if !ok {
			if where == "" {
				where = top
			}
			return cur, "", fmt.Sprintf("no field %q in %s (allowed: %s)", part, where, strings.Join(FieldNames(cur.Type()), ", "))
		}
		return cur.FieldByIndex(f.Index), part, ""
	case reflect.Slice:
		j, msg := s.sliceIndex(cur, part, where)
		if msg != "" {
			return cur, "", msg
		}
		return cur.Index(j), strconv.Itoa(j), ""
	}
	return cur, "", fmt.Sprintf("no field %q in %s: it is %s, which has no fields", part, where, s.Describe(cur.Type()))
}

// sliceIndex finds a list element by index, or by a name Names gives it.
func (s *Schema) sliceIndex(list reflect.Value, part, where string) (int, string) {
	var names []string
	noun := "element"
	if s.Names != nil {
		if n, ns := s.Names(list); n != "" {
			noun, names = n, ns
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
