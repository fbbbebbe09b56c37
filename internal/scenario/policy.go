package scenario

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// PolicyEntry is one item of `policies:`: a policy, the label its rows carry, and its options.
//
// In YAML an entry is either a plain name (`hybrid`) or a mapping
// (`{name: hybrid, as: hybrid-eps0, epsilon: 0}`) in which every key besides
// name and as is an option.
type PolicyEntry struct {
	Name    string         // registry name, e.g. "hybrid"
	As      string         // label; "" means Name. [a-z0-9_-]+, unique across entries
	Options map[string]any // option name → value as decoded from YAML (int, float64, string, bool, []any, map[string]any); nil when none
}

// Label is the name the entry's rows carry: As, or Name when As is empty.
func (e PolicyEntry) Label() string {
	if e.As != "" {
		return e.As
	}
	return e.Name
}

// Policies is what a scenario knows of the dispatch policies. The policies package implements it, so scenario stays a leaf.
type Policies interface {
	Names() []string    // every known policy, registry order
	Defaults() []string // the paper's default set, used when a file gives no policies:
	// Check validates an entry of a known policy: its options (names and values) and what it needs of the tiers (their kinds, in order, e.g. edge-first needs a tier of kind edge). One Problem per bad option; Option "" for the entry as a whole.
	Check(name string, options map[string]any, tierKinds []string) []Problem
}

// Problem is one thing a Policies catalog finds wrong with an entry: the
// option it is about ("" for the entry as a whole; a dotted path such as
// "penalty.k" for a key inside an option's mapping) and a message that names
// the bad value and what is allowed. Validate reports it at
// policies[i].<option>, with the line and column of that option.
type Problem struct{ Option, Msg string }

// Labels lists the policy entries' labels in order: the names rows and
// columns carry.
func (s *Scenario) Labels() []string {
	labels := make([]string, len(s.Policies))
	for i, e := range s.Policies {
		labels[i] = e.Label()
	}
	return labels
}

// entries turns a list of names into plain entries (no label, no options).
func entries(names []string) []PolicyEntry {
	es := make([]PolicyEntry, len(names))
	for i, n := range names {
		es[i] = PolicyEntry{Name: n}
	}
	return es
}

// policyEntryType is intercepted by the walker and by describe: an entry's
// YAML shape is not its Go shape.
var policyEntryType = reflect.TypeFor[PolicyEntry]()

const entryShape = "a policy name or a mapping (name, as, and the policy's options)"

// entryKeys flattens an entry mapping: its explicit keys, then the keys its
// merge keys pull in (explicit keys win, earlier merges win), as yaml.v3
// merges. Each key appears once, at its first node.
type entryKey struct {
	k, v *yaml.Node
}

func flattenMapping(n *yaml.Node, depth int, seen map[string]bool, out []entryKey) []entryKey {
	if n = deref(n); n == nil || n.Kind != yaml.MappingNode || depth > maxMergeDepth {
		return out
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		switch {
		case k == nil:
		case isMerge(k):
			merges = append(merges, n.Content[i+1])
		case k.Kind == yaml.ScalarNode:
			if !seen[k.Value] {
				seen[k.Value] = true
				out = append(out, entryKey{k, n.Content[i+1]})
			}
		}
	}
	for _, m := range merges {
		if m = deref(m); m != nil && m.Kind == yaml.SequenceNode {
			for _, el := range m.Content {
				out = flattenMapping(el, depth+1, seen, out)
			}
		} else {
			out = flattenMapping(m, depth+1, seen, out)
		}
	}
	return out
}

// UnmarshalYAML decodes an entry from a name or a mapping. The walker has
// already reported a bad shape with its position, so a bad shape decodes
// as an entry without a name rather than failing: yaml.v3 drops a list item
// that fails, which would shift the indices of every later entry's errors.
func (e *PolicyEntry) UnmarshalYAML(n *yaml.Node) error {
	*e = PolicyEntry{}
	n = deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if !isNull(n) {
			e.Name = n.Value
		}
		return nil
	case yaml.MappingNode:
		out := PolicyEntry{}
		budget := max(minVisits, expansionFactor*countNodes(n))
		for _, kv := range flattenMapping(n, 0, map[string]bool{}, nil) {
			v := deref(kv.v)
			switch kv.k.Value {
			case "name":
				if v != nil && v.Kind == yaml.ScalarNode {
					out.Name = v.Value
				}
			case "as":
				if v != nil && v.Kind == yaml.ScalarNode {
					out.As = v.Value
				}
			default:
				if out.Options == nil {
					out.Options = map[string]any{}
				}
				out.Options[kv.k.Value] = nodeToAny(v, &budget, 0)
			}
		}
		*e = out
	}
	return nil
}

