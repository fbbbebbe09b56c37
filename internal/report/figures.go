package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// The file stems of a sweep's figures (SweepFigures), which an experiment
// that draws some of them its own way writes under the same names.
const (
	MeanLatencyFigure       = "mean_latency"
	P95LatencyFigure        = "p95_latency"
	P99LatencyFigure        = "p99_latency"
	P95LargeFigure          = "p95_large"
	MeanLatencyStableFigure = "mean_latency_stable"
	P95LargeStableFigure    = "p95_large_stable"
	SharesFigure            = "shares"
)

// SweepFiles are the file stems of a sweep's figures but those of its SLO
// thresholds (named by their columns) and its classes (ClassFigures).
func SweepFiles() []string {
	return []string{MeanLatencyFigure, P95LatencyFigure, P99LatencyFigure, P95LargeFigure,
		MeanLatencyStableFigure, P95LargeStableFigure, SharesFigure}
}

// SweepFigures lists the figures of a sweep over param, from its summaries
// (tiers in scenario order): mean, P95, P99 and large-task P95 latency
// against the swept value; the *_stable versions, without the points at or
// near a tier's capacity and with the Y axis fitted to the rest; where each
// policy sends its tasks (shares, stacked); and the share of tasks over
// each SLO threshold when the scenario sets one; with task classes
// (ClassesOf), each class's mean and P95 latency and, when some class has a
// deadline, its deadline misses, a panel per class. A server-count sweep
// gets a log X axis. Figures of columns the summaries lack are left out.
func SweepFigures(sums []results.Summary, legend chart.Legend, param string, tiers []string, classes []Class) []chart.Figure {
	g := sweepFigs{legend: legend, xlabel: ParamLabel(param), name: ParamName(param), logX: SweepLogX(param, sweptValues(sums))}
	has := func(c string) bool { return len(sums) > 0 && results.Index(sums[0].Cols, c) >= 0 }
	var stable []results.Summary
	for _, s := range sums {
		g.anyUnstable = g.anyUnstable || s.Unstable
		if s.Unstable || AtCriticalLoad(s) {
			g.left = append(g.left, s)
		} else {
			stable = append(stable, s)
		}
	}
	var figs []chart.Figure
	for _, m := range []struct{ file, metric, title string }{
		{MeanLatencyFigure, results.ColMeanLatency, "Mean latency"},
		{P95LatencyFigure, results.ColP95Latency, "P95 latency"},
		{P99LatencyFigure, results.ColP99Latency, "P99 latency"},
		{P95LargeFigure, results.ColP95Large, "P95 latency of large tasks"},
	} {
		if has(m.metric) {
			figs = append(figs, g.metric(m.file, m.metric, m.title+" vs "+g.name, sums, false))
		}
	}
	for _, m := range []struct{ file, metric, title string }{
		{MeanLatencyStableFigure, results.ColMeanLatency, "Mean latency"},
		{P95LargeStableFigure, results.ColP95Large, "P95 latency of large tasks"},
	} {
		if has(m.metric) {
			figs = append(figs, g.metric(m.file, m.metric, m.title+" vs "+g.name, stable, true))
		}
	}
	var present []string
	for _, t := range tiers {
		if has(results.ShareCol(t)) {
			present = append(present, t)
		}
	}
	if len(present) > 0 {
		figs = append(figs, g.shares(sums, present))
	}
	if len(sums) > 0 {
		for _, c := range sums[0].Cols {
			if strings.HasPrefix(c.Name, "slo_miss_") {
				f := g.metric(c.Name, c.Name, "Share of tasks missing the SLO ("+c.Name+") vs "+g.name, sums, false)
				f.Options.LogY, f.Options.YLabel = false, "share of tasks over the SLO"
				figs = append(figs, f)
			}
		}
	}
	return append(figs, g.classes(sums, classes)...)
}

// sweepFigs is what a sweep's figures share: the legend, the x axis, and
// the points left out of the *_stable figures.
type sweepFigs struct {
	legend       chart.Legend
	xlabel, name string
	logX         bool
	left         []results.Summary // unstable or at a tier's capacity
	anyUnstable  bool
}

// metric is the figure of one metric against the swept value, of every
// point or (isStable) of the stable ones, the Y axis fitted to them.
func (g sweepFigs) metric(file, metric, title string, ss []results.Summary, isStable bool) chart.Figure {
	o := chart.FigureOptions{XLabel: g.xlabel, YLabel: MetricLabel(metric), LogY: SuggestLogY(ss, metric), LogX: g.logX, FitY: isStable}
	var apart []results.Summary
	if isStable {
		var rest []results.Summary
		apart, rest = SetApart(ss, metric)
		o.SetApart, o.LogY = len(apart) > 0, SuggestLogY(rest, metric)
		title += ", stable points only"
	}
	legend := g.legend
	f := chart.NewFigure(file, title, g.caption(metric, apart, isStable), o, func(dir chart.Folder, file, format string, o chart.FigureOptions) error {
		return PlotMetricWith(dir, file, format, ss, legend, metric, o)
	})
	f.Redundant = isStable && len(g.left) == 0 && len(apart) == 0
	return f
}

