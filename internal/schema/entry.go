package schema

import (
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// Entry is one item of a list of named things that each take options, such
// as a scenario's policies: a name from a catalog, the label its rows carry,
// and its options. Whether the name and options are known is the catalog's
// to say; the schema knows only the entry's YAML shape.
//
// In YAML an entry is either a plain name (`hybrid`) or a mapping
// (`{name: hybrid, as: hybrid-eps0, epsilon: 0}`) in which every key besides
// name and as is an option.
type Entry struct {
	Name    string         // registry name, e.g. "hybrid"
	As      string         // label; "" means Name. [a-z0-9_-]+, unique across entries
	Options map[string]any // option name → value as decoded from YAML (int, float64, string, bool, []any, map[string]any); nil when none
}

// Label is the name the entry's rows carry: As, or Name when As is empty.
func (e Entry) Label() string {
	if e.As != "" {
		return e.As
	}
	return e.Name
}

// Entries turns a list of names into plain entries (no label, no options).
func Entries(names []string) []Entry {
	es := make([]Entry, len(names))
	for i, n := range names {
		es[i] = Entry{Name: n}
	}
	return es
}

// CloneEntries deep-copies a list of entries, keeping nil as nil.
func CloneEntries(es []Entry) []Entry {
	if es == nil {
		return nil
	}
	c := make([]Entry, len(es))
	for i, e := range es {
		c[i] = Entry{Name: e.Name, As: e.As, Options: CloneMap(e.Options)}
	}
	return c
}

// EntryShape says what an entry looks like in YAML.
const EntryShape = "a policy name or a mapping (name, as, and the policy's options)"

// EntryCustom is the Custom of Entry: its YAML shape, its walk, and name
// and as as the fields a --set path names below it (any other key is an
// option). noun and example are Custom's Noun and PathExample, keysLike
// its KeysLike.
func EntryCustom(noun, example string, keysLike reflect.Type) Custom {
	return Custom{
		Type:        reflect.TypeFor[Entry](),
		Shape:       EntryShape,
		ListShape:   "a list of policies (each " + EntryShape + ")",
		Walk:        walkEntry,
		Field:       entryField,
		PathExample: example,
		Noun:        noun,
		KeysLike:    keysLike,
	}
}

// entryField is an entry's field a --set path names below it: name and
// as; any other key is an option.
func entryField(v reflect.Value, key string) (reflect.Value, bool) {
	switch key {
	case "name":
		return v.Field(0), true
	case "as":
		return v.Field(1), true
	}
	return reflect.Value{}, false
}

// walkEntry checks the shape of one entry: a name, or a mapping with a
// string name, an optional string as, and options of any YAML value.
func walkEntry(w *Walker, n *yaml.Node, segs []string) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		if IsNull(n) || n.ShortTag() != "!!str" {
			w.BadValue(n, segs, "%s is not allowed: want %s", NodeKind(n), EntryShape)
		}
	case yaml.MappingNode:
		if !entryMapping(w, n, segs, 0) {
			w.BadValue(n, segs, "a mapping is not allowed without name (the policy's registry name): want %s, e.g. {name: hybrid, as: hybrid-eps0, epsilon: 0}", EntryShape)
		}
	default:
		w.BadValue(n, segs, "%s is not allowed: want %s", NodeKind(n), EntryShape)
	}
	return true
}

// entryMapping checks the keys of an entry (and of the mappings its merge
// keys pull in); it reports whether a name was among them.
func entryMapping(w *Walker, n *yaml.Node, segs []string, depth int) (named bool) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Deref(n.Content[i]), n.Content[i+1]
		if k == nil || !w.Key(k, seen, segs, "name, as or an option name") {
			continue
		}
		if IsMerge(k) {
			w.Merge(v, segs, depth, func(m *yaml.Node) {
				named = entryMapping(w, m, segs, depth+1) || named
			})
			continue
		}
		at := Sub(segs, k.Value)
		switch k.Value {
		case "name", "as":
			named = named || k.Value == "name"
			entryString(w, k.Value, v, at)
		default:
			w.AnyValue(v, at, 0)
		}
	}
	return named
}

// entryString checks an entry's name or as: a string.
func entryString(w *Walker, key string, v *yaml.Node, at []string) {
	d := Deref(v)
	if d == nil || !w.Budget(d) {
		return
	}
	if d.Kind != yaml.ScalarNode || d.ShortTag() != "!!str" {
		what := "the policy's registry name"
		if key == "as" {
			what = "the label its rows carry, [a-z0-9_-]+"
		}
		w.BadValue(d, at, "%s is not allowed: want a string (%s)", NodeKind(d), what)
	}
}

// UnmarshalYAML decodes an entry from a name or a mapping. The walker has
// already reported a bad shape with its position, so a bad shape decodes
// as an entry without a name rather than failing: yaml.v3 drops a list item
// that fails, which would shift the indices of every later entry's errors.
func (e *Entry) UnmarshalYAML(n *yaml.Node) error {
	*e = Entry{}
	n = Deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if !IsNull(n) {
			e.Name = n.Value
		}
	case yaml.MappingNode:
		e.decodeMapping(n)
	}
	return nil
}

// decodeMapping reads name, as and the options of an entry's mapping.
func (e *Entry) decodeMapping(n *yaml.Node) {
	budget := Budget(n)
	for _, kv := range Flatten(n) {
		v := Deref(kv.V)
		switch kv.K.Value {
		case "name":
			if v != nil && v.Kind == yaml.ScalarNode {
				e.Name = v.Value
			}
		case "as":
			if v != nil && v.Kind == yaml.ScalarNode {
				e.As = v.Value
			}
		default:
			if e.Options == nil {
				e.Options = map[string]any{}
			}
			e.Options[kv.K.Value] = ToAny(v, &budget, 0)
		}
	}
}

// MarshalYAML writes an entry with no label and no options as its plain
// name, so that the resolved file (and hash) of a document that lists only
// names is the same as before entries existed; any other entry is a mapping
// of name, as (if set), then the options in sorted key order.
func (e Entry) MarshalYAML() (any, error) {
	if e.As == "" && len(e.Options) == 0 {
		return e.Name, nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, StrNode("name"), StrNode(e.Name))
	if e.As != "" {
		m.Content = append(m.Content, StrNode("as"), StrNode(e.As))
	}
	for _, k := range SortedKeys(e.Options) {
		v, err := FromAny(e.Options[k], 0)
		if err != nil {
			return nil, fmt.Errorf("policy %s option %s: %w", e.Label(), k, err)
		}
		m.Content = append(m.Content, StrNode(k), v)
	}
	return m, nil
}

// SetOption writes val (nil: remove) at the option path keys, as a --set
// path below the entry gives it: keys before the last name mappings, made
// as needed. The error has no Field: the caller knows the path.
func (e *Entry) SetOption(keys []string, val any) *FieldError {
	if e.Options == nil {
		if val == nil {
			return nil
		}
		e.Options = map[string]any{}
	}
	m, ferr := optionMap(e.Options, keys, val == nil)
	if ferr != nil || m == nil {
		return ferr
	}
	last := keys[len(keys)-1]
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

// optionMap walks the mappings named by all keys but the last, making each
// that is missing unless removing (then nil: there is nothing to remove).
func optionMap(m map[string]any, keys []string, removing bool) (map[string]any, *FieldError) {
	for i, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			if old, there := m[k]; there && old != nil {
				return nil, &FieldError{Msg: fmt.Sprintf("option %s is %v, not a mapping: it has no %q", strings.Join(keys[:i+1], "."), old, keys[i+1])}
			}
			if removing {
				return nil, nil
			}
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	return m, nil
}
