package scenario

import (
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// policyEntry checks the shape of one item of policies: a name, or a
// mapping with a string name, an optional string as, and options of any
// YAML value. Whether the name and options are known is Validate's job,
// since only the catalog knows.
func (w *walker) policyEntry(n *yaml.Node, segs []string) {
	switch n.Kind {
	case yaml.ScalarNode:
		if isNull(n) || n.ShortTag() != "!!str" {
			w.badValue(n, segs, "%s is not allowed: want %s", nodeKind(n), entryShape)
		}
	case yaml.MappingNode:
		if !w.entryMapping(n, segs, 0) {
			w.badValue(n, segs, "a mapping is not allowed without name (the policy's registry name): want %s, e.g. {name: hybrid, as: hybrid-eps0, epsilon: 0}", entryShape)
		}
	default:
		w.badValue(n, segs, "%s is not allowed: want %s", nodeKind(n), entryShape)
	}
}

// entryMapping checks the keys of an entry (and of the mappings its merge
// keys pull in); it reports whether a name was among them.
func (w *walker) entryMapping(n *yaml.Node, segs []string, depth int) (named bool) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if !w.key(k, seen, segs, "name, as or an option name") {
			continue
		}
		if isMerge(k) {
			named = w.entryMerge(v, segs, depth) || named
			continue
		}
		at := sub(segs, k.Value)
		switch k.Value {
		case "name", "as":
			if k.Value == "name" {
				named = true
			}
			d := deref(v)
			if d == nil || !w.budget(d) {
				continue
			}
			if d.Kind != yaml.ScalarNode || d.ShortTag() != "!!str" {
				what := "the policy's registry name"
				if k.Value == "as" {
					what = "the label its rows carry, [a-z0-9_-]+"
				}
				w.badValue(d, at, "%s is not allowed: want a string (%s)", nodeKind(d), what)
			}
		default:
			w.anyValue(v, at, 0)
		}
	}
	return named
}

// entryMerge is merge for an entry mapping.
func (w *walker) entryMerge(v *yaml.Node, segs []string, depth int) (named bool) {
	if v = deref(v); v == nil || !w.budget(v) {
		return false
	}
	if depth >= maxMergeDepth {
		w.add(v, segs, "merge keys nest deeper than %d", maxMergeDepth)
		return false
	}
	switch v.Kind {
	case yaml.MappingNode:
		return w.entryMapping(v, segs, depth+1)
	case yaml.SequenceNode:
		for _, el := range v.Content {
			if el = deref(el); el != nil && el.Kind == yaml.MappingNode {
				named = w.entryMapping(el, segs, depth+1) || named
			} else if el != nil {
				w.add(el, segs, "%s is not allowed in a merge: want a mapping", nodeKind(el))
			}
		}
		return named
	}
	w.add(v, segs, "%s is not allowed in a merge: want a mapping or a list of mappings", nodeKind(v))
	return false
}

// anyValue checks an option value, which may be any YAML value: only that
// its keys are scalars and unique, and that its numbers fit their Go types
// (a number that does not fit would otherwise silently become a string).
func (w *walker) anyValue(n *yaml.Node, segs []string, depth int) {
	if n = deref(n); n == nil || !w.budget(n) {
		return
	}
	if depth > maxValueDepth {
		w.add(n, segs, "nested deeper than %d", maxValueDepth)
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		tag := n.ShortTag()
		switch {
		case tag == "!!str" && n.Style == 0 && numberOutOfRange(n.Value):
			w.badValue(n, segs, "%s is out of range: want a number of magnitude ≤ %s (a float64)", n.Value, fmtNum(math.MaxFloat64))
		case tag == "!!int":
			var i int
			if _, err := strconv.Atoi(n.Value); err != nil && n.Decode(&i) != nil {
				w.badValue(n, segs, "%s is out of range: want an integer from %d to %d", n.Value, math.MinInt64, math.MaxInt64)
			}
		case tag == "!!float" && n.Style == 0 && integerText(n.Value):
			w.badValue(n, segs, "%s is out of range: want an integer from %d to %d", n.Value, math.MinInt64, math.MaxInt64)
		}
	case yaml.SequenceNode:
		for i, el := range n.Content {
			w.anyValue(el, sub(segs, strconv.Itoa(i)), depth+1)
		}
	case yaml.MappingNode:
		w.anyMapping(n, segs, depth, 0)
	}
}

func (w *walker) anyMapping(n *yaml.Node, segs []string, depth, merges int) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if !w.key(k, seen, segs, "a name") {
			continue
		}
		if !isMerge(k) {
			w.anyValue(v, sub(segs, k.Value), depth+1)
			continue
		}
		m := deref(v)
		if m == nil || !w.budget(m) {
			continue
		}
		if merges >= maxMergeDepth {
			w.add(m, segs, "merge keys nest deeper than %d", maxMergeDepth)
			continue
		}
		var ms []*yaml.Node
		switch m.Kind {
		case yaml.MappingNode:
			ms = []*yaml.Node{m}
		case yaml.SequenceNode:
			ms = m.Content
		}
		if len(ms) == 0 {
			w.add(m, segs, "%s is not allowed in a merge: want a mapping or a list of mappings", nodeKind(m))
		}
		for _, el := range ms {
			if el = deref(el); el != nil && el.Kind == yaml.MappingNode {
				w.anyMapping(el, segs, depth, merges+1)
			} else if el != nil {
				w.add(el, segs, "%s is not allowed in a merge: want a mapping", nodeKind(el))
			}
		}
	}
}

// integerText reports whether s is written as a decimal integer (a sign,
// digits, underscores), which yaml.v3 resolves to a float when it does not
// fit in 64 bits.
func integerText(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// locator finds the nodes at canonical paths, indexing each mapping it
// searches once: Parse looks up one path per error, and a linear search of
// a 100,000-key mapping per error would be quadratic.
type locator struct {
	idx map[*yaml.Node]*mapIndex
}

type mapIndex struct {
	keys   map[string]*yaml.Node // explicit keys: the first of each wins
	merges []*yaml.Node          // merge values, in order
}

func (l *locator) index(n *yaml.Node) *mapIndex {
	if l.idx == nil {
		l.idx = map[*yaml.Node]*mapIndex{}
	}
	if mi, ok := l.idx[n]; ok {
		return mi
	}
	mi := &mapIndex{keys: map[string]*yaml.Node{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		switch {
		case k == nil:
		case isMerge(k):
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

// child is the package's child, through the index.
func (l *locator) child(n *yaml.Node, key string, depth int) *yaml.Node {
	if n = deref(n); n == nil || n.Kind != yaml.MappingNode || depth > maxMergeDepth {
		return nil
	}
	mi := l.index(n)
	if v, ok := mi.keys[key]; ok {
		return deref(v)
	}
	for _, m := range mi.merges {
		m = deref(m)
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

// locate finds the node at a canonical path, or nil.
func (l *locator) locate(n *yaml.Node, segs []string) *yaml.Node {
	for _, seg := range segs {
		if n = deref(n); n == nil {
			return nil
		}
		if i, err := strconv.Atoi(seg); err == nil && n.Kind == yaml.SequenceNode {
			if i < 0 || i >= len(n.Content) {
				return nil
			}
			n = deref(n.Content[i])
			continue
		}
		n = l.child(n, seg, 0)
	}
	return n
}
