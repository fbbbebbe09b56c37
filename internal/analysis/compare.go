package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// CompareOptions are `offload compare`'s settings.
type CompareOptions struct {
	Dir      string // the results folder whose runs.csv is compared
	Out      string // where the files go; "" for Dir itself
	Baseline string // the policy label every other is compared with
	Metric   string // a runs.csv column; "" for mean_latency_s
	Format   string // plot format; "" for png
	Force    bool   // -o: write into a folder holding another scenario's results
	Command  []string
	Stdout   io.Writer // the table and the paths written
}

// Compare pairs, in every cell of dir's runs.csv, each policy's replicates
// with the baseline's (common random numbers make them comparable pair by
// pair) and writes compare_<stem>.csv and the difference plot
// diff_<stem>.<format> (stem: report.FileStem of the metric) into the
// folder, or into Out, through internal/store: only files offload owns are
// replaced there. It prints a table of the differences. Unknown metrics and
// baselines are bad input, with the allowed values in the message.
func Compare(ctx context.Context, o CompareOptions) ([]results.Difference, error) {
	if o.Metric == "" {
		o.Metric = results.ColMeanLatency
	}
	if o.Format == "" {
		o.Format = "png"
	}
	if !slices.Contains(chart.Formats, o.Format) {
		return nil, runner.BadInputf("--format %q: allowed: %s", o.Format, strings.Join(chart.Formats, ", "))
	}
	runs, legend, param, err := readRunsFolder(ctx, o.Dir)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, runner.BadInputf("%s: runs.csv has no runs", o.Dir)
	}
	if results.Index(runs[0].Cols, o.Metric) < 0 {
		return nil, runner.BadInputf("--metric %q: not a column of %s (allowed: %s)", o.Metric, filepath.Join(o.Dir, "runs.csv"), strings.Join(results.Names(runs[0].Cols), ", "))
	}
	ds, err := results.CompareTo(runs, o.Baseline, o.Metric)
	if err != nil {
		return nil, runner.BadInputf("--baseline: %w", err)
	}
	stem := report.FileStem(o.Metric)
	csvName, plotName := "compare_"+stem+".csv", "diff_"+stem+"."+o.Format
	rankName, pairsName := "ranking_"+stem+".csv", "pairs_"+stem+".csv"
	names := []string{csvName, plotName, rankName, pairsName}
	m, err := runner.ReadManifest(o.Dir)
	if err != nil {
		return nil, runner.BadInputf("%s: no offload manifest (%v): compare reads a results folder", o.Dir, err)
	}
	d, target, m, err := openCompareTarget(o, m, names)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if o.Out != "" {
		if err := d.WriteManifest(m); err != nil {
			return nil, err
		}
	}
	if err := d.WriteFile(csvName, func(w io.Writer) error { return results.WriteCompare(w, ds) }); err != nil {
		return nil, err
	}
	written := []string{filepath.Join(target, csvName)}
	ranks := rankCells(runs, o.Metric)
	if err := d.WriteFile(rankName, func(w io.Writer) error { return writeRanking(w, ranks, o.Metric) }); err != nil {
		return nil, err
	}
	if err := d.WriteFile(pairsName, func(w io.Writer) error { return writePairs(w, ranks) }); err != nil {
		return nil, err
	}
	written = append(written, filepath.Join(target, rankName), filepath.Join(target, pairsName))
	err = report.PlotDiffs(d, plotName, o.Format, ds, legend, diffFigure(o.Metric, o.Baseline, param, ds))
	switch {
	case err == nil:
		written = append(written, filepath.Join(target, plotName))
	case !errors.Is(err, chart.ErrNoData):
		return nil, err
	}
	if o.Out != "" {
		m.Complete, m.Finished = true, time.Now().UTC()
	} else if old, ok := d.Old(); ok {
		m = old // the folder's record, with the new files added
	}
	if err := d.WriteManifest(m); err != nil {
		return nil, err
	}
	printDiffs(o.Stdout, ds, param)
	printRanking(o.Stdout, ranks, o.Metric)
	runner.NoteWritten(o.Stdout, written...)
	return ds, nil
}

