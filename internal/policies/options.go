package policies

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// option is one setting a policy entry may carry, as in
// `{name: hybrid, as: hybrid-eps0, epsilon: 0}`.
type option struct {
	Name string
	Doc  string
	// Check reads a value decoded from YAML (int, float64, string, bool,
	// []any or map[string]any) and returns it in the form the constructor
	// reads (float64 for numbers, int for integers, map[string]any checked
	// key by key), or an error saying what is allowed.
	Check func(v any) (any, error)
}

// values are an entry's checked options, read by a policy's constructor.
type values map[string]any

// Float returns the number option name, or def when the entry omits it.
func (v values) Float(name string, def float64) float64 {
	if x, ok := v[name].(float64); ok {
		return x
	}
	return def
}

// Int returns the integer option name, or def when the entry omits it.
func (v values) Int(name string, def int) int {
	if x, ok := v[name].(int); ok {
		return x
	}
	return def
}

// String returns the string option name, or def when the entry omits it.
func (v values) String(name, def string) string {
	if x, ok := v[name].(string); ok {
		return x
	}
	return def
}

// Map returns the mapping option name, or nil when the entry omits it.
func (v values) Map(name string) values {
	if x, ok := v[name].(map[string]any); ok {
		return values(x)
	}
	return nil
}

// checkOptions checks every option of an entry against the spec's list, in
// sorted order so that messages do not depend on map order.
func checkOptions(spec []option, given map[string]any) (values, []Problem) {
	vals := values{}
	var probs []Problem
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		i := slices.IndexFunc(spec, func(o option) bool { return o.Name == k })
		if i < 0 {
			probs = append(probs, Problem{Option: k, Msg: unknownOption(k, spec)})
			continue
		}
		v, err := spec[i].Check(given[k])
		if err != nil {
			probs = append(probs, Problem{Option: k, Msg: err.Error()})
			continue
		}
		vals[k] = v
	}
	return vals, probs
}

func unknownOption(k string, spec []option) string {
	if len(spec) == 0 {
		return fmt.Sprintf("unknown option %q: this policy takes no options", k)
	}
	names := make([]string, len(spec))
	for i, o := range spec {
		names[i] = o.Name
	}
	return fmt.Sprintf("unknown option %q (allowed: %s)", k, strings.Join(names, ", "))
}

// number checks a finite number that rule accepts (described by want).
func number(ok func(float64) bool, want string) func(any) (any, error) {
	return func(v any) (any, error) {
		var x float64
		switch n := v.(type) {
		case int:
			x = float64(n)
		case float64:
			x = n
		default:
			return nil, fmt.Errorf("%s is not allowed: want a number %s", describeValue(v), want)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s is not allowed: must be a finite number %s", fmtNum(x), want)
		}
		if !ok(x) {
			return nil, fmt.Errorf("%s is out of range: must be %s", fmtNum(x), want)
		}
		return x, nil
	}
}

// integer checks an integer in [lo, hi].
func integer(lo, hi int) func(any) (any, error) {
	return func(v any) (any, error) {
		n, isInt := v.(int)
		if x, ok := v.(float64); ok && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			n, isInt = int(x), true // a swept option arrives as an integral float
		}
		if !isInt {
			return nil, fmt.Errorf("%s is not allowed: want an integer in [%d, %d]", describeValue(v), lo, hi)
		}
		if n < lo || n > hi {
			return nil, fmt.Errorf("%d is out of range: must be in [%d, %d]", n, lo, hi)
		}
		return n, nil
	}
}

// oneOf checks a string among choices.
func oneOf(choices ...string) func(any) (any, error) {
	return func(v any) (any, error) {
		s, ok := v.(string)
		if !ok || !slices.Contains(choices, s) {
			return nil, fmt.Errorf("%s is not allowed: must be one of %s", describeValue(v), strings.Join(choices, ", "))
		}
		return s, nil
	}
}

// mapping checks a mapping whose keys are sub-options.
func mapping(sub ...option) func(any) (any, error) {
	return func(v any) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			names := make([]string, len(sub))
			for i, o := range sub {
				names[i] = o.Name
			}
			return nil, fmt.Errorf("%s is not allowed: want a mapping (%s)", describeValue(v), strings.Join(names, ", "))
		}
		vals, probs := checkOptions(sub, m)
		if len(probs) > 0 {
			return nil, fmt.Errorf("%s: %s", probs[0].Option, probs[0].Msg)
		}
		return map[string]any(vals), nil
	}
}

func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", x)
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return fmt.Sprint(v)
}

func fmtNum(x float64) string { return fmt.Sprintf("%g", x) }
