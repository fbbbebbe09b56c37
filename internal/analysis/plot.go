package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// PlotOptions are `offload plot`'s settings.
type PlotOptions struct {
	Dir      string   // the results folder whose summary.csv is plotted
	Y        string   // a summary.csv metric column
	Figure   string   // or one of the sweep's figures by its file stem (report.SweepFigures), instead of Y
	X        string   // the swept parameter ("" or its path) or another metric column
	Policies []string // labels to draw; nil for all
	Format   string   // png, svg or pdf; "" for the one Out's extension names
	Size     string   // "WxH" in in (default), cm or px (at the PNG's chart.PNGDPI); "" for the default
	LogY     *bool    // nil: as the experiments choose (report.SuggestLogY)
	Caption  bool     // draw the caption inside the image
	Title    *string  // nil: "<metric> vs <x>"
	Out      string   // the file to write
	Force    bool     // replace an existing Out outside Dir
	Stdout   io.Writer
}

// Plot re-draws one column of a results folder's summary.csv against the
// swept value (or another column), for a subset of its policies, and
// writes it to o.Out: through internal/store when that is inside the
// folder (only offload's own files are replaced there), atomically
// anywhere else, where an existing file is replaced only with o.Force (a
// file of the user's is never lost) and a missing folder is made. Unknown
// metrics and policies are bad input, with what is allowed.
func Plot(ctx context.Context, o PlotOptions) (string, error) {
	if o.Out == "" {
		return "", runner.BadInputf("-o FILE: where to write the plot")
	}
	if inside, _ := runner.SameDir(filepath.Dir(o.Out), o.Dir); !inside {
		if err := mayOverwrite(o.Out, o.Force); err != nil {
			return "", err
		}
	}
	format, err := plotFormat(o.Out, o.Format)
	if err != nil {
		return "", err
	}
	o.Format = format
	w, h, err := parseSize(o.Size)
	if err != nil {
		return "", runner.BadInputf("--size %q: %v", o.Size, err)
	}
	if o.Figure != "" {
		return plotFigure(ctx, o, w, h)
	}
	sums, names, err := readSummary(ctx, o)
	if err != nil {
		return "", err
	}
	legend, param, err := readLegend(ctx, o.Dir)
	if err != nil {
		return "", err
	}
	fo, err := plotAxes(o, sums, names, param)
	if err != nil {
		return "", err
	}
	if sums, err = selectPolicies(sums, o.Policies); err != nil {
		return "", err
	}
	fo.YLabel, fo.LogY, fo.Caption, fo.Width, fo.Height = report.MetricLabel(o.Y), report.SuggestLogY(sums, o.Y), o.Caption, w, h
	if o.LogY != nil {
		fo.LogY = *o.LogY
	}
	if o.Title != nil {
		fo.Title = *o.Title
	}
	return writePlot(o, sums, legend, fo)
}

