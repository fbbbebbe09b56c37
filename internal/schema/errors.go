package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// FieldError is one problem with a document: where it is and what is wrong.
// Its text is "file:line:column: field: message", each part left out when
// unknown, e.g.
//
//	sweep.yaml:14:22: tiers[1] (edge).servers: 0 is not allowed: must be ≥ 1
type FieldError struct {
	File   string // the file read; "" when the document did not come from one
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
	Field  string // e.g. "tiers[1] (edge).servers"; "" for the file as a whole
	Msg    string // names the bad value and what is allowed

	// Path is the field's canonical path (lists by index), so that a
	// caller can find the line a semantic error points at.
	Path []string
	// At, if set, is where in the file the problem shows best, when that
	// is not the field itself (an entry's name inside its mapping).
	At []string
}

// Error formats the problem on one line.
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Column > 0 {
				fmt.Fprintf(&b, ":%d", e.Column)
			}
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in a document, in the order found, so that
// a user fixes a file in one pass rather than one error per run; errors.As
// reaches the items.
type Errors []*FieldError

// Error gives one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// OrNil turns an empty list into a nil error; returning an empty Errors as
// an error would be a non-nil interface holding nothing.
func (es Errors) OrNil() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// InFile stamps every error with the file name.
func (es Errors) InFile(filename string) {
	for _, e := range es {
		e.File = filename
	}
}

// Namer gives the words shown beside a list index in a field name (a
// tier's name beside its index, since names are what users write), from
// the path up to and including that index; "" for none.
type Namer func(segs []string) string

// FieldName renders a canonical path for people: list indices in brackets,
// and what name gives beside them.
func FieldName(segs []string, name Namer) string {
	var b strings.Builder
	for i, seg := range segs {
		n, err := strconv.Atoi(seg)
		if err != nil { // a leading index is a --set value's list item: [0].name
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg)
			continue
		}
		fmt.Fprintf(&b, "[%d]", n)
		if name != nil {
			if s := name(segs[:i+1]); s != "" {
				fmt.Fprintf(&b, " (%s)", s)
			}
		}
	}
	return b.String()
}

// Sub extends a path without aliasing the parent's backing array, so that
// no two errors share one.
func Sub(segs []string, more ...string) []string {
	return append(append(make([]string, 0, len(segs)+len(more)), segs...), more...)
}

// HasPrefix reports whether p starts with all of prefix.
func HasPrefix(p, prefix []string) bool {
	if len(prefix) > len(p) {
		return false
	}
	for i := range prefix {
		if p[i] != prefix[i] {
			return false
		}
	}
	return true
}

// PathSet is a set of canonical paths, so that checking a path against
// every bad value costs its length, not the number of bad values.
type PathSet map[string]bool

// NewPathSet holds paths.
func NewPathSet(paths [][]string) PathSet {
	set := PathSet{}
	for _, p := range paths {
		set[strings.Join(p, "\x00")] = true
	}
	return set
}

// AnyPrefix reports whether one of the set's paths starts segs.
func (set PathSet) AnyPrefix(segs []string) bool {
	for i := 0; i <= len(segs); i++ {
		if set[strings.Join(segs[:i], "\x00")] {
			return true
		}
	}
	return false
}

// FmtNum writes a number as the CSVs do, so messages quote values exactly.
func FmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
