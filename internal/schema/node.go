package schema

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// Deref follows an alias to the node it names; nil stays nil, and so does
// a chain of aliases too long to be anything but a loop.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// IsNull reports whether n is a null scalar.
func IsNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// IsMerge reports whether k is a merge key ("<<").
func IsMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// NodeKind names what a node is, for "X is not allowed" messages.
func NodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if IsNull(n) {
			return "null"
		}
		return strconv.Quote(n.Value)
	}
	return "this node"
}

// CountNodes counts the nodes written in a document, aliases not followed.
func CountNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	total := 1
	for _, c := range n.Content {
		total += CountNodes(c)
	}
	return total
}

// Child returns the value under key in a mapping (following aliases and
// merge keys as yaml.v3 does: explicit keys win), or nil.
func Child(n *yaml.Node, key string) *yaml.Node {
	return childDepth(n, key, 0)
}

func childDepth(n *yaml.Node, key string, depth int) *yaml.Node {
	if n = Deref(n); n == nil || n.Kind != yaml.MappingNode || depth > MaxMergeDepth {
		return nil
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := Deref(n.Content[i])
		switch {
		case k == nil:
		case IsMerge(k):
			merges = append(merges, n.Content[i+1])
		case k.Kind == yaml.ScalarNode && k.Value == key:
			return Deref(n.Content[i+1])
		}
	}
	for _, m := range merges {
		m = Deref(m)
		if m != nil && m.Kind == yaml.SequenceNode {
			for _, el := range m.Content {
				if v := childDepth(el, key, depth+1); v != nil {
					return v
				}
			}
		} else if v := childDepth(m, key, depth+1); v != nil {
			return v
		}
	}
	return nil
}

// KeyValue is one pair of a flattened mapping.
type KeyValue struct {
	K, V *yaml.Node
}

// Flatten lists a mapping's pairs: its explicit keys, then the keys its
// merge keys pull in (explicit keys win, earlier merges win), as yaml.v3
// merges. Each key appears once, at its first node.
func Flatten(n *yaml.Node) []KeyValue {
	return flatten(n, 0, map[string]bool{}, nil)
}

func flatten(n *yaml.Node, depth int, seen map[string]bool, out []KeyValue) []KeyValue {
	if n = Deref(n); n == nil || n.Kind != yaml.MappingNode || depth > MaxMergeDepth {
		return out
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := Deref(n.Content[i])
		switch {
		case k == nil:
		case IsMerge(k):
			merges = append(merges, n.Content[i+1])
		case k.Kind == yaml.ScalarNode:
			if !seen[k.Value] {
				seen[k.Value] = true
				out = append(out, KeyValue{k, n.Content[i+1]})
			}
		}
	}
	for _, m := range merges {
		if m = Deref(m); m != nil && m.Kind == yaml.SequenceNode {
			for _, el := range m.Content {
				out = flatten(el, depth+1, seen, out)
			}
		} else {
			out = flatten(m, depth+1, seen, out)
		}
	}
	return out
}

// Locator finds the nodes at canonical paths, indexing each mapping it
// searches once: a caller looks up one path per error, and a linear search
// of a 100,000-key mapping per error would be quadratic.
type Locator struct {
	idx map[*yaml.Node]*mapIndex
}

type mapIndex struct {
	keys   map[string]*yaml.Node // explicit keys: the first of each wins
	merges []*yaml.Node          // merge values, in order
}

func (l *Locator) index(n *yaml.Node) *mapIndex {
	if l.idx == nil {
		l.idx = map[*yaml.Node]*mapIndex{}
	}
	if mi, ok := l.idx[n]; ok {
		return mi
	}
	mi := &mapIndex{keys: map[string]*yaml.Node{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := Deref(n.Content[i])
		switch {
		case k == nil:
		case IsMerge(k):
			mi.merges = append(mi.merges, n.Content[i+1])
		case k.Kind == yaml.ScalarNode:
			if _, dup := mi.keys[k.Value]; !dup {
				mi.keys[k.Value] = n.Content[i+1]
			}
		}
	}
	l.idx[n] = mi
	return mi
}

// Child is the package's Child, through the index.
func (l *Locator) Child(n *yaml.Node, key string) *yaml.Node {
	return l.child(n, key, 0)
}

func (l *Locator) child(n *yaml.Node, key string, depth int) *yaml.Node {
	if n = Deref(n); n == nil || n.Kind != yaml.MappingNode || depth > MaxMergeDepth {
		return nil
	}
	mi := l.index(n)
	if v, ok := mi.keys[key]; ok {
		return Deref(v)
	}
	for _, m := range mi.merges {
		m = Deref(m)
		if m != nil && m.Kind == yaml.SequenceNode {
			for _, el := range m.Content {
				if v := l.child(el, key, depth+1); v != nil {
					return v
				}
			}
		} else if v := l.child(m, key, depth+1); v != nil {
			return v
		}
	}
	return nil
}

// Locate finds the node at a canonical path, or nil.
func (l *Locator) Locate(n *yaml.Node, segs []string) *yaml.Node {
	for _, seg := range segs {
		if n = Deref(n); n == nil {
			return nil
		}
		if i, err := strconv.Atoi(seg); err == nil && n.Kind == yaml.SequenceNode {
			if i < 0 || i >= len(n.Content) {
				return nil
			}
			n = Deref(n.Content[i])
			continue
		}
		n = l.child(n, seg, 0)
	}
	return n
}
