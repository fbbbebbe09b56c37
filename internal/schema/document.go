package schema

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReadDocument parses data as one YAML document and returns its root node,
// aliases followed: nil for an empty document or a null one, and errors
// with their lines for a syntax error or a second document. what names
// the document in messages ("a scenario").
func ReadDocument(data []byte, what string) (*yaml.Node, Errors) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, tabHint(YAMLErrors(err), data)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Errors{{Line: extra.Line, Column: extra.Column, Msg: "a second YAML document is not allowed: " + what + " is one document"}}
	} else if !errors.Is(err, io.EOF) {
		return nil, YAMLErrors(err)
	}
	root := Deref(doc.Content[0])
	if root == nil || IsNull(root) {
		return nil, nil
	}
	return root, nil
}

// YAMLErrors turns yaml.v3's errors ("yaml: line 3: ...", or a TypeError
// holding several "line N: ..." lines) into FieldErrors with a line.
func YAMLErrors(err error) Errors {
	var te *yaml.TypeError
	lines := []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	if errors.As(err, &te) {
		lines = te.Errors
	}
	errs := make(Errors, 0, len(lines))
	for _, l := range lines {
		e := &FieldError{Msg: l}
		if rest, ok := strings.CutPrefix(l, "line "); ok {
			if num, msg, ok := strings.Cut(rest, ": "); ok {
				if n, err := strconv.Atoi(num); err == nil {
					e.Line, e.Msg = n, msg
					if te == nil && parserProblem(msg) {
						e.Line++
					}
				}
			}
		}
		errs = append(errs, e)
	}
	return errs
}

// parserProblem reports whether msg is one of the problems yaml.v3's
// parser (rather than its scanner) reports. yaml.v3 (v3.0.1, decode.go's
// parser.fail) writes those with the 0-based line of the construct being
// parsed, where a scanner's problem and a decoding error get a 1-based
// one: an unclosed "[" on line 3 was reported on line 2. The problems are
// parserc.go's calls of yaml_parser_set_parser_error(_context).
func parserProblem(msg string) bool {
	for _, p := range []string{"did not find expected ", "found duplicate %YAML directive",
		"found incompatible YAML document", "found duplicate %TAG directive", "found undefined tag handle"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// tabHint explains a syntax error on a line indented with a tab: yaml.v3
// says "found character that cannot start any token", which does not tell
// a user that YAML forbids tabs in indentation. The error moves to the
// first tab-indented line when yaml.v3 reports it elsewhere.
func tabHint(errs Errors, data []byte) Errors {
	lines := strings.Split(string(data), "\n")
	tabbed := func(n int) bool {
		if n < 1 || n > len(lines) {
			return false
		}
		l := lines[n-1]
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		return strings.Contains(indent, "\t")
	}
	first := 0
	for i := range lines {
		if tabbed(i + 1) {
			first = i + 1
			break
		}
	}
	if first == 0 {
		return errs
	}
	for _, e := range errs {
		switch {
		case tabbed(e.Line):
		case strings.Contains(e.Msg, "cannot start any token"):
			e.Line = first
		default:
			continue
		}
		e.Msg = "tabs are not allowed in YAML indentation; use spaces (" + e.Msg + ")"
	}
	return errs
}

// DecodeTree checks the mapping root against out's type (out is a
// pointer) with a walker, then decodes it into out with yaml.v3, which
// still has the last word on the values: whatever the walk misses
// surfaces there. Every problem of the walk is reported in one pass; what
// can be decoded is, so that a caller's checks still run on the rest. ok
// is false when nothing is left to check (the decoding failed, or an
// alias bomb); bad lists the fields whose value could not be decoded.
func (s *Schema) DecodeTree(root *yaml.Node, out any, name Namer) (errs Errors, bad PathSet, ok bool) {
	w := NewWalker(s, root, name)
	w.Walk(root, reflect.TypeOf(out).Elem(), nil)
	if len(w.Errs) == 0 {
		// The tree already parsed, not the bytes again: the walk has done
		// what KnownFields would (and more), and a second parse was half
		// the time of a large file.
		if err := root.Decode(out); err != nil {
			return YAMLErrors(err), nil, false
		}
		return w.Errs, NewPathSet(w.Bad), true
	}
	if w.Exhausted() {
		// An alias bomb: decoding would expand it again, and checking
		// what it holds would report the same values over and over.
		return w.Errs, nil, false
	}
	// A TypeError means yaml.v3 skipped only the bad values.
	w.Prune()
	var te *yaml.TypeError
	if err := root.Decode(out); err != nil && !errors.As(err, &te) {
		return w.Errs, nil, false
	}
	return w.Errs, NewPathSet(w.Bad), true
}

// Encode writes v as YAML with a two-space indent.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