// readSummary reads the folder's summary.csv and checks --y against its
// columns, which it returns.
func readSummary(ctx context.Context, o PlotOptions) ([]results.Summary, []string, error) {
	b, err := runner.ReadResult(ctx, filepath.Join(o.Dir, "summary.csv"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, noSummary(o.Dir)
	}
	if err != nil {
		return nil, nil, err
	}
	sums, err := results.ReadSummary(bytes.NewReader(b))
	if err != nil {
		return nil, nil, runner.BadInputf("%s: %w", o.Dir, err)
	}
	if len(sums) == 0 {
		return nil, nil, runner.BadInputf("%s: summary.csv has no rows", o.Dir)
	}
	names := results.Names(sums[0].Cols)
	if o.Figure == "" && !slices.Contains(names, o.Y) {
		return nil, nil, runner.BadInputf("--y %q: not a column of %s (allowed: %s)", o.Y, filepath.Join(o.Dir, "summary.csv"), strings.Join(names, ", "))
	}
	return sums, names, nil
}

// noSummary is the bad input of a folder without summary.csv: a run that
// did not finish (its manifest says so), or a reproduction's folder.
func noSummary(dir string) error {
	if m, err := runner.ReadManifest(dir); err == nil && !m.Complete && m.Runs > 0 {
		return runner.BadInputf("%s has no summary.csv: its run did not finish (%d of %d runs done); the same command with --resume runs the rest", dir, m.RunsDone, m.Runs)
	}
	return runner.BadInputf("%s has no summary.csv (a reproduction: plot one of its experiment folders)", dir)
}

// readLegend reads the folder's legend and swept parameter from its
// scenario.yaml; without one, the empty legend and no parameter.
func readLegend(ctx context.Context, dir string) (chart.Legend, string, error) {
	y, err := runner.ReadResult(ctx, filepath.Join(dir, "scenario.yaml"))
	if errors.Is(err, fs.ErrNotExist) {
		return chart.Legend{}, "", nil
	}
	if err != nil {
		return chart.Legend{}, "", err
	}
	legend, param, err := report.ScenarioLegend(y)
	if err != nil {
		return chart.Legend{}, "", runner.BadInputf("%s: %w", dir, err)
	}
	return legend, param, nil
}

// plotAxes sets the x axis from --x (the swept value, as the experiment
// drew it, or another column, whose values replace the swept ones in sums)
// and the title.
func plotAxes(o PlotOptions, sums []results.Summary, names []string, param string) (chart.FigureOptions, error) {
	xlabel := report.ParamLabel(param)
	logX := false
	switch {
	case o.X == "" || o.X == param || o.X == "value":
		logX = report.SweepLogX(param, sweptOf(sums)) // as the experiment drew it
		if param == "" && !slices.ContainsFunc(sums, func(s results.Summary) bool { return isFinite(s.Value) }) {
			return chart.FigureOptions{}, runner.BadInputf("%s has no sweep: give --x a column to plot against (allowed: %s)", o.Dir, strings.Join(names, ", "))
		}
	case slices.Contains(names, o.X):
		xlabel = report.MetricLabel(o.X)
		for i := range sums {
			sums[i].Value = sums[i].Get(o.X)
		}
	default:
		allowed := names
		if param != "" {
			allowed = append([]string{param}, names...)
		}
		return chart.FigureOptions{}, runner.BadInputf("--x %q: allowed: %s", o.X, strings.Join(allowed, ", "))
	}
	xname := xlabel // the title names the swept parameter without its unit (the axis has it)
	if xlabel == report.ParamLabel(param) {
		xname = report.ParamName(param)
	}
	return chart.FigureOptions{XLabel: xlabel, LogX: logX, Title: report.MetricLabel(o.Y) + " vs " + xname}, nil
}

// selectPolicies keeps the rows of the policies asked for (all for none);
// a label that is not in the summary is bad input.
func selectPolicies(sums []results.Summary, want []string) ([]results.Summary, error) {
	if len(want) == 0 {
		return sums, nil
	}
	var labels []string
	for _, s := range sums {
		if !slices.Contains(labels, s.Policy) {
			labels = append(labels, s.Policy)
		}
	}
	for _, p := range want {
		if !slices.Contains(labels, p) {
			return nil, runner.BadInputf("--policy %q: allowed: %s", p, strings.Join(labels, ", "))
		}
	}
	return slices.DeleteFunc(sums, func(s results.Summary) bool { return !slices.Contains(want, s.Policy) }), nil
}

// writePlot draws the figure into o.Out: through internal/store when that
// is inside the folder, recording it in the folder's manifest.
func writePlot(o PlotOptions, sums []results.Summary, legend chart.Legend, fo chart.FigureOptions) (string, error) {
	err := writeOut(o, func(folder chart.Folder) error {
		return report.PlotMetricWith(folder, filepath.Base(o.Out), o.Format, sums, legend, o.Y, fo)
	})
	if errors.Is(err, chart.ErrNoData) {
		return "", runner.BadInputf("--y %s: no point to draw: every selected row's value (or swept value) is missing, or not positive on a log axis", o.Y)
	}
	if err != nil {
		return "", err
	}
	runner.NoteWritten(o.Stdout, o.Out)
	return o.Out, nil
}

// writeOut hands draw the folder of o.Out: the results folder through
// internal/store when o.Out is inside it (its manifest then records the
// file), else a plain folder written atomically, made if missing.
func writeOut(o PlotOptions, draw func(chart.Folder) error) error {
	if same, _ := runner.SameDir(filepath.Dir(o.Out), o.Dir); !same {
		if err := os.MkdirAll(filepath.Dir(o.Out), 0o755); err != nil {
			return err
		}
		return draw(chart.Dir(filepath.Dir(o.Out)))
	}
	d, err := runner.AddToFolder(o.Dir, []string{filepath.Base(o.Out)})
	if err != nil {
		return err
	}
	defer d.Close()
	defer func() {
		if old, ok := d.Old(); ok {
			_ = d.WriteManifest(old) // records the plot; the file itself is complete
		}
	}()
	return draw(d)
}

// plotFormat is the format of the plot file out: the one its extension
// names, which --format (given, not "") must repeat. A name without one of
// the formats' extensions is refused rather than written under a name that
// hides what the file holds.
func plotFormat(out, given string) (string, error) {
	if given != "" && !slices.Contains(chart.Formats, given) {
		return "", runner.BadInputf("--format %q: allowed: %s", given, strings.Join(chart.Formats, ", "))
	}
	ext := strings.TrimPrefix(filepath.Ext(out), ".")
	switch {
	case !slices.Contains(chart.Formats, ext) && given != "":
		return "", runner.BadInputf("-o %s: the name must end in .%s (--format %s)", out, given, given)
	case !slices.Contains(chart.Formats, ext):
		return "", runner.BadInputf("-o %s: the name must end in .%s: its extension is the format", out, strings.Join(chart.Formats, ", ."))
	case given != "" && given != ext:
		return "", runner.BadInputf("--format %s contradicts -o %s (a .%s file): give one of them, or the same format in both", given, out, ext)
	}
	return ext, nil
}

// parseSize reads a figure size "WxH": numbers in inches, or with a unit
// suffix in, cm or px (pixels of the PNG's chart.PNGDPI). "" is the
// default size (0, 0).
func parseSize(s string) (w, h vg.Length, err error) {
	if s == "" {
		return 0, 0, nil
	}
	unit, scale := "in", vg.Inch
	for _, u := range []struct {
		suffix string
		len    vg.Length
	}{{"in", vg.Inch}, {"cm", vg.Centimeter}, {"px", vg.Inch / chart.PNGDPI}} {
		if strings.HasSuffix(s, u.suffix) {
			unit, scale, s = u.suffix, u.len, strings.TrimSuffix(s, u.suffix)
		}
	}
	ws, hs, ok := strings.Cut(s, "x")
	if !ok {
		return 0, 0, errors.New(`want WxH, e.g. 7x4.6 (inches), 18x12cm or 2100x1380px`)
	}
	wf, err1 := strconv.ParseFloat(ws, 64)
	hf, err2 := strconv.ParseFloat(hs, 64)
	if err1 != nil || err2 != nil || !(wf > 0) || !(hf > 0) || !isFinite(wf) || !isFinite(hf) {
		return 0, 0, fmt.Errorf("want two positive numbers W and H (in %s)", unit)
	}
	w, h = vg.Length(wf)*scale, vg.Length(hf)*scale
	if w < chart.MinFigureSize || h < chart.MinFigureSize || w > 100*vg.Inch || h > 100*vg.Inch {
		return 0, 0, fmt.Errorf("each side must be %g–100 in", float64(chart.MinFigureSize/vg.Inch))
	}
	return w, h, nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// sweptOf lists the summaries' swept values.
func sweptOf(sums []results.Summary) []float64 {
	xs := make([]float64, len(sums))
	for i, s := range sums {
		xs[i] = s.Value
	}
	return xs
}

// mayOverwrite refuses, as bad input, an existing out (a file of the
// user's, or one an earlier plot wrote: nothing tells them apart) unless
// force; something other than a regular file there is refused even with
// force.
func mayOverwrite(out string, force bool) error {
	fi, err := os.Lstat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return runner.BadInputf("-o %s exists and is not a regular file: give another name", out)
	case !force:
		return runner.BadInputf("-o %s exists: give another name, or --force to replace it", out)
	}
	return nil
}
