package schema

import (
	"reflect"
	"strconv"
	"strings"
)

// A path's words, for an axis title. Every numeric field carries its unit
// in a `unit` struct tag (none: a count or a pure number) and may carry a
// `label` tag, the words it reads as under its parent ("" for none: a
// block may add nothing to its field's words); a field without a label tag
// reads as its yaml name. Words composes them, so that a sweep over any
// path gets an axis title with its unit from the types themselves.

// Words names a --set path below type t for an axis title: the name of
// the list item it is under as the path writes it, then each field's
// words, and the leaf's unit apart. ok is false when the path names no
// field.
func (s *Schema) Words(t reflect.Type, path string) (label, unit string, ok bool) {
	parts, msg := s.SplitPath(path)
	if msg != "" || len(parts) == 0 {
		return "", "", false
	}
	return s.words(t, parts)
}

// words composes the words of the fields parts names from type t down,
// and the leaf's unit.
func (s *Schema) words(t reflect.Type, parts []string) (string, string, bool) {
	var words []string
	unit, workAs := "", ""
	for i, p := range parts {
		last := i == len(parts)-1
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch c := s.custom(t); {
		case c != nil:
			w, u := s.keyWords(c, parts[i:])
			return join(words, w), u, true
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
			// An item's name; an index reads as the item's noun and
			// ordinal ("tier 2", "burst 1").
			t = t.Elem()
			if n, err := strconv.Atoi(p); err == nil {
				p = s.noun(t) + " " + strconv.Itoa(n+1)
			}
			words = append(words, p)
		case t.Kind() == reflect.Slice:
			// An element of a list of numbers: its number, counted from
			// 1, with the list's unit.
			n, err := strconv.Atoi(p)
			if err != nil || !last {
				return "", "", false
			}
			return join(words, strconv.Itoa(n+1)), unit, true
		case t.Kind() == reflect.Struct:
			f, ok := FieldByName(t, p)
			if !ok {
				return "", "", false
			}
			if l, ok := f.Tag.Lookup("label"); !ok {
				words = append(words, strings.ReplaceAll(p, "_", " "))
			} else if l != "" {
				words = append(words, l)
			}
			if w, ok := f.Tag.Lookup("workunit"); ok { // a law of another quantity than work: its "work units" read as w
				workAs = w
			}
			t, unit = f.Type, f.Tag.Get("unit")
			if workAs != "" && unit == workUnits {
				unit = workAs
			}
			if last {
				return strings.Join(words, " "), unit, true
			}
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// keyWords are the words of keys below a custom value: those of the field
// of c.KeysLike by that path, or the keys' own, without a unit.
func (s *Schema) keyWords(c *Custom, keys []string) (string, string) {
	if c.KeysLike != nil {
		if w, u, ok := s.words(c.KeysLike, keys); ok {
			return w, u
		}
	}
	return strings.ReplaceAll(strings.Join(keys, " "), "_", " "), ""
}

// noun is what an item of a list of t is called: its custom Noun, else
// its type's name in lower case.
func (s *Schema) noun(t reflect.Type) string {
	if c := s.custom(t); c != nil && c.Noun != "" {
		return c.Noun
	}
	return strings.ToLower(t.Name())
}

// workUnits is the unit of a size law's parameters, which a field tagged
// workunit (a law of durations) reads as its own unit.
const workUnits = "work units"

func join(a []string, b string) string {
	return strings.TrimSpace(strings.Join(append(a, b), " "))
}
