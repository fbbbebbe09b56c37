package scenario

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Parse reads a scenario file over Default, applies each --set override
// ("path=value", in order, see Set) and validates the result. filename is
// used in messages only.
//
// Decoding is strict: an unknown key, a duplicate key or a value of the wrong
// type is an error with the file, line and column. All problems are returned
// together as Errors: decode errors, bad overrides and failed checks, except
// that a field whose value could not be decoded is not also reported as
// invalid. A semantic error carries the line of the value it is about, unless
// an override replaced that value.
func Parse(filename string, data []byte, sets []string) (*Scenario, error) {
	s := Default()
	root, errs, bad := decode(data, &s)
	errs.inFile(filename)
	if root == nil && len(errs) > 0 {
		return nil, errs
	}
	var setSegs [][]string
	for _, kv := range sets {
		p, value, ok := strings.Cut(kv, "=")
		if !ok {
			errs = append(errs, &FieldError{Field: "--set " + kv, Msg: "want path=value"})
			continue
		}
		segs, ferr := s.set(strings.TrimSpace(p), value)
		if ferr != nil { // from the command line, so no file name
			ferr.Field = "--set " + ferr.Field
			errs = append(errs, ferr)
			continue
		}
		setSegs = append(setSegs, segs)
	}
	if verr := s.Validate(); verr != nil {
		for _, e := range verr.(Errors) {
			if anyPrefix(e.segs, bad) {
				continue // the decode error already explains this value
			}
			if len(e.segs) > 0 && !overridden(e.segs, setSegs) {
				if n := locate(root, e.segs); n != nil {
					e.Line, e.Column = n.Line, n.Column
				} else {
					e.Msg += "; the file does not set it"
				}
			}
			e.File = filename
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return &s, nil
}

// decode checks the document with a walker, then decodes it with yaml.v3's
// strict decoder. root is nil when there is nothing to validate (a syntax
// error, a document that is not a mapping); bad lists the fields whose value
// could not be decoded.
func decode(data []byte, s *Scenario) (root *yaml.Node, errs Errors, bad [][]string) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.MappingNode}, nil, nil // an empty file: every default
	} else if err != nil {
		return nil, yamlErrors(err), nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Errors{{Line: extra.Line, Column: extra.Column, Msg: "a second YAML document is not allowed: a scenario is one document"}}, nil
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlErrors(err), nil
	}
	root = deref(doc.Content[0])
	if root == nil || isNull(root) {
		return &yaml.Node{Kind: yaml.MappingNode}, nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, Errors{{Line: root.Line, Column: root.Column, Msg: nodeKind(root) + " is not allowed: a scenario is a mapping (name, seed, tasks, tiers, ...)"}}, nil
	}
	w := newWalker(root, tierNames(root))
	w.walk(root, reflect.TypeFor[Scenario](), nil)
	if len(w.errs) == 0 {
		// yaml.v3's own strict decode has the last word: the walk adds
		// columns and completeness, so whatever it misses still surfaces.
		strict := yaml.NewDecoder(bytes.NewReader(data))
		strict.KnownFields(true)
		if err := strict.Decode(s); err != nil {
			return nil, yamlErrors(err), nil
		}
	} else {
		// Decode what can be decoded, so that the checks still run on the
		// rest; a TypeError means yaml.v3 skipped only the bad values.
		w.dropDups()
		var te *yaml.TypeError
		if err := root.Decode(s); err != nil && !errors.As(err, &te) {
			return nil, w.errs, nil
		}
	}
	restateSize(&s.Workload.Size, locate(root, path("workload", "size")))
	return root, w.errs, w.bad
}

// yamlErrors turns yaml.v3's errors ("yaml: line 3: ...", or a TypeError
// holding several "line N: ..." lines) into FieldErrors with a line.
func yamlErrors(err error) Errors {
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
				}
			}
		}
		errs = append(errs, e)
	}
	return errs
}

// inFile stamps every error with the file name.
func (es Errors) inFile(filename string) {
	for _, e := range es {
		e.File = filename
	}
}

// overridden reports whether an override wrote this field, a part of it or
// a field containing it, in which case the file's line would mislead.
func overridden(segs []string, sets [][]string) bool {
	for _, s := range sets {
		if hasPrefix(segs, s) || hasPrefix(s, segs) {
			return true
		}
	}
	return false
}

// anyPrefix reports whether one of prefixes starts segs.
func anyPrefix(segs []string, prefixes [][]string) bool {
	for _, p := range prefixes {
		if hasPrefix(segs, p) {
			return true
		}
	}
	return false
}
