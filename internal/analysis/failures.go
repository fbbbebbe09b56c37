package analysis

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// FailuresFiles and FailuresPlots are the names FailuresOutputs writes
// (runner.Spec's Files and Plots).
func FailuresFiles() []string { return []string{seriesCSV} }

// FailuresPlots: see FailuresFiles.
func FailuresPlots() []string { return []string{"failures_latency", "failures_p95"} }

// failureColumns are the failures experiment's own columns, in the order
// its table prints them.
var failureColumns = []string{results.ColLostShare, results.ColTimeoutShare, results.ColRetryShare, results.ColGoodput}

// FailuresOutputs writes the failures experiment's files (summary.csv with
// its outcome shares and goodput, the averaged time series, latency over
// time through the scenario's fixed episodes) and prints its table.
func FailuresOutputs(r *runner.Result) ([]string, error) {
	b := analyseBursts(r.Plan, r.Outcomes, r.Args.Window)
	r.Sums = b.sums
	dir, format := r.Opts.Dir, r.Opts.Format
	if err := r.Dir.WriteFile("summary.csv", func(w io.Writer) error { return results.WriteSummary(w, b.plan.Columns(), b.sums) }); err != nil {
		return nil, err
	}
	if err := r.Dir.WriteFile(seriesCSV, func(w io.Writer) error { return results.WriteSeries(w, b.tiers, b.mean, false) }); err != nil {
		return nil, err
	}
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv"), filepath.Join(dir, seriesCSV),
		filepath.Join(dir, seriesRunsCSV)}
	span, what := EpisodeSpan(r.Plan)
	if span != nil {
		for _, f := range episodeFigures(b.policyRuns(), Legend(b.plan), *span, what, b.end, b.width, failuresStem) {
			err := f.Draw(r.Dir, f.File, format, true, false)
			if errors.Is(err, chart.ErrNoData) {
				continue
			}
			if err != nil {
				return nil, err
			}
			written = append(written, filepath.Join(dir, f.File+"."+format))
		}
	}
	printFailures(r.Opts.Out, b)
	return written, nil
}

// EpisodeSpan is the first fixed episode of the plan's tiers, in time
// order, and how figures name it ("the slow-down of tier slow"): nil
// when no tier has one.
func EpisodeSpan(plan *experiment.Plan) (*results.Interval, string) {
	var span *results.Interval
	what := ""
	for _, t := range plan.Scenario.Tiers {
		for _, e := range t.Episodes {
			if span != nil && e.Start >= span.Start {
				continue
			}
			span = &results.Interval{Start: e.Start, End: e.End}
			kind := fmt.Sprintf("the slow-down of %s to %g×", t.Name, e.Speed)
			if e.Down {
				kind = "the failure of " + t.Name
			}
			what = kind
		}
	}
	return span, what
}

// printFailures prints each policy's latency, outcome shares and goodput.
func printFailures(w io.Writer, b *burstAnalysis) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	sweep := b.plan.Scenario.Sweep != nil
	if sweep {
		fmt.Fprintf(tw, "%s\t", b.plan.Scenario.Sweep.Param)
	}
	fmt.Fprintf(tw, "policy\tmean latency (s)\tP95 (s)\t%s\t\n", strings.Join(failureColumns, "\t"))
	for _, s := range b.sums {
		if sweep {
			fmt.Fprintf(tw, "%g\t", s.Value)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t", s.Policy, runner.Num(s.Get(results.ColMeanLatency)), runner.Num(s.Get(results.ColP95Latency)))
		for _, c := range failureColumns {
			fmt.Fprintf(tw, "%s\t", runner.Num(s.Get(c)))
		}
		fmt.Fprintln(tw)
	}
	_ = tw.Flush()
}

// failuresStem begins the names of the failures experiment's figures.
const failuresStem = "failures"

// episodeFigures are the failures experiment's figures: windowed mean and
// P95 latency of every policy from BaselineSpan before span (a tier's
// episode, which name names, e.g. "the slow-down of slow") to end, time
// counted from its start, span shaded; files prefix_latency, prefix_p95.
func episodeFigures(runs []policyRuns, legend chart.Legend, span results.Interval, name string, end, width float64, prefix string) []chart.Figure {
	if len(runs) == 0 {
		return nil
	}
	from := math.Max(span.Start-results.BaselineSpan, 0)
	caption := fmt.Sprintf("From %g s before %s to the end of arrivals, time counted from its start (shaded). "+
		"Lines: mean over replicates of each %g s window of the completed tasks' latency; band: its 95%% Student-t interval. "+
		"Random slow-downs and failures differ between replicates (alike across policies), so the series spread their effect.",
		span.Start-from, name, width)
	z := zoom{runs: runs, legend: legend, span: span, from: from, to: end, width: width, which: name, caption: caption,
		xlabel: "time since the episode began (s)", shade: "episode"}
	return []chart.Figure{
		z.fig(prefix+"_latency", "Windowed mean latency", "mean latency (s)", func(w results.Window) float64 { return w.MeanLatency }, true, false),
		z.fig(prefix+"_p95", "Windowed P95 latency", "P95 latency (s)", func(w results.Window) float64 { return w.P95Latency }, true, false),
	}
}
