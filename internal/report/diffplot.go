package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

// DiffCaption is the note of a difference plot: what its marks mean.
const DiffCaption = "Points: mean paired per-replicate difference, policy − baseline; bars: its 95% Student-t interval; " +
	"below the dashed line, lower."

// PlotDiffs draws each policy's paired difference against the baseline
// with its 95% interval bars and the zero line, and writes it atomically
// to dir/file.<format>: against the swept value when the differences span
// two or more cells, else one column per policy. Cells where either side is
// unstable are left out (their differences, of hundreds of seconds, would
// flatten every other; the CSV keeps them), and the legend says so. It
// returns an error wrapping ErrNoData when nothing is left to draw.
func PlotDiffs(dir chart.Folder, file, format string, ds []results.Difference, legend chart.Legend, o chart.FigureOptions) error {
	f := chart.Chart{FigureOptions: o, Legend: legend, Zero: true, Dodge: true}
	kept, left := stableDiffs(ds)
	var sums []results.Summary
	for _, d := range kept {
		sums = append(sums, results.Summary{Value: d.Value, Policy: d.Policy})
	}
	xs := sweptValues(sums)
	if len(xs) >= 2 {
		f.XTicks = xs
	} else {
		// One cell: policies side by side, in the legend's order.
		var names []string
		for _, d := range kept {
			names = append(names, d.Policy)
		}
		names = sortedByLegend(names, legend)
		f.XLabels = names
		for i := range kept {
			kept[i].Value = float64(slices.Index(names, kept[i].Policy))
		}
	}
	f.Series = diffSeries(kept, legend)
	f.SymY = DiffSymLog(kept)
	f.Note = DiffNote(ds, legend)
	if len(left) > 0 {
		// Said in the legend, which is always drawn: a reader must not take
		// a missing point for a cell that was not run. The caption, when
		// drawn, names the policies.
		f.Extra = []chart.LegendItem{{Text: "unstable cells: not shown"}}
	}
	return f.Save(dir, file, format)
}

// stableDiffs splits differences into those PlotDiffs draws (copies) and
// the policies it leaves out, unstable in some cell, in order of first
// appearance.
func stableDiffs(ds []results.Difference) (kept []results.Difference, left []string) {
	for _, d := range ds {
		if d.Unstable {
			if !slices.Contains(left, d.Policy) {
				left = append(left, d.Policy)
			}
			continue
		}
		kept = append(kept, d)
	}
	return kept, left
}

// DiffNote is the caption of PlotDiffs's figure of ds: DiffCaption, how to
// read a symmetric log axis when it takes one, and the policies left out
// of some cell (their stable cells are drawn).
func DiffNote(ds []results.Difference, legend chart.Legend) string {
	kept, left := stableDiffs(ds)
	note := DiffCaption
	if c := DiffSymLog(kept); c > 0 {
		note += " " + SymLogCaption(c)
	}
	if len(left) > 0 {
		note += "\nLeft out in the cells where unstable: " + strings.Join(sortedByLegend(left, legend), ", ") + "."
	}
	return note
}

// DiffSymLog is the linear half-width of the symmetric log Y axis a
// difference plot of ds takes, or 0 for a linear one: symmetric log when
// the largest |difference| (with its interval) is more than 10 times the
// median |difference|, where a linear axis would flatten the typical
// difference onto the zero line; the half-width is axis.SymLogLinear's.
func DiffSymLog(ds []results.Difference) float64 {
	var ys []float64
	hi := 0.0
	for _, d := range ds {
		if isFinite(d.Diff) {
			ys = append(ys, d.Diff)
			ci := d.CI95
			if !isFinite(ci) {
				ci = 0
			}
			hi = math.Max(hi, math.Abs(d.Diff)+ci)
		}
	}
	c := axis.SymLogLinear(ys)
	if c == 0 || hi <= 10*2*c { // axis.SymLogLinear is about half the median
		return 0
	}
	return c
}

// SymLogCaption says how to read a symmetric log axis of half-width c.
func SymLogCaption(c float64) string {
	return fmt.Sprintf("Y axis linear between −%s and %s, logarithmic beyond (each decade as long as the linear part), so that small and large differences read on one axis.",
		strconv.FormatFloat(c, 'g', 4, 64), strconv.FormatFloat(c, 'g', 4, 64))
}

// diffSeries turns differences into one series per policy.
func diffSeries(ds []results.Difference, legend chart.Legend) []chart.Series {
	var sums []results.Summary
	cols := []results.Column{{Name: "diff"}}
	for _, d := range ds {
		sums = append(sums, results.Summary{Value: d.Value, Policy: d.Policy, Cols: cols,
			Mean: []float64{d.Diff}, CI95: []float64{d.CI95}})
	}
	return buildSeries(sums, legend, pickColumn("diff"), false)
}

// sortedByLegend orders distinct names as the legend lists them.
func sortedByLegend(names []string, legend chart.Legend) []string {
	var uniq []string
	for _, n := range names {
		if !slices.Contains(uniq, n) {
			uniq = append(uniq, n)
		}
	}
	slices.SortStableFunc(uniq, func(a, b string) int { return cmp.Compare(legend.Rank(a), legend.Rank(b)) })
	return uniq
}
