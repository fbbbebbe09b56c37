package report

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
)

// symLog is a symmetric logarithmic scale: linear within ±C and
// logarithmic beyond, continuous at ±C, where one C of the linear part is
// as long as one decade of the log part. It shows on one axis what a
// linear axis flattens (a difference of milliseconds beside one of
// seconds) and what a log axis cannot show at all (zero, and values of
// both signs). The mapping is matplotlib's symlog with linscale 1:
// f(x) = x/C for |x| ≤ C, sign(x)·(1 + log10(|x|/C)) beyond.
type symLog struct{ C float64 }

// f is the scale's mapping to linear axis units.
func (s symLog) f(x float64) float64 {
	a := math.Abs(x)
	if a <= s.C {
		return x / s.C
	}
	return math.Copysign(1+math.Log10(a/s.C), x)
}

// Normalize implements plot.Normalizer.
func (s symLog) Normalize(min, max, x float64) float64 {
	lo, hi := s.f(min), s.f(max)
	if hi == lo {
		return 0.5
	}
	return (s.f(x) - lo) / (hi - lo)
}

// Ticks implements plot.Ticker: 0 and ±C labelled, then each side as
// logTicks labels it from C outwards.
func (s symLog) Ticks(min, max float64) []plot.Tick {
	ticks := []plot.Tick{}
	if min <= 0 && max >= 0 {
		ticks = append(ticks, plot.Tick{Value: 0, Label: "0"})
	}
	if max > s.C {
		ticks = append(ticks, logTicks{}.Ticks(s.C, max)...)
	}
	if min < -s.C {
		for _, t := range (logTicks{}).Ticks(s.C, -min) {
			t.Value = -t.Value
			if t.Label != "" {
				t.Label = "−" + t.Label
			}
			ticks = append(ticks, t)
		}
	}
	for _, c := range []float64{-s.C, s.C} { // the ends of the linear part
		if c >= min && c <= max && !slices.ContainsFunc(ticks, func(t plot.Tick) bool { return t.Value == c }) {
			l := strconv.FormatFloat(math.Abs(c), 'g', 4, 64)
			if c < 0 {
				l = "−" + l
			}
			ticks = append(ticks, plot.Tick{Value: c, Label: l})
		}
	}
	slices.SortFunc(ticks, func(a, b plot.Tick) int {
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	return ticks
}

// symLogLinear picks a symlog scale's linear half-width for values ys:
// half their median magnitude, rounded down to 1, 2 or 5 × 10^k, so that
// the typical value sits a decade's length from zero and the small ones
// in the linear part. 0 when no value is nonzero.
func symLogLinear(ys []float64) float64 {
	var a []float64
	for _, y := range ys {
		if y != 0 && isFinite(y) {
			a = append(a, math.Abs(y))
		}
	}
	if len(a) == 0 {
		return 0
	}
	slices.Sort(a)
	return niceFloor(a[len(a)/2] / 2)
}

// inv is f's inverse.
func (s symLog) inv(u float64) float64 {
	a := math.Abs(u)
	if a <= 1 {
		return u * s.C
	}
	return math.Copysign(s.C*math.Pow(10, a-1), u)
}

// axisMap is the scale as an axisMap.
func (s symLog) axisMap() axisMap { return axisMap{s.f, s.inv} }
