package chart

import (
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
)

// ApartValue writes a set-apart point's value: three significant digits.
func ApartValue(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

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
				texts = append(texts, "↑ "+ApartValue(s.XYs[i].Y))
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
