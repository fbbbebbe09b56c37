// Package schema checks YAML documents against Go types before anything is
// decoded, and resolves --set paths into them: the walk of a YAML tree
// with field paths, lines and columns (every unknown key and wrongly typed
// value reported in one pass), strict decoding, free-form values, the
// location of a path in a document, and the key and bound reference read
// from a package's source. It knows no document of its own: a caller
// describes the types whose YAML shape is not their Go shape (Custom), and
// how to name list items in messages.
package schema

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Schema is what the walk, the resolver and the reference know of a
// document beyond its Go types.
type Schema struct {
	// Custom lists the types whose YAML shape is not their Go shape.
	Custom []Custom
	// Name names list items beside their indices in messages (optional).
	Name Namer
	// IndexPath and NamePath are example paths that messages about a
	// malformed --set path quote: one with an index in brackets
	// (tiers[1].servers), one through a named list item
	// (tiers.edge.servers).
	IndexPath, NamePath string
	// Names lists a list's items by the names a path may use for them
	// (a tier by its name), with the noun messages call an item; nil
	// names, and noun "", for a list addressed by index only.
	Names func(list reflect.Value) (noun string, names []string)
}

// Custom is a type whose YAML shape is not its Go shape: the walk hands
// its values to Walk, messages describe it by Shape, and the resolver and
// the reference do not look inside it.
type Custom struct {
	Type reflect.Type
	// Shape says what a value looks like: "a number or a list of numbers".
	Shape string
	// ListShape says what a list of them looks like ("" for the default).
	ListShape string
	// Walk checks a value at path (null included); it returns false to
	// leave the value to the ordinary walk of its Go type.
	Walk func(w *Walker, n *yaml.Node, path []string) bool
	// Field returns the Go field a path's key below a value names
	// (ok false: the key and the rest of the path are for the caller,
	// an option of a policy entry, say); nil when no key is a field.
	Field func(v reflect.Value, key string) (reflect.Value, bool)
	// PathExample is a path below such a value, for messages.
	PathExample string
	// Noun is what an item of a list of them is called in words ("policy
	// 2"); "" for its type's name in lower case.
	Noun string
	// KeysLike is the type whose fields the keys below such a value read
	// as in words, when they are named alike (an entry's options, which
	// override the estimator's fields); nil for none.
	KeysLike reflect.Type
}

// custom returns t's Custom, if it has one.
func (s *Schema) custom(t reflect.Type) *Custom {
	if s == nil {
		return nil
	}
	for i := range s.Custom {
		if s.Custom[i].Type == t {
			return &s.Custom[i]
		}
	}
	return nil
}

// IsCustom reports whether t is one of the schema's custom types.
func (s *Schema) IsCustom(t reflect.Type) bool { return s.custom(t) != nil }

// FieldByName finds a struct field by its yaml name.
func FieldByName(t reflect.Type, name string) (reflect.StructField, bool) {
	f, ok := infoOf(t).byName[name]
	return f, ok
}

// FieldNames lists a struct's yaml names in declaration order (a fresh
// slice).
func FieldNames(t reflect.Type) []string {
	return slices.Clone(infoOf(t).names)
}

// structInfo is what the walker asks of a struct type for every key: kept
// per type, since reading tags by reflection for each of 10⁵ keys was a
// third of the walk.
type structInfo struct {
	names  []string
	byName map[string]reflect.StructField
}

var structInfos sync.Map // reflect.Type → *structInfo; a cache of what the types say

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structInfos.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byName: map[string]reflect.StructField{}}
	for i := range t.NumField() {
		f := t.Field(i)
		if n := YAMLName(f); n != "" {
			si.names = append(si.names, n)
			if _, dup := si.byName[n]; !dup {
				si.byName[n] = f
			}
		}
	}
	structInfos.Store(t, si)
	return si
}

// YAMLName is a field's key: its yaml tag's name, or "" for a field YAML
// does not see.
func YAMLName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

// Describe says what a value of type t looks like in YAML.
func (s *Schema) Describe(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		return s.Describe(t.Elem())
	}
	if c := s.custom(t); c != nil {
		return c.Shape
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint64:
		return "an integer ≥ 0"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Struct:
		return "a mapping (" + strings.Join(FieldNames(t), ", ") + ")"
	case reflect.Slice:
		if c := s.custom(t.Elem()); c != nil && c.ListShape != "" {
			return c.ListShape
		}
		switch e := t.Elem(); e.Kind() {
		case reflect.Struct:
			return "a list of mappings (" + strings.Join(FieldNames(e), ", ") + ")"
		case reflect.Float64:
			return "a list of numbers"
		case reflect.String:
			return "a list of strings"
		}
	}
	return t.String()
}
