package schema

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Aliases and merge keys let a small file describe an exponentially large
// tree. A walk may visit minVisits nodes, or expansionFactor times the nodes
// the document holds, before it gives up (yaml.v3's decoder has its own,
// similar guard).
const (
	minVisits       = 100000
	expansionFactor = 10
	// MaxMergeDepth bounds how deep merge keys may pull in mappings that
	// themselves merge.
	MaxMergeDepth = 16
)

// Budget is the number of nodes a walk of the document n may visit.
func Budget(n *yaml.Node) int { return max(minVisits, expansionFactor*CountNodes(n)) }

// Walker checks a YAML tree against a Go type before anything is decoded.
// yaml.v3's strict decoder stops at line granularity and lets 2.5 truncate
// into an int; the walk gives every unknown key and every wrongly typed value
// a line, a column and a field path, all in one pass.
type Walker struct {
	Errs   Errors
	Bad    [][]string // paths whose value could not be decoded
	Visits int
	Limit  int // visits allowed; set by NewWalker

	schema *Schema
	name   Namer
	drops  map[*yaml.Node]map[int]bool // keys to remove before yaml.v3 decodes (see Prune)
	seen   map[string]bool
}

// NewWalker returns a walker whose visit budget suits the document n,
// naming list items in its errors with name (nil: indices only).
func NewWalker(s *Schema, n *yaml.Node, name Namer) *Walker {
	return &Walker{Limit: Budget(n), schema: s, name: name}
}

// Exhausted reports whether the walk gave up on an alias bomb.
func (w *Walker) Exhausted() bool { return w.Visits > w.Limit }

// Add records a problem once, though an alias or a merge key can bring the
// same node past the walk several times.
func (w *Walker) Add(n *yaml.Node, segs []string, format string, args ...any) {
	e := &FieldError{
		Line:   n.Line,
		Column: n.Column,
		Field:  FieldName(segs, w.name),
		Msg:    fmt.Sprintf(format, args...),
		Path:   segs,
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if key := e.Error(); !w.seen[key] {
		w.seen[key] = true
		w.Errs = append(w.Errs, e)
	}
}

// BadValue records an error about the value at segs itself, so that the
// caller does not also report the zero it left behind.
func (w *Walker) BadValue(n *yaml.Node, segs []string, format string, args ...any) {
	w.Add(n, segs, format, args...)
	w.Bad = append(w.Bad, segs)
}

// Budget counts a visit of n; false once the walk has visited too many.
func (w *Walker) Budget(n *yaml.Node) bool {
	w.Visits++
	if w.Visits == w.Limit+1 {
		w.Add(n, nil, "the document expands to more than %d nodes (aliases or merge keys)", w.Limit)
	}
	return w.Visits <= w.Limit
}

// Walk checks the value n against type t.
func (w *Walker) Walk(n *yaml.Node, t reflect.Type, segs []string) {
	if n = Deref(n); n == nil || !w.Budget(n) {
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if c := w.schema.custom(t); c != nil && c.Walk != nil && c.Walk(w, n, segs) {
		return
	}
	if IsNull(n) {
		// yaml.v3 resets a list or pointer to nil and leaves a mapping as it
		// was; a null scalar would silently keep the default, so refuse it.
		if t.Kind() != reflect.Struct && t.Kind() != reflect.Slice {
			w.BadValue(n, segs, "null is not allowed: want %s", w.schema.Describe(t))
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			w.BadValue(n, segs, "%s is not allowed: want %s", NodeKind(n), w.schema.Describe(t))
			return
		}
		w.mapping(n, t, segs, 0)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			w.BadValue(n, segs, "%s is not allowed: want %s", NodeKind(n), w.schema.Describe(t))
			return
		}
		w.list(n, t, segs)
	default:
		w.Scalar(n, t, segs)
	}
}

// list checks the items of a list n of type t.
func (w *Walker) list(n *yaml.Node, t reflect.Type, segs []string) {
	for i, el := range n.Content {
		at := Sub(segs, strconv.Itoa(i))
		if d := Deref(el); d != nil && IsNull(d) {
			// yaml.v3 drops a null item of a list of structs or
			// numbers: refuse it, and stand a placeholder in its slot
			// so that the later items keep their indices in errors.
			w.Visits++
			c := w.schema.custom(t.Elem())
			if c == nil || c.Walk == nil || !c.Walk(w, d, at) {
				w.BadValue(d, at, "null is not allowed: want %s", w.schema.Describe(t.Elem()))
			}
			n.Content[i] = placeholder(t.Elem(), d)
			continue
		}
		w.Walk(el, t.Elem(), at)
	}
}

// Key reports whether k may stand as a mapping key: a scalar (else want
// says what may) not seen before in the mapping, recorded in seen. It is
// checked before merges are followed, as yaml.v3 refuses a second "<<" as it
// does any repeated key.
func (w *Walker) Key(k *yaml.Node, seen map[string]*yaml.Node, segs []string, want string) bool {
	if k.Kind != yaml.ScalarNode {
		w.Add(k, segs, "%s is not allowed as a key: want %s", NodeKind(k), want)
		return false
	}
	if prev, repeated := seen[k.Value]; repeated {
		w.Add(k, segs, "field %q given twice (first at line %d)", k.Value, prev.Line)
		return false
	}
	seen[k.Value] = k
	return true
}

func (w *Walker) mapping(n *yaml.Node, t reflect.Type, segs []string, depth int) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if !w.Key(k, seen, segs, "a field name") {
			w.drop(n, i)
			continue
		}
		if IsMerge(k) {
			w.merge(v, t, segs, depth)
			continue
		}
		f, ok := FieldByName(t, k.Value)
		if !ok {
			w.Add(k, segs, "unknown field %q (allowed: %s)", k.Value, strings.Join(infoOf(t).names, ", "))
			w.drop(n, i)
			continue
		}
		w.Walk(v, f.Type, Sub(segs, k.Value))
	}
}

