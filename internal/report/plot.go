package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// PlotMetric draws one summary.csv metric (a column name such as
// "p95_latency_s" or "share_cloud"; tiers resolves share_/util_ names)
// against the swept value, one line per policy with 95% CI error bars, and
// writes it atomically to dir/file.<format> (format png, svg or pdf).
// logY asks for a log Y axis (see SuggestLogY); points whose mean is not
// positive are then left out, and error bars reaching zero are cut at the
// bottom of the axis. Unstable points (Summary.Unstable) are ringed. It
// returns an error wrapping ErrNoData when no summary has both a swept
// value and this metric. The figure is the experiments' own: default size,
// no caption in the image (SweepCaption goes beside it, in the report).
func PlotMetric(dir chart.Folder, file, format string, sums []results.Summary, legend chart.Legend, metric, title, xlabel, ylabel string, logY bool) error {
	return PlotMetricX(dir, file, format, sums, legend, metric, title, xlabel, ylabel, false, logY)
}

// PlotMetricX is PlotMetric with a choice of a log x axis (a sweep over
// orders of magnitude, such as an observation period); points at x ≤ 0 are
// then left out of the figure.
func PlotMetricX(dir chart.Folder, file, format string, sums []results.Summary, legend chart.Legend, metric, title, xlabel, ylabel string, logX, logY bool) error {
	return PlotMetricWith(dir, file, format, sums, legend, metric,
		chart.FigureOptions{Title: title, XLabel: xlabel, YLabel: ylabel, LogY: logY, LogX: logX})
}

// PlotMetricWith is PlotMetric with every presentation choice in o.
func PlotMetricWith(dir chart.Folder, file, format string, sums []results.Summary, legend chart.Legend, metric string, o chart.FigureOptions) error {
	if len(sums) > 0 && results.Index(sums[0].Cols, metric) < 0 {
		return fmt.Errorf("plot %s: unknown metric %q", file, metric)
	}
	c := chart.Chart{FigureOptions: o, Legend: legend, Dodge: true, Note: SweepCaption,
		Fraction: strings.HasPrefix(metric, "share_"),
		Series:   buildSeries(sums, legend, pickColumn(metric), o.LogY),
		XTicks:   sweptValues(sums)}
	if o.SetApart {
		apart, _ := SetApart(sums, metric)
		markApart(c.Series, apart)
	}
	return c.Save(dir, file, format)
}

// SweepCaption is the note the sweep figures carry: what their marks mean.
const SweepCaption = "Lines: mean over replicates; bars: 95% Student-t confidence interval; " +
	"points slightly offset sideways so that bars do not hide one another."

// SuggestLogY reports whether a metric's positive means span more than a
// factor of 10, where a linear axis would flatten the low-load points.
func SuggestLogY(sums []results.Summary, metric string) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range sums {
		if m := s.Get(metric); m > 0 && !math.IsInf(m, 1) {
			lo, hi = math.Min(lo, m), math.Max(hi, m)
		}
	}
	return hi/lo > 10
}

// sweptValues lists the distinct finite swept values of the summaries,
// sorted.
func sweptValues(sums []results.Summary) []float64 {
	var xs []float64
	for _, s := range sums {
		if isFinite(s.Value) {
			xs = append(xs, s.Value)
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}
