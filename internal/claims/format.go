package claims

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// A table of claims.md shows its numbers in one unit, chosen from their
// size (seconds as ms when they are under a second), in fixed-point
// notation: a mean with four significant figures, a half-width with two,
// a difference to the half-width's last digit, so that it shows what the
// interval resolves and no more.

// Unit is the unit a table's numbers are written in: its name and the
// factor from the comparison's own unit.
type Unit struct {
	Name   string
	Factor float64
}

// PickUnit chooses how to write values xs given in unit base: seconds as
// ms (or µs) when their median magnitude is below 1 s (1 ms), nanoseconds
// as µs from 10 µs; any other unit as it is.
func PickUnit(base string, xs ...float64) Unit {
	var a []float64
	for _, x := range xs {
		if isFinite(x) && x != 0 {
			a = append(a, math.Abs(x))
		}
	}
	if len(a) == 0 {
		return Unit{base, 1}
	}
	slices.Sort(a)
	m := a[len(a)/2]
	switch {
	case base == "s" && m < 1e-3:
		return Unit{"µs", 1e6}
	case base == "s" && m < 1:
		return Unit{"ms", 1e3}
	case base == "ns" && m >= 1e4:
		return Unit{"µs", 1e-3}
	}
	return Unit{base, 1}
}

// Sig writes x rounded to sig significant figures in fixed-point
// notation (no exponent), with a true minus sign; "—" when missing.
func Sig(x float64, sig int) string {
	if !isFinite(x) {
		return "—"
	}
	if x == 0 {
		return "0"
	}
	return atPlace(x, int(math.Floor(math.Log10(math.Abs(x))))-sig+1)
}

// MeanDiff writes a difference and its 95% half-width: the half-width
// rounded to two significant figures, the difference to the same decimal
// place (three significant figures when the half-width is 0 or missing).
func MeanDiff(d, ci float64) (diff, half string) {
	if !isFinite(ci) || ci <= 0 {
		if d == 0 {
			return "0", Sig(ci, 2)
		}
		return Sig(d, 3), Sig(ci, 2)
	}
	place := int(math.Floor(math.Log10(ci))) - 1
	if !isFinite(d) {
		return "—", atPlace(ci, place)
	}
	return atPlace(d, place), atPlace(ci, place)
}

// atPlace writes x rounded to a multiple of 10^place, with the decimals
// that place needs, a true minus sign and no "-0".
func atPlace(x float64, place int) string {
	unit := math.Pow(10, float64(place))
	r := math.Round(x/unit) * unit
	s := strconv.FormatFloat(r, 'f', max(0, -place), 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return strings.Replace(s, "-", "−", 1)
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
