package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/offload-sim/offload/internal/results"
)

// The rule that sets a point apart in the *_stable figures: near a tier's
// capacity, where latency grows like 1/(1 − ρ) and a run of finite length
// measures mostly how close ρ came to 1, and far above every other policy
// at the same swept value.
const (
	// ApartLoad is the offered load from which a point counts as near a
	// tier's capacity: at 0.9 an M/M/1 queue's mean wait is already nine
	// services, and it doubles again by 0.95.
	ApartLoad = 0.9
	// ApartFactor is how far above the median of the other policies'
	// means at the same swept value such a point must be to be set apart.
	ApartFactor = 5.0
)

// SetApart splits summaries by the rule of the *_stable figures: apart are
// those where some tier's mean offered load (util_<tier>) is at least
// ApartLoad and whose mean of metric exceeds ApartFactor times the median
// of the other summaries' means at the same swept value (there must be
// at least one other); rest are the others, in order. A figure drawn with
// FigureOptions.SetApart fits its Y axis to rest and draws apart at its
// top, with their values written beside them.
func SetApart(sums []results.Summary, metric string) (apart, rest []results.Summary) {
	for _, s := range sums {
		m := s.Get(metric)
		var others []float64
		for _, o := range sums {
			if o.Policy != s.Policy && o.Value == s.Value {
				if x := o.Get(metric); isFinite(x) {
					others = append(others, x)
				}
			}
		}
		if isFinite(m) && len(others) > 0 && maxUtil(s) >= ApartLoad && m > ApartFactor*median(others) {
			apart = append(apart, s)
		} else {
			rest = append(rest, s)
		}
	}
	return apart, rest
}

// maxUtil is a summary's largest mean offered load of a tier (NaN with no
// util_ column).
func maxUtil(s results.Summary) float64 {
	u := math.NaN()
	for i, c := range s.Cols {
		if strings.HasPrefix(c.Name, "util_") && isFinite(s.Mean[i]) && !(s.Mean[i] <= u) {
			u = s.Mean[i]
		}
	}
	return u
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ApartCaption is the sentence of a figure's caption that names the points
// set apart, each with its value: "" when there are none.
func ApartCaption(apart []results.Summary, legend Legend, metric string) string {
	if len(apart) == 0 {
		return ""
	}
	names := make([]string, 0, len(apart))
	for _, s := range apart {
		names = append(names, s.Policy)
	}
	var parts []string
	for _, n := range sortedByLegend(names, legend) {
		var vals []string
		for _, s := range apart {
			if s.Policy == n {
				vals = append(vals, fmt.Sprintf("%s (%s)", strconv.FormatFloat(s.Value, 'g', 4, 64), apartValue(s.Get(metric))))
			}
		}
		parts = append(parts, n+" at "+strings.Join(vals, ", "))
	}
	return fmt.Sprintf("Drawn at the top of the axis, with its value beside it, and left out of the axis's range: %s — near a tier's capacity "+
		"(a tier's mean offered load ≥ %g) and more than %g times the median of the other policies at that value.",
		strings.Join(parts, "; "), ApartLoad, ApartFactor)
}

// apartValue writes a set-apart point's value: three significant digits.
func apartValue(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// markApart flags the points of ss that are in apart (by policy and
// swept value).
func markApart(ss []series, apart []results.Summary) {
	for i := range ss {
		s := &ss[i]
		for j, xy := range s.XYs {
			if slices.ContainsFunc(apart, func(a results.Summary) bool { return a.Policy == s.Name && a.Value == xy.X }) {
				if s.Far == nil {
					s.Far = make([]bool, len(s.XYs))
				}
				s.Far[j] = true
			}
		}
	}
}

// setApart moves the figure's set-apart points to the top of the range of
// the others (with the headroom the axis adds) and returns the labels
// that write their true values beside them; nil when there are none.
// The series are copied, not changed.
func (f figure) setApart(ss []series, sc float64) ([]series, *plotter.Labels, error) {
	lo, hi, any := math.Inf(1), math.Inf(-1), false
	for _, s := range ss {
		for i, xy := range s.XYs {
			if s.far(i) {
				any = true
				continue
			}
			lo, hi = math.Min(lo, xy.Y-s.Err[i].Low), math.Max(hi, xy.Y+s.Err[i].High)
		}
	}
	if !any || math.IsInf(hi, -1) {
		return ss, nil, nil
	}
	top := hi + 0.06*(hi-lo) // FitY's pad: the marker sits inside the frame
	switch {
	case f.LogY:
		top = hi * 1.1
	case !f.FitY:
		top = hi + 0.06*(hi-math.Min(lo, 0))
	}
	var xys plotter.XYs
	var texts []string
	out := make([]series, len(ss))
	for k, s := range ss {
		out[k] = s
		if s.Far == nil {
			continue
		}
		out[k].XYs, out[k].Err = slices.Clone(s.XYs), slices.Clone(s.Err)
		for i := range s.XYs {
			if s.far(i) {
				xys = append(xys, plotter.XY{X: s.XYs[i].X, Y: top})
				texts = append(texts, "↑ "+apartValue(s.XYs[i].Y))
				out[k].XYs[i].Y = top
				out[k].Err[i].Low, out[k].Err[i].High = 0, 0
			}
		}
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = pt(9, sc)
		l.TextStyle[i].Color = color.Gray{Y: 30}
		l.TextStyle[i].YAlign = -0.5 // centred on the marker
	}
	l.Offset.X = pt(6, sc)
	return out, l, nil
}