// caption is a metric figure's caption: what was left out or set apart.
func (g sweepFigs) caption(metric string, apart []results.Summary, isStable bool) string {
	caption := SweepCaption
	switch {
	case isStable && len(g.left) > 0:
		caption = "Points at or near a tier's capacity left out (a tier's offered load shown above 1, or its 95% interval reaching 1): " +
			leftOut(g.left, g.legend) + ". Y axis fitted to the rest. " + caption
	case isStable && len(apart) == 0:
		caption = "No point was at or near a tier's capacity: the same as the figure with every point. " + caption
	case isStable:
		caption = "Y axis fitted to the points. " + caption
	case g.anyUnstable:
		caption += " Ringed: unstable (a tier's offered load shown above 1)."
	}
	if a := ApartCaption(apart, g.legend, metric); a != "" {
		caption = a + " " + caption
	}
	return caption
}

// shares is the figure of where each policy sends its tasks.
func (g sweepFigs) shares(sums []results.Summary, present []string) chart.Figure {
	caption, note := SharesCaption, SharesNote(present)
	if note != "" {
		caption += " " + strings.ToUpper(note[:1]) + note[1:] + "."
	}
	legend := g.legend
	f := chart.NewFigure(SharesFigure, "Where each policy sends its tasks vs "+g.name, caption, chart.FigureOptions{XLabel: g.xlabel, LogX: g.logX},
		func(dir chart.Folder, file, format string, o chart.FigureOptions) error {
			return PlotShares(dir, file, format, sums, legend, present, o)
		})
	f.Note = note
	return f
}

// AtCriticalLoad reports whether a summary's point is at or near a tier's
// capacity without that tier being shown unstable (Summary.TierUnstable):
// its 95% interval reaches 1 (within 1% of 1 when there is no interval, as
// with one replicate), its mean on either side of 1. Such a point
// (edge-first at exactly the edge's capacity, say) has a latency that grows
// with the run length like an unstable one's, so the *_stable figures
// leave it out too.
func AtCriticalLoad(s results.Summary) bool {
	for i, c := range s.Cols {
		if !strings.HasPrefix(c.Name, "util_") {
			continue
		}
		m, ci := s.Mean[i], s.CI95[i]
		if !isFinite(ci) {
			ci = 0.01
		}
		if m+ci >= 1 && !s.TierUnstable(i) {
			return true
		}
	}
	return false
}

// leftOut names the policies whose points a *_stable figure left out, each
// with its swept values: "edge-first at 100, 120; random at 40–200".
func leftOut(ss []results.Summary, legend chart.Legend) string {
	by := map[string][]float64{}
	var names []string
	for _, s := range ss {
		if _, ok := by[s.Policy]; !ok {
			names = append(names, s.Policy)
		}
		by[s.Policy] = append(by[s.Policy], s.Value)
	}
	names = sortedByLegend(names, legend)
	parts := make([]string, len(names))
	for i, n := range names {
		vs := by[n]
		slices.Sort(vs)
		var vals []string
		for _, v := range vs {
			if isFinite(v) {
				vals = append(vals, strconv.FormatFloat(v, 'g', 4, 64))
			}
		}
		parts[i] = n
		if len(vals) > 0 {
			parts[i] += " at " + strings.Join(vals, ", ")
		}
	}
	return strings.Join(parts, "; ")
}

// ParamName names a sweep parameter for a title: ParamLabel without its
// unit, so that a title does not stack parentheses.
func ParamName(param string) string {
	l, _ := scenario.ParamLabel(param)
	return l
}

// IsCountParam reports whether a swept parameter is a server or device
// count, whose sweeps (1, 2, 4 … 16) read best on a log axis.
func IsCountParam(param string) bool {
	return strings.HasSuffix(param, ".servers") || param == "devices"
}

// SweepLogX reports whether a sweep over param reads best on a log X axis:
// a count (IsCountParam), or positive values spanning more than two
// decades (an observation period of 0.01 … 3 s), which a linear axis
// crowds into its left end. A value of 0 is then drawn too, at the left of
// a symmetric log axis (figures draw it so).
func SweepLogX(param string, values []float64) bool {
	if IsCountParam(param) {
		return true
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if v > 0 && isFinite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return hi/lo > 100
}

// DiffValues are the swept values of differences, for SweepLogX.
func DiffValues(ds []results.Difference) []float64 {
	xs := make([]float64, len(ds))
	for i, d := range ds {
		xs[i] = d.Value
	}
	return xs
}
