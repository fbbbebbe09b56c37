package scenario

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Aliases and merge keys let a small file describe an exponentially large
// tree. A walk may visit minVisits nodes, or expansionFactor times the nodes
// the document holds, before it gives up (yaml.v3's decoder has its own,
// similar guard).
const (
	minVisits       = 100000
	expansionFactor = 10
	maxMergeDepth   = 16
)

// walker checks a YAML tree against a Go type before anything is decoded.
// yaml.v3's strict decoder stops at line granularity and lets 2.5 truncate
// into an int; the walk gives every unknown key and every wrongly typed value
// a line, a column and a field path, all in one pass.
type walker struct {
	errs     Errors
	bad      [][]string                  // paths whose value could not be decoded
	drops    map[*yaml.Node]map[int]bool // keys to remove before yaml.v3 decodes (see prune)
	visits   int
	limit    int // visits allowed; set by newWalker
	seen     map[string]bool
	tierName func(int) string
}

// newWalker returns a walker whose visit budget suits the document n.
func newWalker(n *yaml.Node, tierName func(int) string) *walker {
	return &walker{limit: max(minVisits, expansionFactor*countNodes(n)), tierName: tierName}
}

// countNodes counts the nodes written in a document, aliases not followed.
func countNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	total := 1
	for _, c := range n.Content {
		total += countNodes(c)
	}
	return total
}

// add records a problem once, though an alias or a merge key can bring the
// same node past the walk several times.
func (w *walker) add(n *yaml.Node, segs []string, format string, args ...any) {
	e := &FieldError{
		Line:   n.Line,
		Column: n.Column,
		Field:  fieldName(segs, w.tierName),
		Msg:    fmt.Sprintf(format, args...),
		segs:   segs,
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if key := e.Error(); !w.seen[key] {
		w.seen[key] = true
		w.errs = append(w.errs, e)
	}
}

// badValue records an error about the value at segs itself, so that Parse
// does not also report the zero it left behind.
func (w *walker) badValue(n *yaml.Node, segs []string, format string, args ...any) {
	w.add(n, segs, format, args...)
	w.bad = append(w.bad, segs)
}

func (w *walker) budget(n *yaml.Node) bool {
	w.visits++
	if w.visits == w.limit+1 {
		w.add(n, nil, "the document expands to more than %d nodes (aliases or merge keys)", w.limit)
	}
	return w.visits <= w.limit
}

func (w *walker) walk(n *yaml.Node, t reflect.Type, segs []string) {
	if n = deref(n); n == nil || !w.budget(n) {
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == policyEntryType {
		w.policyEntry(n, segs)
		return
	}
	if t == thresholdsType && n.Kind == yaml.ScalarNode && !isNull(n) {
		w.scalar(n, reflect.TypeFor[float64](), segs) // one threshold
		return
	}
	if isNull(n) {
		// yaml.v3 resets a list or pointer to nil and leaves a mapping as it
		// was; a null scalar would silently keep the default, so refuse it.
		if t.Kind() != reflect.Struct && t.Kind() != reflect.Slice {
			w.badValue(n, segs, "null is not allowed: want %s", describe(t))
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			w.badValue(n, segs, "%s is not allowed: want %s", nodeKind(n), describe(t))
			return
		}
		w.mapping(n, t, segs, 0)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			w.badValue(n, segs, "%s is not allowed: want %s", nodeKind(n), describe(t))
			return
		}
		for i, el := range n.Content {
			at := sub(segs, strconv.Itoa(i))
			if d := deref(el); d != nil && isNull(d) {
				// yaml.v3 drops a null item of a list of structs or
				// numbers: refuse it, and stand a placeholder in its slot
				// so that the later items keep their indices in errors.
				w.visits++
				if t.Elem() == policyEntryType {
					w.policyEntry(d, at)
				} else {
					w.badValue(d, at, "null is not allowed: want %s", describe(t.Elem()))
				}
				n.Content[i] = placeholder(t.Elem(), d)
				continue
			}
			w.walk(el, t.Elem(), at)
		}
	default:
		w.scalar(n, t, segs)
	}
}

// key reports whether k may stand as a mapping key: a scalar (else want
// says what may) not seen before in the mapping, recorded in seen. It is
// checked before merges are followed, as yaml.v3 refuses a second "<<" as it
// does any repeated key.
func (w *walker) key(k *yaml.Node, seen map[string]*yaml.Node, segs []string, want string) bool {
	if k.Kind != yaml.ScalarNode {
		w.add(k, segs, "%s is not allowed as a key: want %s", nodeKind(k), want)
		return false
	}
	if prev, repeated := seen[k.Value]; repeated {
		w.add(k, segs, "field %q given twice (first at line %d)", k.Value, prev.Line)
		return false
	}
	seen[k.Value] = k
	return true
}

func (w *walker) mapping(n *yaml.Node, t reflect.Type, segs []string, depth int) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if !w.key(k, seen, segs, "a field name") {
			w.drop(n, i)
			continue
		}
		if isMerge(k) {
			w.merge(v, t, segs, depth)
			continue
		}
		f, ok := fieldByName(t, k.Value)
		if !ok {
			w.add(k, segs, "unknown field %q (allowed: %s)", k.Value, strings.Join(infoOf(t).names, ", "))
			w.drop(n, i)
			continue
		}
		w.walk(v, f.Type, sub(segs, k.Value))
	}
}

// drop marks the pair at Content[i] of mapping n for prune.
func (w *walker) drop(n *yaml.Node, i int) {
	if w.drops == nil {
		w.drops = map[*yaml.Node]map[int]bool{}
	}
	if w.drops[n] == nil {
		w.drops[n] = map[int]bool{}
	}
	w.drops[n][i] = true
}

