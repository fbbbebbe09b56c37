package schema

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// ParseValue reads a --set value as one YAML node; nil for an empty value.
// A second document would be silently ignored by yaml.Unmarshal, so it is
// an error, as in a file. p names the path in errors; maxSize bounds the
// value's bytes.
func ParseValue(p, value string, maxSize int) (*yaml.Node, *FieldError) {
	if len(value) > maxSize {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("a value of %d bytes is out of range: at most %d bytes (%s)", len(value), maxSize, sizeText(maxSize))}
	}
	dec := yaml.NewDecoder(strings.NewReader(value))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not valid YAML: %s", value, YAMLMsg(err))}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not allowed: a second YAML document (after ---); a value is one document", value)}
	} else if !errors.Is(err, io.EOF) {
		return nil, &FieldError{Field: p, Msg: fmt.Sprintf("%q is not valid YAML: %s", value, YAMLMsg(err))}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// sizeText writes a power-of-two size as messages give it: 1 MiB.
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Decode checks the --set value n (value as typed) against v's type and
// decodes it over v: a mapping merges into v's value, anything else
// replaces it. On error v is unchanged.
func (s *Schema) Decode(v reflect.Value, n *yaml.Node, p, value string) *FieldError {
	w := NewWalker(s, n, nil)
	w.Walk(n, v.Type(), nil)
	if len(w.Errs) > 0 {
		return &FieldError{Field: p, Msg: ValueErr(value, w.Errs)}
	}
	ptr := reflect.New(v.Type())
	ptr.Elem().Set(v)
	if err := n.Decode(ptr.Interface()); err != nil {
		return &FieldError{Field: p, Msg: fmt.Sprintf("%q is not allowed: %s", value, YAMLMsg(err))}
	}
	v.Set(ptr.Elem())
	return nil
}

// AnyOf checks and converts the free-form --set value n (value as typed);
// null is nil.
func AnyOf(n *yaml.Node, p, value string) (any, *FieldError) {
	w := NewWalker(nil, n, nil)
	w.AnyValue(n, nil, 0)
	if len(w.Errs) > 0 {
		return nil, &FieldError{Field: p, Msg: ValueErr(value, w.Errs)}
	}
	budget := w.Limit
	if d := Deref(n); d != nil && IsNull(d) {
		return nil, nil
	}
	return ToAny(n, &budget, 0), nil
}

// ValueErr phrases a walk's findings inside a --set value: the value as
// typed, then what is wrong, with the inner field when there is one.
func ValueErr(value string, errs Errors) string {
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
		if _, rule, ok := strings.Cut(e.Msg, " is not allowed: "); ok && e.Field == "" {
			parts[i] = rule // the value is quoted once, in front
		}
	}
	return fmt.Sprintf("%q is not allowed: %s", value, strings.Join(parts, "; "))
}

// YAMLMsg strips yaml.v3's "yaml: " and "unmarshal errors:" framing.
func YAMLMsg(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	return strings.Join(strings.Fields(msg), " ")
}
