// Package axis holds the figures' axis scales and tick rules: log ticks
// that label an axis of any span, linear ticks at round steps, and the
// symmetric log scale of a paired difference. Pure functions of an axis's
// range (gonum's plot.Ticker and plot.Normalizer); they know nothing of
// the figures that use them.
package axis

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
)

// LogTicks labels a log axis readably whatever its span. gonum's LogTicks
// labels only powers of ten, which leaves an axis spanning less than a
// decade without a single label; here a span under three decades is
// labelled at 1, 2 and 5 × 10^k, a wider one at powers of ten, with
// unlabelled minor ticks at the other integers × 10^k up to five decades
// (MinorDecades, if set: a short axis blurs its minor ticks sooner).
type LogTicks struct{ MinorDecades float64 }

// Ticks implements plot.Ticker. min and max must be positive, which the
// plot guarantees by setting the axis range itself.
func (lt LogTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) { // a degenerate axis: no ticks rather than no end
		return nil
	}
	labelled := map[int]bool{1: true}
	decades := math.Log10(max / min)
	if decades < 3 {
		labelled[2], labelled[5] = true, true
	}
	most := lt.MinorDecades
	if most == 0 {
		most = 5
	}
	minors := decades < most // beyond, minor ticks blur into a solid bar
	var ticks []plot.Tick
	for k := math.Floor(math.Log10(min)); math.Pow(10, k) <= max; k++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, k)
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			} else if !minors && m != 1 {
				continue
			}
			ticks = append(ticks, t)
		}
	}
	return labelEnds(ticks, min, max)
}

// labelEnds labels, at an end of a log axis left without a label over
// more than half a decade, the tick at 2 or 5 × 10^k nearest that end
// (adding it if the minor ticks are off), so that the first and last
// decades of the data can be read off the axis too.
func labelEnds(ticks []plot.Tick, min, max float64) []plot.Tick {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range ticks {
		if t.Label != "" {
			lo, hi = math.Min(lo, t.Value), math.Max(hi, t.Value)
		}
	}
	if math.IsInf(lo, 1) {
		return ticks
	}
	half := math.Sqrt(10)
	for _, end := range []struct {
		gap  bool
		from float64 // the decade to look in: 10^k ≤ v < 10^(k+1)
		best func(a, b float64) bool
	}{
		{hi*half < max, math.Pow(10, math.Floor(math.Log10(max))), func(a, b float64) bool { return a > b }},
		{lo > min*half, math.Pow(10, math.Floor(math.Log10(min))), func(a, b float64) bool { return a < b }},
	} {
		if !end.gap {
			continue
		}
		pick := math.NaN()
		for _, m := range []float64{2, 5} {
			if v := m * end.from; v >= min && v <= max && (math.IsNaN(pick) || end.best(v, pick)) {
				pick = v
			}
		}
		if math.IsNaN(pick) {
			continue
		}
		label := strconv.FormatFloat(pick, 'g', 4, 64)
		if i := slices.IndexFunc(ticks, func(t plot.Tick) bool { return math.Abs(t.Value-pick) <= 1e-12*pick }); i >= 0 {
			ticks[i].Label = label
		} else {
			ticks = append(ticks, plot.Tick{Value: pick, Label: label})
		}
	}
	slices.SortFunc(ticks, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	return ticks
}

// LinearTicks labels about six round values (1, 2 or 5 × 10^k apart) with
// an unlabelled tick between each pair: gonum's default aims at three
// labels, too few to read a value off a 7-inch figure.
type LinearTicks struct{}

// Ticks implements plot.Ticker.
func (LinearTicks) Ticks(min, max float64) []plot.Tick {
	step := NiceStep((max - min) / 6)
	if step == 0 || math.IsInf(step, 0) || math.IsNaN(step) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	decimals := max0(-int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	// Count in half steps from an integer, so no error accumulates.
	for k := math.Ceil(min / step * 2); k <= math.Floor(max/step*2); k++ {
		v := k*step/2 + 0 // adding +0 turns −0 into 0: no "-0.00" label
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// NiceStep rounds x up to 1, 2 or 5 × 10^k.
func NiceStep(x float64) float64 {
	if x <= 0 {
		return 0
	}
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= x*(1-1e-12) {
			return m * mag
		}
	}
	return 10 * mag
}

// NiceFloor rounds a positive x down to 1, 2 or 5 × 10^k.
func NiceFloor(x float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*mag <= x*(1+1e-12) {
			return m * mag
		}
	}
	return mag
}

func max0(n int) int { return max(n, 0) }

// SymLog is a symmetric logarithmic scale: linear within ±C and
// logarithmic beyond, continuous at ±C, where one C of the linear part is
// as long as one decade of the log part. It shows on one axis what a
// linear axis flattens (a difference of milliseconds beside one of
// seconds) and what a log axis cannot show at all (zero, and values of
// both signs). The mapping is matplotlib's symlog with linscale 1:
// f(x) = x/C for |x| ≤ C, sign(x)·(1 + log10(|x|/C)) beyond.
type SymLog struct{ C float64 }

// F is the scale's mapping to linear axis units.
func (s SymLog) F(x float64) float64 {
	a := math.Abs(x)
	if a <= s.C {
		return x / s.C
	}
	return math.Copysign(1+math.Log10(a/s.C), x)
}

// Normalize implements plot.Normalizer.
func (s SymLog) Normalize(min, max, x float64) float64 {
	lo, hi := s.F(min), s.F(max)
	if hi == lo {
		return 0.5
	}
	return (s.F(x) - lo) / (hi - lo)
}

// Ticks implements plot.Ticker: 0 and ±C labelled, then each side as
// LogTicks labels it from C outwards.
func (s SymLog) Ticks(min, max float64) []plot.Tick {
	ticks := []plot.Tick{}
	if min <= 0 && max >= 0 {
		ticks = append(ticks, plot.Tick{Value: 0, Label: "0"})
	}
	if max > s.C {
		ticks = append(ticks, LogTicks{}.Ticks(s.C, max)...)
	}
	if min < -s.C {
		for _, t := range (LogTicks{}).Ticks(s.C, -min) {
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

// SymLogLinear picks a symlog scale's linear half-width for values ys:
// half their median magnitude, rounded down to 1, 2 or 5 × 10^k, so that
// the typical value sits a decade's length from zero and the small ones
// in the linear part. 0 when no value is nonzero.
func SymLogLinear(ys []float64) float64 {
	var a []float64
	for _, y := range ys {
		if y != 0 && !math.IsNaN(y) && !math.IsInf(y, 0) {
			a = append(a, math.Abs(y))
		}
	}
	if len(a) == 0 {
		return 0
	}
	slices.Sort(a)
	return NiceFloor(a[len(a)/2] / 2)
}

// Inv is F's inverse.
func (s SymLog) Inv(u float64) float64 {
	a := math.Abs(u)
	if a <= 1 {
		return u * s.C
	}
	return math.Copysign(s.C*math.Pow(10, a-1), u)
}
