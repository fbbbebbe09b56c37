package schema

import (
	"fmt"
	"math"
)

// Checker collects the problems a validation finds, each at a canonical
// path, phrased alike: "X is not allowed: rule", "X is out of range: must
// be ≤ limit".
type Checker struct {
	Errs Errors
	Name Namer // names list items beside their indices (optional)
}

// Add records a problem at segs.
func (c *Checker) Add(segs []string, format string, args ...any) {
	c.Errs = append(c.Errs, &FieldError{
		Field: FieldName(segs, c.Name),
		Msg:   fmt.Sprintf(format, args...),
		Path:  segs,
	})
}

// Last is the problem recorded last.
func (c *Checker) Last() *FieldError { return c.Errs[len(c.Errs)-1] }

// Num checks a float: finite, then ok. It reports whether x passed.
func (c *Checker) Num(segs []string, x float64, ok bool, rule string) bool {
	if !finite(x) {
		c.Add(segs, "%s is not allowed: must be a finite number", FmtNum(x))
		return false
	}
	if !ok {
		c.Add(segs, "%s is not allowed: %s", FmtNum(x), rule)
	}
	return ok
}

// Integer checks an int against ok.
func (c *Checker) Integer(segs []string, n int, ok bool, rule string) {
	if !ok {
		c.Add(segs, "%d is not allowed: %s", n, rule)
	}
}

// Upper checks x ≤ limit, once x has passed its own checks.
func (c *Checker) Upper(segs []string, x, limit float64, unit string) {
	if finite(x) && x > limit {
		c.Add(segs, "%s is out of range: must be ≤ %s%s", FmtNum(x), FmtNum(limit), unit)
	}
}

// Lower checks x ≥ limit for an x that is > 0 (0 and below have their own
// messages).
func (c *Checker) Lower(segs []string, x, limit float64, unit string) {
	if finite(x) && x > 0 && x < limit {
		c.Add(segs, "%s is out of range: must be ≥ %s%s", FmtNum(x), FmtNum(limit), unit)
	}
}

// Within is Lower then Upper: lo ≤ x ≤ hi for an x > 0, each bound
// reported in its own words.
func (c *Checker) Within(segs []string, x, lo, hi float64, unit string) {
	c.Lower(segs, x, lo, unit)
	c.Upper(segs, x, hi, unit)
}

// Count checks the length of a list.
func (c *Checker) Count(segs []string, n, limit int, what string) bool {
	if n > limit {
		c.Add(segs, "%d %s is out of range: must be ≤ %d", n, what, limit)
		return false
	}
	return true
}

// Failed reports whether a problem was already found at segs or below
// (nil: one about the document as a whole).
func (c *Checker) Failed(segs []string) bool {
	for _, e := range c.Errs {
		if HasPrefix(e.Path, segs) && (len(segs) > 0 || len(e.Path) == 0) {
			return true
		}
	}
	return false
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
