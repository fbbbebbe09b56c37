package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxFileSize is the largest scenario Parse reads, in bytes (1 MiB). The
// largest experiment file is a few kilobytes; the cap bounds what a
// mistaken path (a log, a binary, /dev/zero read by a careless caller) can
// cost: decoding is linear, but a megabyte of YAML is already some 10⁵ nodes
// and as many error lines.
const MaxFileSize = 1 << 20

// Parse reads a scenario file over Default, applies each --set override
// ("path=value", in order, see Set) and validates the result. filename is
// used in messages only. pols is the policy catalog: it names the known
// policies, gives the default list for a file without policies, and checks
// each entry's options; the scenario keeps it for Validate and Cells.
//
// Decoding is strict: an unknown key, a duplicate key or a value of the wrong
// type is an error with the file, line and column. All problems are returned
// together as Errors: decode errors, bad overrides and failed checks, except
// that a field whose value could not be decoded is not also reported as
// invalid. A semantic error carries the line of the value it is about, unless
// an override replaced that value.
func Parse(filename string, data []byte, sets []string, pols Policies) (*Scenario, error) {
	if pols == nil {
		return nil, Errors{{File: filename, Msg: "no policy catalog: Parse needs one to check the policies"}}
	}
	if len(data) > MaxFileSize {
		return nil, Errors{{File: filename, Msg: fmt.Sprintf("the file is %d bytes, which is out of range: a scenario is at most %d bytes (1 MiB)", len(data), MaxFileSize)}}
	}
	s := Default()
	s.pols = pols
	loc := &locator{}
	root, errs, bad := decode(data, &s, loc)
	errs.inFile(filename)
	if root == nil && len(errs) > 0 {
		return nil, errs
	}
	if loc.child(root, "policies", 0) == nil {
		// Not a null or an empty list, which say "none" and are refused.
		s.Policies = entries(pols.Defaults())
	}
	if s.Trace != nil && loc.locate(root, path("workload", "size")) == nil {
		s.Workload.Size = Dist{} // the default law does not apply: the trace gives the sizes
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
	s.resolveObservation()
	s.resolveProcess(false)
	if verr := s.Validate(); verr != nil {
		for _, e := range verr.(Errors) {
			if anyPrefix(e.segs, bad) || (e.at != nil && anyPrefix(e.at, bad)) {
				continue // the decode error already explains this value
			}
			if len(e.segs) > 0 && overridden(e.segs, setSegs) {
				// The value came from --set: blame the flag, not a file
				// that does not hold it.
				e.Field = "--set " + e.Field
				errs = append(errs, e)
				continue
			}
			if len(e.segs) > 0 {
				n := loc.locate(root, e.at)
				if e.at == nil || n == nil {
					n = loc.locate(root, e.segs)
				}
				if n != nil {
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

// decode checks the document with a walker, then decodes the checked tree
// with yaml.v3. root is nil when there is nothing to validate (a syntax
// error, a document that is not a mapping); bad lists the fields whose value
// could not be decoded.
func decode(data []byte, s *Scenario, loc *locator) (root *yaml.Node, errs Errors, bad pathSet) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.MappingNode}, nil, nil // an empty file: every default
	} else if err != nil {
		return nil, tabHint(yamlErrors(err), data), nil
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
	w := newWalker(root, tierNames(root, loc))
	w.walk(root, reflect.TypeFor[Scenario](), nil)
	if len(w.errs) == 0 {
		// The tree already parsed, not the bytes again: the walk has done
		// what KnownFields would (and more), and a second parse was half
		// the time of a large file. yaml.v3 still has the last word on
		// the values: whatever the walk misses surfaces here.
		if err := root.Decode(s); err != nil {
			return nil, yamlErrors(err), nil
		}
	} else if w.visits > w.limit {
		// An alias bomb: decoding would expand it again, and checking
		// what it holds would report the same values over and over.
		return nil, w.errs, nil
	} else {
		// Decode what can be decoded, so that the checks still run on the
		// rest; a TypeError means yaml.v3 skipped only the bad values.
		w.prune()
		var te *yaml.TypeError
		if err := root.Decode(s); err != nil && !errors.As(err, &te) {
			return nil, w.errs, nil
		}
	}
	restateSize(&s.Workload.Size, loc.locate(root, path("workload", "size")))
	return root, w.errs, newPathSet(w.bad)
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

// pathSet is a set of canonical paths, so that checking a path against
// every bad value costs its length, not the number of bad values.
type pathSet map[string]bool

func newPathSet(paths [][]string) pathSet {
	set := pathSet{}
	for _, p := range paths {
		set[strings.Join(p, "\x00")] = true
	}
	return set
}

// anyPrefix reports whether one of the set's paths starts segs.
func anyPrefix(segs []string, set pathSet) bool {
	for i := 0; i <= len(segs); i++ {
		if set[strings.Join(segs[:i], "\x00")] {
			return true
		}
	}
	return false
}
