package schema

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Free-form values: what a key of no declared type (a policy's option)
// holds, any YAML value, decoded as int, float64, string, bool, nil, []any
// or map[string]any.

// MaxValueDepth bounds the nesting of a free-form value. An option is a
// number, a word or a small mapping; the bound keeps the walk linear, since
// each level copies the field path.
const MaxValueDepth = 100

// AnyValue checks a free-form value: only that its keys are scalars and
// unique, and that its numbers fit their Go types (a number that does not
// fit would otherwise silently become a string).
func (w *Walker) AnyValue(n *yaml.Node, segs []string, depth int) {
	if n = Deref(n); n == nil || !w.Budget(n) {
		return
	}
	if depth > MaxValueDepth {
		w.Add(n, segs, "nested deeper than %d", MaxValueDepth)
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		w.anyScalar(n, segs)
	case yaml.SequenceNode:
		for i, el := range n.Content {
			w.AnyValue(el, Sub(segs, strconv.Itoa(i)), depth+1)
		}
	case yaml.MappingNode:
		w.anyMapping(n, segs, depth, 0)
	}
}

// anyScalar refuses a number that no Go number holds.
func (w *Walker) anyScalar(n *yaml.Node, segs []string) {
	tag := n.ShortTag()
	switch {
	case tag == "!!str" && n.Style == 0 && NumberOutOfRange(n.Value):
		w.BadValue(n, segs, "%s is out of range: want a number of magnitude ≤ %s (a float64)", n.Value, FmtNum(math.MaxFloat64))
	case tag == "!!int":
		var i int
		if _, err := strconv.Atoi(n.Value); err != nil && n.Decode(&i) != nil {
			w.BadValue(n, segs, "%s is out of range: want an integer from %d to %d", n.Value, math.MinInt64, math.MaxInt64)
		}
	case tag == "!!float" && n.Style == 0 && integerText(n.Value):
		w.BadValue(n, segs, "%s is out of range: want an integer from %d to %d", n.Value, math.MinInt64, math.MaxInt64)
	}
}

func (w *Walker) anyMapping(n *yaml.Node, segs []string, depth, merges int) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if !w.Key(k, seen, segs, "a name") {
			continue
		}
		if !IsMerge(k) {
			w.AnyValue(v, Sub(segs, k.Value), depth+1)
			continue
		}
		w.anyMerge(v, segs, depth, merges)
	}
}