// openCompareTarget opens where compare writes: the results folder itself
// (opened for its own scenario, so that the new files join the ones it
// records and nothing else is touched), or o.Out, whose manifest is then
// compare's (one of comparisons of the same results keeps those of other
// metrics). It returns the folder, its path and the manifest to record.
func openCompareTarget(o CompareOptions, m runner.Manifest, writes []string) (*runner.Folder, string, runner.Manifest, error) {
	if o.Out == "" {
		d, err := runner.AddToFolder(o.Dir, writes)
		return d, o.Dir, m, err
	}
	var d *runner.Folder
	var err error
	if prev, perr := runner.ReadManifest(o.Out); perr == nil && prev.ScenarioHash == m.ScenarioHash {
		d, err = runner.AddToFolder(o.Out, writes)
	} else {
		d, err = runner.OpenFolder(o.Out, m.ScenarioHash, "compare", o.Force, false, writes)
	}
	return d, o.Out, *runner.NewManifest(o.Command, "compare", m.Seed, m.Seeds, m.ScenarioHash), err
}

// diffFigure is the presentation of a difference plot.
func diffFigure(metric, baseline, param string, ds []results.Difference) chart.FigureOptions {
	label := report.MetricLabel(metric)
	o := chart.FigureOptions{Title: strings.ToUpper(label[:1]) + label[1:] + ": each policy − " + baseline + ", paired by replicate",
		YLabel: "difference in " + report.MetricLabel(metric)}
	if param != "" {
		o.XLabel, o.LogX = report.ParamLabel(param), report.SweepLogX(param, report.DiffValues(ds))
	}
	return o
}

// readRunsFolder reads a results folder's runs.csv (emulated runs marked
// invalid are left out, as in the emulation's own summary) and its legend
// from scenario.yaml (the runs' order of policies without one).
func readRunsFolder(ctx context.Context, dir string) ([]results.Run, chart.Legend, string, error) {
	if fi, err := os.Stat(dir); err == nil && fi.Mode().IsRegular() {
		return nil, chart.Legend{}, "", runner.BadInputf("%s is a regular file, not a results folder", dir)
	}
	b, err := runner.ReadResult(ctx, filepath.Join(dir, "runs.csv"))
	if errors.Is(err, fs.ErrNotExist) {
		hint := ""
		if _, e := os.Stat(filepath.Join(dir, "claims.md")); e == nil {
			hint = " (a reproduction: compare one of its experiment folders" + firstRunsFolder(dir) + ")"
		}
		return nil, chart.Legend{}, "", runner.BadInputf("%s has no runs.csv%s", dir, hint)
	}
	if err != nil {
		return nil, chart.Legend{}, "", err
	}
	all, err := results.ReadRunsAny(bytes.NewReader(b))
	if err != nil {
		return nil, chart.Legend{}, "", runner.BadInputf("%s: %w", dir, err)
	}
	runs := validRuns(all)
	var legend chart.Legend
	param := ""
	y, err := runner.ReadResult(ctx, filepath.Join(dir, "scenario.yaml"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, chart.Legend{}, "", err
	}
	if err == nil {
		if legend, param, err = report.ScenarioLegend(y); err != nil {
			return nil, chart.Legend{}, "", runner.BadInputf("%s: %w", dir, err)
		}
	}
	if len(legend.Labels) == 0 {
		for _, r := range runs {
			if !slices.Contains(legend.Labels, r.Policy) {
				legend.Labels = append(legend.Labels, r.Policy)
			}
		}
		legend.Policies = legend.Labels
	}
	return runs, legend, param, nil
}

// validRuns returns the runs but the emulated ones marked invalid, which
// the emulation's own summary leaves out too.
func validRuns(all []results.Run) []results.Run {
	var runs []results.Run
	for _, r := range all {
		if v := r.Get("valid"); v == 0 {
			continue
		}
		runs = append(runs, r)
	}
	return runs
}

// printDiffs writes the differences as a table.
func printDiffs(w io.Writer, ds []results.Difference, param string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := ""
	if param != "" {
		head = param + "\t"
	}
	if len(ds) > 0 {
		fmt.Fprintf(tw, "%spolicy\tpairs\t%s − %s\t± 95%% CI\tverdict\t\n", head, ds[0].Metric, ds[0].Baseline)
	}
	for _, d := range ds {
		if param != "" {
			fmt.Fprintf(tw, "%s\t", runner.Num(d.Value))
		}
		v := d.Verdict()
		if d.Unstable {
			v += " (unstable)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t\n", d.Policy, d.Pairs, runner.Num(d.Diff), runner.Num(d.CI95), v)
	}
	_ = tw.Flush()
}

// firstRunsFolder names, as ", e.g. PATH", the first subfolder of dir that
// holds a runs.csv; "" when there is none.
func firstRunsFolder(dir string) string {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "runs.csv")); e.IsDir() && err == nil {
			return ", e.g. " + filepath.Join(dir, e.Name())
		}
	}
	return ""
}
