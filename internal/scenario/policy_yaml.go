package scenario

import (
	"fmt"

	"github.com/offload-sim/offload/internal/schema"
	"gopkg.in/yaml.v3"
)

const entryShape = "a policy name or a mapping (name, as, and the policy's options)"

// walkEntry checks the shape of one item of policies: a name, or a
// mapping with a string name, an optional string as, and options of any
// YAML value. Whether the name and options are known is Validate's job,
// since only the catalog knows.
func walkEntry(w *schema.Walker, n *yaml.Node, segs []string) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		if schema.IsNull(n) || n.ShortTag() != "!!str" {
			w.BadValue(n, segs, "%s is not allowed: want %s", schema.NodeKind(n), entryShape)
		}
	case yaml.MappingNode:
		if !entryMapping(w, n, segs, 0) {
			w.BadValue(n, segs, "a mapping is not allowed without name (the policy's registry name): want %s, e.g. {name: hybrid, as: hybrid-eps0, epsilon: 0}", entryShape)
		}
	default:
		w.BadValue(n, segs, "%s is not allowed: want %s", schema.NodeKind(n), entryShape)
	}
	return true
}

// entryMapping checks the keys of an entry (and of the mappings its merge
// keys pull in); it reports whether a name was among them.
func entryMapping(w *schema.Walker, n *yaml.Node, segs []string, depth int) (named bool) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := schema.Deref(n.Content[i]), n.Content[i+1]
		if k == nil || !w.Key(k, seen, segs, "name, as or an option name") {
			continue
		}
		if schema.IsMerge(k) {
			w.Merge(v, segs, depth, func(m *yaml.Node) {
				named = entryMapping(w, m, segs, depth+1) || named
			})
			continue
		}
		at := sub(segs, k.Value)
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
func entryString(w *schema.Walker, key string, v *yaml.Node, at []string) {
	d := schema.Deref(v)
	if d == nil || !w.Budget(d) {
		return
	}
	if d.Kind != yaml.ScalarNode || d.ShortTag() != "!!str" {
		what := "the policy's registry name"
		if key == "as" {
			what = "the label its rows carry, [a-z0-9_-]+"
		}
		w.BadValue(d, at, "%s is not allowed: want a string (%s)", schema.NodeKind(d), what)
	}
}

// UnmarshalYAML decodes an entry from a name or a mapping. The walker has
// already reported a bad shape with its position, so a bad shape decodes
// as an entry without a name rather than failing: yaml.v3 drops a list item
// that fails, which would shift the indices of every later entry's errors.
func (e *PolicyEntry) UnmarshalYAML(n *yaml.Node) error {
	*e = PolicyEntry{}
	n = schema.Deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if !schema.IsNull(n) {
			e.Name = n.Value
		}
	case yaml.MappingNode:
		budget := schema.Budget(n)
		for _, kv := range schema.Flatten(n) {
			v := schema.Deref(kv.V)
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
				e.Options[kv.K.Value] = schema.ToAny(v, &budget, 0)
			}
		}
	}
	return nil
}

// MarshalYAML writes an entry with no label and no options as its plain
// name, so that the resolved file (and Hash) of a scenario that lists only
// names is the same as before entries existed; any other entry is a mapping
// of name, as (if set), then the options in sorted key order.
func (e PolicyEntry) MarshalYAML() (any, error) {
	if e.As == "" && len(e.Options) == 0 {
		return e.Name, nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, schema.StrNode("name"), schema.StrNode(e.Name))
	if e.As != "" {
		m.Content = append(m.Content, schema.StrNode("as"), schema.StrNode(e.As))
	}
	for _, k := range schema.SortedKeys(e.Options) {
		v, err := schema.FromAny(e.Options[k], 0)
		if err != nil {
			return nil, fmt.Errorf("policy %s option %s: %w", e.Label(), k, err)
		}
		m.Content = append(m.Content, schema.StrNode(k), v)
	}
	return m, nil
}