// anyMerge walks the mappings a merge key of a free-form mapping pulls in.
func (w *Walker) anyMerge(v *yaml.Node, segs []string, depth, merges int) {
	m := Deref(v)
	if m == nil || !w.Budget(m) {
		return
	}
	if merges >= MaxMergeDepth {
		w.Add(m, segs, "merge keys nest deeper than %d", MaxMergeDepth)
		return
	}
	var ms []*yaml.Node
	switch m.Kind {
	case yaml.MappingNode:
		ms = []*yaml.Node{m}
	case yaml.SequenceNode:
		ms = m.Content
	}
	if len(ms) == 0 {
		w.Add(m, segs, "%s is not allowed in a merge: want a mapping or a list of mappings", NodeKind(m))
	}
	for _, el := range ms {
		if el = Deref(el); el != nil && el.Kind == yaml.MappingNode {
			w.anyMapping(el, segs, depth, merges+1)
		} else if el != nil {
			w.Add(el, segs, "%s is not allowed in a merge: want a mapping", NodeKind(el))
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

// yamlFloat is yaml.v3's syntax of a plain float (resolve.go).
var yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// NumberOutOfRange reports whether a plain scalar is written as a number
// that a float64 cannot hold (1e400): yaml.v3 resolves it to a string.
func NumberOutOfRange(s string) bool {
	plain := strings.ReplaceAll(s, "_", "")
	if !yamlFloat.MatchString(plain) {
		return false
	}
	_, err := strconv.ParseFloat(plain, 64)
	return errors.Is(err, strconv.ErrRange)
}

// ToAny converts a free-form value: int, float64, string, bool, nil, []any
// or map[string]any. It does not use yaml.v3's decoder for mappings, whose
// duplicate-key check is quadratic in the number of keys. budget bounds
// the nodes visited, since aliases can expand a small document.
func ToAny(n *yaml.Node, budget *int, depth int) any {
	if n = Deref(n); n == nil || *budget <= 0 || depth > MaxValueDepth {
		return nil
	}
	*budget--
	switch n.Kind {
	case yaml.ScalarNode:
		return scalarToAny(n)
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, c := range n.Content {
			list[i] = ToAny(c, budget, depth+1)
		}
		return list
	case yaml.MappingNode:
		m := map[string]any{}
		for _, kv := range Flatten(n) {
			m[kv.K.Value] = ToAny(kv.V, budget, depth+1)
		}
		return m
	}
	return nil
}

// scalarToAny converts a scalar by its tag; a value its tag's type cannot
// hold stays the string written.
func scalarToAny(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		// Plain decimals first: a yaml.v3 Decode per scalar was a
		// third of the time of a file of 10⁵ options.
		if i, err := strconv.Atoi(n.Value); err == nil && !octalLooking(n.Value) {
			return i
		}
		var i int
		if n.Decode(&i) == nil {
			return i
		}
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	}
	return n.Value
}

// octalLooking reports a leading zero (017, -017), which YAML 1.1 reads as
// octal and strconv.Atoi as decimal: yaml.v3 must decide those.
func octalLooking(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return len(s) > 1 && s[0] == '0'
}

// FromAny writes a free-form value so that ToAny reads back an equal
// value: an integral float64 keeps a decimal point (1.0), or it would read
// back as the int 1; a mapping's keys are sorted.
func FromAny(v any, depth int) (*yaml.Node, error) {
	if depth > MaxValueDepth {
		return nil, errors.New("nested too deeply")
	}
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case string:
		return StrNode(x), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}, nil
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x)}, nil
	case float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: floatText(x)}, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		return n, appendAny(n, nil, x, depth)
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		keys := SortedKeys(x)
		vals := make([]any, len(keys))
		for i, k := range keys {
			vals[i] = x[k]
		}
		return n, appendAny(n, keys, vals, depth)
	}
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return &n, nil
}

// appendAny appends the values to n's content, each after its key when
// keys are given.
func appendAny(n *yaml.Node, keys []string, vals []any, depth int) error {
	for i, v := range vals {
		c, err := FromAny(v, depth+1)
		if err != nil {
			return err
		}
		if keys != nil {
			n.Content = append(n.Content, StrNode(keys[i]))
		}
		n.Content = append(n.Content, c)
	}
	return nil
}

// SortedKeys lists a map's keys in order.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// StrNode is a string scalar that reads back as the same string: yaml.v3
// quotes it when a plain scalar would resolve to another type, but not
// "<<" (a merge key once read back), nor a number too large for a float64,
// which resolves to a string and would be written plain, and which the
// walk then refuses as out of range.
func StrNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if s == "<<" || NumberOutOfRange(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// floatText spells a float64 so that YAML reads it back as a float.
func floatText(x float64) string {
	switch {
	case math.IsNaN(x):
		return ".nan"
	case math.IsInf(x, 1):
		return ".inf"
	case math.IsInf(x, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// CloneAny deep-copies a free-form value, so that a copy shares no map or
// list with its original.
func CloneAny(v any) any {
	switch x := v.(type) {
	case []any:
		c := make([]any, len(x))
		for i, el := range x {
			c[i] = CloneAny(el)
		}
		return c
	case map[string]any:
		return CloneMap(x)
	}
	return v
}

// CloneMap deep-copies a mapping of free-form values; nil stays nil.
func CloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = CloneAny(v)
	}
	return c
}
