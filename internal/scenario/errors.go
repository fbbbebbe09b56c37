package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// FieldError is one problem with a scenario: where it is and what is wrong.
// Its text is "file:line:column: field: message", each part left out when
// unknown, e.g.
//
//	sweep.yaml:14:22: tiers[1] (edge).servers: 0 is not allowed: must be ≥ 1
type FieldError struct {
	File   string // the file read; "" when the scenario did not come from one
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
	Field  string // e.g. "tiers[1] (edge).servers"; "" for the file as a whole
	Msg    string // names the bad value and what is allowed

	// segs is the field's canonical path (tiers by index), so that Parse can
	// find the line a semantic error points at.
	segs []string
	// at, if set, is where in the file the problem shows best, when that
	// is not the field itself (an entry's name inside its mapping).
	at []string
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

// Errors is every problem found in a scenario, in the order found. Parse,
// Validate and Cells return it (as an error) so that a user fixes a file in
// one pass rather than one error per run; errors.As reaches the items.
type Errors []*FieldError

// Error gives one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// orNil turns an empty list into a nil error; returning an empty Errors as
// an error would be a non-nil interface holding nothing.
func (es Errors) orNil() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// fieldName renders a canonical path for people: list indices in brackets,
// and a tier's name beside its index since names are what users write.
func fieldName(segs []string, tierName func(int) string) string {
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
		if i == 1 && segs[0] == "tiers" && tierName != nil {
			if name := tierName(n); ValidTierName(name) {
				fmt.Fprintf(&b, " (%s)", name)
			} else if name != "" {
				fmt.Fprintf(&b, " (%q)", name)
			}
		}
	}
	return b.String()
}

// path builds a fresh canonical path; fresh so that no two errors share a
// backing array.
func path(segs ...string) []string { return segs }

// sub extends a path without aliasing the parent's backing array.
func sub(segs []string, more ...string) []string {
	return append(append(make([]string, 0, len(segs)+len(more)), segs...), more...)
}

// hasPrefix reports whether p starts with all of prefix.
func hasPrefix(p, prefix []string) bool {
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

// fmtNum writes a number as the CSVs do, so messages quote values exactly.
func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