// prune removes the keys the walk has reported (repeated, unknown, not a
// scalar), so that yaml.v3 can decode the rest and the checks still run on
// it. yaml.v3 skips a whole mapping that repeats a key, and compares every
// pair of keys of a mapping it decodes: a mapping of 100,000 unknown keys
// would cost it 5·10⁹ comparisons. After pruning, a mapping decoded into a
// struct has at most one key per field. One pass per mapping: linear.
func (w *walker) prune() {
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
func (w *walker) merge(v *yaml.Node, t reflect.Type, segs []string, depth int) {
	if v = deref(v); v == nil || !w.budget(v) {
		return
	}
	if depth >= maxMergeDepth {
		w.add(v, segs, "merge keys nest deeper than %d", maxMergeDepth)
		return
	}
	switch v.Kind {
	case yaml.MappingNode:
		w.mapping(v, t, segs, depth+1)
	case yaml.SequenceNode:
		for _, el := range v.Content {
			if el = deref(el); el != nil && el.Kind == yaml.MappingNode {
				w.mapping(el, t, segs, depth+1)
			} else if el != nil {
				w.add(el, segs, "%s is not allowed in a merge: want a mapping", nodeKind(el))
			}
		}
	default:
		w.add(v, segs, "%s is not allowed in a merge: want a mapping or a list of mappings", nodeKind(v))
	}
}

// scalar checks the tag before decoding: yaml.v3 would store 2.5 into an int
// field as 2, and the quoted "3" into a number field is a string by intent.
func (w *walker) scalar(n *yaml.Node, t reflect.Type, segs []string) {
	if n.Kind != yaml.ScalarNode {
		w.badValue(n, segs, "%s is not allowed: want %s", nodeKind(n), describe(t))
		return
	}
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
			w.badValue(n, segs, "%s is out of range: want %s up to %d", n.Value, describe(t), limit)
			return
		}
		if tag != "!!int" {
			w.badValue(n, segs, "%q is not allowed: want %s", n.Value, describe(t))
			return
		}
	case reflect.Float64:
		if tag != "!!int" && tag != "!!float" {
			if tag == "!!str" && n.Style == 0 && numberOutOfRange(n.Value) {
				w.badValue(n, segs, "%s is out of range: want a number of magnitude ≤ %s (a float64)", n.Value, fmtNum(math.MaxFloat64))
				return
			}
			w.badValue(n, segs, "%q is not allowed: want %s", n.Value, describe(t))
			return
		}
	}
	if fastScalar(n, t) {
		return // no yaml.v3 Decode per scalar: it dominated a large file
	}
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		w.badValue(n, segs, "%q is not allowed: want %s (out of range)", n.Value, describe(t))
	}
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
		return err == nil && finite(f)
	}
	return false
}

// deref follows an alias to the node it names; nil stays nil.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// nodeKind names what a node is, for "X is not allowed" messages.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "null"
		}
		return strconv.Quote(n.Value)
	}
	return "this node"
}

// child returns the value under key in a mapping (following aliases and
// merge keys as yaml.v3 does: explicit keys win), or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	return childDepth(n, key, 0)
}

func childDepth(n *yaml.Node, key string, depth int) *yaml.Node {
	if n = deref(n); n == nil || n.Kind != yaml.MappingNode || depth > maxMergeDepth {
		return nil
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		switch {
		case k == nil:
		case isMerge(k):
			merges = append(merges, n.Content[i+1])
		case k.Kind == yaml.ScalarNode && k.Value == key:
			return deref(n.Content[i+1])
		}
	}
	for _, m := range merges {
		m = deref(m)
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

// tierNames reads tier names straight from the tree, so that decode errors
// can say "tiers[1] (edge)" before anything is decoded.
func tierNames(root *yaml.Node, l *locator) func(int) string {
	return func(i int) string {
		if n := l.locate(root, path("tiers", strconv.Itoa(i), "name")); n != nil && n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return ""
	}
}

// fieldByName finds a struct field by its yaml name.
func fieldByName(t reflect.Type, name string) (reflect.StructField, bool) {
	f, ok := infoOf(t).byName[name]
	return f, ok
}

// fieldNames lists a struct's yaml names in declaration order (a fresh
// slice).
func fieldNames(t reflect.Type) []string {
	return slices.Clone(infoOf(t).names)
}

// structInfo is what the walker asks of a struct type for every key: kept
// per type, since reading tags by reflection for each of 10⁵ keys was a
// third of the walk.
type structInfo struct {
	names  []string
	byName map[string]reflect.StructField
}

var structInfos sync.Map // reflect.Type → *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structInfos.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byName: map[string]reflect.StructField{}}
	for i := range t.NumField() {
		f := t.Field(i)
		if n := yamlName(f); n != "" {
			si.names = append(si.names, n)
			if _, dup := si.byName[n]; !dup {
				si.byName[n] = f
			}
		}
	}
	structInfos.Store(t, si)
	return si
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

// describe says what a value of type t looks like in YAML.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return describe(t.Elem())
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint64:
		return "an integer ≥ 0"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Struct:
		if t == policyEntryType {
			return entryShape
		}
		return "a mapping (" + strings.Join(fieldNames(t), ", ") + ")"
	case reflect.Slice:
		if t == thresholdsType {
			return "a number or a list of numbers"
		}
		switch e := t.Elem(); e.Kind() {
		case reflect.Struct:
			if e == policyEntryType {
				return "a list of policies (each " + entryShape + ")"
			}
			return "a list of mappings (" + strings.Join(fieldNames(e), ", ") + ")"
		case reflect.Float64:
			return "a list of numbers"
		case reflect.String:
			return "a list of strings"
		}
	}
	return t.String()
}
