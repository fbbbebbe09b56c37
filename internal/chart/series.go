package chart

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"

	"github.com/offload-sim/offload/internal/axis"
)

// ErrNoData is returned (wrapped) when a figure has nothing to draw: no
// series with a point (a run without a sweep, a metric every run left
// empty). Callers may skip such a plot.
var ErrNoData = errors.New("no data to plot")

// series is one line of a plot: one policy's points in increasing x, the
// half-widths of their error bars, and which points are unstable.
type series struct {
	Name     string
	XYs      plotter.XYs
	Err      plotter.YErrors
	Unstable []bool
	// Far marks the points set apart (SetApart): drawn at the top of the
	// axis with their value written beside them. nil: none.
	Far []bool
}

// far reports whether point i is set apart.
func (s series) far(i int) bool { return i < len(s.Far) && s.Far[i] }

// logFloor returns the bottom of a log axis for these series: a round value
// (1, 2 or 5 × 10^k) at least 20% under every mean and every bar's lower end
// that stays positive, so that no point sits on the axis line.
// Bars reaching zero or below cannot be drawn on a log axis; the plot cuts
// them (clampLow) below this floor, so they run off the bottom of the axis
// without an end cap instead of seeming to end there.
//
// A band (bars false) does not lower the floor: a band's lower edge at a
// few replicates can reach far below every mean, and would stretch the
// axis over empty decades; it is cut at the floor instead.
func logFloor(ss []series, bars bool) float64 {
	lo := math.Inf(1)
	for _, s := range ss {
		for i, p := range s.XYs {
			lo = math.Min(lo, p.Y)
			if l := p.Y - s.Err[i].Low; bars && l > 0 {
				lo = math.Min(lo, l)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return 1
	}
	return axis.NiceFloor(lo / 1.25)
}

// clampLow shortens lower error bars so that they end at floor or above.
func clampLow(ss []series, floor float64) {
	for _, s := range ss {
		for i, p := range s.XYs {
			s.Err[i].Low = math.Min(s.Err[i].Low, p.Y-floor)
		}
	}
}

// axisMap is an axis's scale as a pair of functions: fwd to the units in
// which the axis is linear, inv back.
type axisMap struct{ fwd, inv func(float64) float64 }

var (
	linearMap = axisMap{func(x float64) float64 { return x }, func(u float64) float64 { return u }}
	log10Map  = axisMap{math.Log10, func(u float64) float64 { return math.Pow(10, u) }}
)

// dodge shifts each series sideways by a small, fixed amount so that eight
// policies' error bars at the same x do not hide one another: series i of n
// moves by (i − (n−1)/2)·step, where step is 3% of the smallest gap between
// swept values (so the spread stays within a quarter of a gap). Gaps and
// shifts are in the axis's linear units (m: log10 x on a log axis), so the
// spread looks the same at every x. The shift is for drawing only; the CSV
// holds the true values.
func dodge(ss []series, m axisMap) []series {
	gap := minGap(ss, m)
	if gap == 0 || len(ss) < 2 {
		return ss
	}
	step := 0.03 * gap
	out := make([]series, len(ss))
	for i, s := range ss {
		off := (float64(i) - float64(len(ss)-1)/2) * step
		out[i] = s
		out[i].XYs = slices.Clone(s.XYs)
		for j := range out[i].XYs {
			out[i].XYs[j].X = m.inv(m.fwd(out[i].XYs[j].X) + off)
		}
	}
	return out
}

// minGap is the smallest positive distance between distinct x values of all
// series (in the axis's linear units, m.fwd x), or 0 with fewer than two.
func minGap(ss []series, m axisMap) float64 {
	var xs []float64
	for _, s := range ss {
		for _, p := range s.XYs {
			xs = append(xs, m.fwd(p.X))
		}
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	gap := 0.0
	for i := 1; i < len(xs); i++ {
		if d := xs[i] - xs[i-1]; gap == 0 || d < gap {
			gap = d
		}
	}
	return gap
}

// positiveX keeps the points of each series at x > 0, and the series that
// keep any.
func positiveX(ss []series) []series { return keepX(ss, func(x float64) bool { return x > 0 }) }

// keepX keeps the points of each series whose x passes keep, and the
// series that keep any.
func keepX(ss []series, keep func(x float64) bool) []series {
	var out []series
	for _, s := range ss {
		var k series
		k.Name = s.Name
		for i, xy := range s.XYs {
			if keep(xy.X) {
				k.XYs, k.Err, k.Unstable = append(k.XYs, xy), append(k.Err, s.Err[i]), append(k.Unstable, s.Unstable[i])
				if s.Far != nil {
					k.Far = append(k.Far, s.Far[i])
				}
			}
		}
		if len(k.XYs) > 0 {
			out = append(out, k)
		}
	}
	return out
}
