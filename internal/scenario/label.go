package scenario

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/schema"
)

// The schema's words for an axis. Every numeric field carries its unit in
// a `unit` struct tag (none: a count or a pure number) and may carry a
// `label` tag, the words it reads as under its parent ("" for none: the
// arrivals block adds nothing to "arrival rate"); a field without a label
// tag reads as its yaml name. ParamLabel composes them, so that a sweep over
// any path gets an axis title with its unit from the schema itself.

// ParamLabel names a --set path (a sweep's param) for an axis title: the
// tier's name or the policy entry's label it is under, then each field's
// words, and the leaf's unit apart. "arrivals.rate" is ("arrival rate",
// "tasks/s"); "tiers.edge.servers" ("edge servers", ""); "tiers.cloud.delay.mean"
// ("cloud delay mean", "s"); "observation.period" ("observation period
// T", "s"). A policy entry's option reads as the estimator field of the
// same path, which the option overrides for that entry
// ("policies.h0.epsilon": "h0 exploration probability ε"); an option with
// no such field by its own name, without a unit. A path that names no
// field is returned as it is, with no unit.
func ParamLabel(path string) (label, unit string) {
	parts, msg := scenarioSchema.SplitPath(path)
	if msg != "" || len(parts) == 0 {
		return path, ""
	}
	w, u, ok := fieldWords(reflect.TypeFor[Scenario](), parts)
	if !ok {
		return path, ""
	}
	return w, u
}

// fieldWords composes the words of the fields parts names from type t
// down, and the leaf's unit.
func fieldWords(t reflect.Type, parts []string) (string, string, bool) {
	var words []string
	unit := ""
	for i, p := range parts {
		last := i == len(parts)-1
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case t == policyEntryType:
			// p is an option (name and as are not numbers).
			if w, u, ok := fieldWords(reflect.TypeFor[Estimator](), parts[i:]); ok {
				return join(words, w), u, true
			}
			return join(words, strings.ReplaceAll(strings.Join(parts[i:], " "), "_", " ")), "", true
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
			// A tier's name or a policy entry's label; an index reads as
			// the element's kind and ordinal ("tier 2", "burst 1").
			t = t.Elem()
			if n, err := strconv.Atoi(p); err == nil {
				p = strings.ToLower(t.Name()) + " " + strconv.Itoa(n+1)
				if t == policyEntryType {
					p = "policy " + strconv.Itoa(n+1)
				}
			}
			words = append(words, p)
		case t.Kind() == reflect.Slice:
			// An element of a list of numbers (an mmpp's rates): its
			// number, counted from 1, with the list's unit.
			n, err := strconv.Atoi(p)
			if err != nil || !last {
				return "", "", false
			}
			return join(words, strconv.Itoa(n+1)), unit, true
		case t.Kind() == reflect.Struct:
			f, ok := schema.FieldByName(t, p)
			if !ok {
				return "", "", false
			}
			if l, ok := f.Tag.Lookup("label"); !ok {
				words = append(words, strings.ReplaceAll(p, "_", " "))
			} else if l != "" {
				words = append(words, l)
			}
			t, unit = f.Type, f.Tag.Get("unit")
			if last {
				return strings.Join(words, " "), unit, true
			}
		default:
			return "", "", false
		}
	}
	return "", "", false
}

func join(a []string, b string) string {
	return strings.TrimSpace(strings.Join(append(a, b), " "))
}