// drop marks the pair at Content[i] of mapping n for Prune.
func (w *Walker) drop(n *yaml.Node, i int) {
	if w.drops == nil {
		w.drops = map[*yaml.Node]map[int]bool{}
	}
	if w.drops[n] == nil {
		w.drops[n] = map[int]bool{}
	}
	w.drops[n][i] = true
}

// Prune removes the keys the walk has reported (repeated, unknown, not a
// scalar), so that yaml.v3 can decode the rest and the checks still run on
// it. yaml.v3 skips a whole mapping that repeats a key, and compares every
// pair of keys of a mapping it decodes: a mapping of 100,000 unknown keys
// would cost it 5·10⁹ comparisons. After pruning, a mapping decoded into a
// struct has at most one key per field. One pass per mapping: linear.
func (w *Walker) Prune() {
	for n, idx := range w.drops {
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !idx[i] {
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		clear(n.Content[len(kept):])
		n.Content = kept
	}
	w.drops = nil
}

// merge walks the mappings a "<<" key pulls in as if written in place.
func (w *Walker) merge(v *yaml.Node, t reflect.Type, segs []string, depth int) {
	w.Merge(v, segs, depth, func(m *yaml.Node) { w.mapping(m, t, segs, depth+1) })
}

// Merge hands each mapping a "<<" key's value v pulls in to visit (v a
// mapping, or a list of them), and reports anything else. depth counts
// the merges already followed.
func (w *Walker) Merge(v *yaml.Node, segs []string, depth int, visit func(m *yaml.Node)) {
	if v = Deref(v); v == nil || !w.Budget(v) {
		return
	}
	if depth >= MaxMergeDepth {
		w.Add(v, segs, "merge keys nest deeper than %d", MaxMergeDepth)
		return
	}
	switch v.Kind {
	case yaml.MappingNode:
		visit(v)
	case yaml.SequenceNode:
		for _, el := range v.Content {
			if el = Deref(el); el != nil && el.Kind == yaml.MappingNode {
				visit(el)
			} else if el != nil {
				w.Add(el, segs, "%s is not allowed in a merge: want a mapping", NodeKind(el))
			}
		}
	default:
		w.Add(v, segs, "%s is not allowed in a merge: want a mapping or a list of mappings", NodeKind(v))
	}
}

// Scalar checks the tag before decoding: yaml.v3 would store 2.5 into an int
// field as 2, and the quoted "3" into a number field is a string by intent.
func (w *Walker) Scalar(n *yaml.Node, t reflect.Type, segs []string) {
	if n.Kind != yaml.ScalarNode {
		w.BadValue(n, segs, "%s is not allowed: want %s", NodeKind(n), w.schema.Describe(t))
		return
	}
	if !w.scalarTag(n, t, segs) || fastScalar(n, t) {
		return // no yaml.v3 Decode per scalar: it dominated a large file
	}
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		w.BadValue(n, segs, "%q is not allowed: want %s (out of range)", n.Value, w.schema.Describe(t))
	}
}

// scalarTag checks that a scalar's tag suits a number field; false when it
// reported that it does not.
func (w *Walker) scalarTag(n *yaml.Node, t reflect.Type, segs []string) bool {
	tag := n.ShortTag()
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		if tag == "!!float" && n.Style == 0 && integerText(n.Value) {
			// 99999999999999999999 resolves to a float: it is an integer
			// too large for the field, not a fraction.
			limit := uint64(math.MaxInt64)
			if t.Kind() == reflect.Uint || t.Kind() == reflect.Uint64 {
				limit = math.MaxUint64
			}
			w.BadValue(n, segs, "%s is out of range: want %s up to %d", n.Value, w.schema.Describe(t), limit)
			return false
		}
		if tag != "!!int" {
			w.BadValue(n, segs, "%q is not allowed: want %s", n.Value, w.schema.Describe(t))
			return false
		}
	case reflect.Float64:
		if tag != "!!int" && tag != "!!float" {
			if tag == "!!str" && n.Style == 0 && NumberOutOfRange(n.Value) {
				w.BadValue(n, segs, "%s is out of range: want a number of magnitude ≤ %s (a float64)", n.Value, FmtNum(math.MaxFloat64))
				return false
			}
			w.BadValue(n, segs, "%q is not allowed: want %s", n.Value, w.schema.Describe(t))
			return false
		}
	}
	return true
}

// placeholder stands in for a null list item: it decodes (an empty
// mapping as a zero struct, NaN as a number), where null would be dropped.
// Only its slot is replaced: the null node may be an anchor used elsewhere.
func placeholder(t reflect.Type, null *yaml.Node) *yaml.Node {
	p := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: null.Line, Column: null.Column}
	if t.Kind() == reflect.Float64 {
		p = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: ".nan", Line: null.Line, Column: null.Column}
	}
	return p
}

// fastScalar reports whether a scalar, its tag already checked, surely
// decodes into t: a string, a plain decimal integer for an int, a plain
// finite float for a float64.
func fastScalar(n *yaml.Node, t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		return n.ShortTag() == "!!str"
	case reflect.Int, reflect.Int64:
		_, err := strconv.Atoi(n.Value)
		return err == nil
	case reflect.Float64:
		f, err := strconv.ParseFloat(n.Value, 64)
		return err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return false
}
