package schema

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// ApplySets applies --set overrides ("path=value") in order with set,
// adding their errors to errs (Field prefixed with "--set ", and no file:
// they come from the command line); it returns the canonical paths they
// wrote, for a Placer.
func ApplySets(sets []string, errs Errors, set func(path, value string) ([]string, *FieldError)) (Errors, [][]string) {
	var setSegs [][]string
	for _, kv := range sets {
		p, value, ok := strings.Cut(kv, "=")
		if !ok {
			errs = append(errs, &FieldError{Field: "--set " + kv, Msg: "want path=value"})
			continue
		}
		segs, ferr := set(strings.TrimSpace(p), value)
		if ferr != nil {
			ferr.Field = "--set " + ferr.Field
			errs = append(errs, ferr)
			continue
		}
		setSegs = append(setSegs, segs)
	}
	return errs, setSegs
}

// Placer gives a semantic error the place it is about: the --set that
// wrote the value, or the file's line and column.
type Placer struct {
	File string
	Root *yaml.Node
	Loc  *Locator
	Bad  PathSet    // values the decoding already reported
	Sets [][]string // paths the overrides wrote
}

// PlaceAll appends to errs each error of verr that Place keeps.
func (p Placer) PlaceAll(errs, verr Errors) Errors {
	for _, e := range verr {
		if p.Place(e) {
			errs = append(errs, e)
		}
	}
	return errs
}

// Place locates e; false when a decode error already explains its value.
func (p Placer) Place(e *FieldError) bool {
	if p.Bad.AnyPrefix(e.Path) || (e.At != nil && p.Bad.AnyPrefix(e.At)) {
		return false
	}
	if len(e.Path) > 0 && overridden(e.Path, p.Sets) {
		// The value came from --set: blame the flag, not a file that does
		// not hold it.
		e.Field = "--set " + e.Field
		return true
	}
	if len(e.Path) > 0 {
		n := p.Loc.Locate(p.Root, e.At)
		if e.At == nil || n == nil {
			n = p.Loc.Locate(p.Root, e.Path)
		}
		if n != nil {
			e.Line, e.Column = n.Line, n.Column
		} else {
			e.Msg += "; the file does not set it"
		}
	}
	e.File = p.File
	return true
}

// overridden reports whether an override wrote this field, a part of it or
// a field containing it, in which case the file's line would mislead.
func overridden(segs []string, sets [][]string) bool {
	for _, s := range sets {
		if HasPrefix(segs, s) || HasPrefix(s, segs) {
			return true
		}
	}
	return false
}