// nodeToAny converts an option value: int, float64, string, bool, nil,
// []any or map[string]any. It does not use yaml.v3's decoder for mappings,
// whose duplicate-key check is quadratic in the number of keys. budget
// bounds the nodes visited, since aliases can expand a small document.
func nodeToAny(n *yaml.Node, budget *int, depth int) any {
	if n = deref(n); n == nil || *budget <= 0 || depth > maxValueDepth {
		return nil
	}
	*budget--
	switch n.Kind {
	case yaml.ScalarNode:
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
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && finite(f) {
				return f
			}
			var f float64
			if n.Decode(&f) == nil {
				return f
			}
		}
		return n.Value
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, c := range n.Content {
			list[i] = nodeToAny(c, budget, depth+1)
		}
		return list
	case yaml.MappingNode:
		m := map[string]any{}
		for _, kv := range flattenMapping(n, 0, map[string]bool{}, nil) {
			m[kv.k.Value] = nodeToAny(kv.v, budget, depth+1)
		}
		return m
	}
	return nil
}

// octalLooking reports a leading zero (017, -017), which YAML 1.1 reads as
// octal and strconv.Atoi as decimal: yaml.v3 must decide those.
func octalLooking(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return len(s) > 1 && s[0] == '0'
}

// maxValueDepth bounds the nesting of an option value. An option is a
// number, a word or a small mapping; the bound keeps the walk linear, since
// each level copies the field path.
const maxValueDepth = 100

// MarshalYAML writes an entry with no label and no options as its plain
// name, so that the resolved file (and Hash) of a scenario that lists only
// names is the same as before entries existed; any other entry is a mapping
// of name, as (if set), then the options in sorted key order.
func (e PolicyEntry) MarshalYAML() (any, error) {
	if e.As == "" && len(e.Options) == 0 {
		return e.Name, nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, strNode("name"), strNode(e.Name))
	if e.As != "" {
		m.Content = append(m.Content, strNode("as"), strNode(e.As))
	}
	for _, k := range sortedKeys(e.Options) {
		v, err := anyToNode(e.Options[k], 0)
		if err != nil {
			return nil, fmt.Errorf("policy %s option %s: %w", e.Label(), k, err)
		}
		m.Content = append(m.Content, strNode(k), v)
	}
	return m, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// strNode is a string scalar that reads back as the same string: yaml.v3
// quotes it when a plain scalar would resolve to another type, but not
// "<<" (a merge key once read back), nor a number too large for a float64,
// which resolves to a string and would be written plain, and which this
// package then refuses as out of range.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if s == "<<" || numberOutOfRange(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// anyToNode writes an option value so that nodeToAny reads back an equal
// value: an integral float64 keeps a decimal point (1.0), or it would read
// back as the int 1.
func anyToNode(v any, depth int) (*yaml.Node, error) {
	if depth > maxValueDepth {
		return nil, errors.New("nested too deeply")
	}
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case string:
		return strNode(x), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}, nil
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x)}, nil
	case float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: floatText(x)}, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, el := range x {
			c, err := anyToNode(el, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		for _, k := range sortedKeys(x) {
			c, err := anyToNode(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, strNode(k), c)
		}
		return n, nil
	}
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return &n, nil
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

// yamlFloat is yaml.v3's syntax of a plain float (resolve.go).
var yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// numberOutOfRange reports whether a plain scalar is written as a number
// that a float64 cannot hold (1e400): yaml.v3 resolves it to a string.
func numberOutOfRange(s string) bool {
	plain := strings.ReplaceAll(s, "_", "")
	if !yamlFloat.MatchString(plain) {
		return false
	}
	_, err := strconv.ParseFloat(plain, 64)
	return errors.Is(err, strconv.ErrRange)
}

// cloneAny deep-copies an option value, so that a Clone shares no map or
// list with its original.
func cloneAny(v any) any {
	switch x := v.(type) {
	case []any:
		c := make([]any, len(x))
		for i, el := range x {
			c[i] = cloneAny(el)
		}
		return c
	case map[string]any:
		return cloneOptions(x)
	}
	return v
}

func cloneOptions(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = cloneAny(v)
	}
	return c
}

func clonePolicies(es []PolicyEntry) []PolicyEntry {
	if es == nil {
		return nil
	}
	c := make([]PolicyEntry, len(es))
	for i, e := range es {
		c[i] = PolicyEntry{Name: e.Name, As: e.As, Options: cloneOptions(e.Options)}
	}
	return c
}

// SelectPolicies makes the policies those named, in the order given
// (--policy): a label of one of the scenario's entries names that entry
// (labels win where a label is also a policy's name), any other name of
// the catalog a plain entry of that policy with its default options. A
// name that is neither is an error listing both; the new list is
// validated as a file's would be (a policy that needs an edge tier, say).
func (s *Scenario) SelectPolicies(names []string) error {
	var keep []PolicyEntry
	have := s.Labels()
	for _, n := range names {
		if slices.ContainsFunc(keep, func(e PolicyEntry) bool { return e.Label() == n }) {
			continue
		}
		switch i := slices.Index(have, n); {
		case i >= 0:
			keep = append(keep, s.Policies[i])
		case s.pols != nil && slices.Contains(s.pols.Names(), n):
			keep = append(keep, PolicyEntry{Name: n})
		default:
			known := "no catalog"
			if s.pols != nil {
				known = strings.Join(s.pols.Names(), ", ")
			}
			return fmt.Errorf("%q is neither a label of the scenario's policies (%s) nor a policy (%s)", n, strings.Join(have, ", "), known)
		}
	}
	s.Policies = keep
	return s.Validate()
}
