package cmd

import (
	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/emulate"
	"github.com/offload-sim/offload/internal/reproduce"
	"github.com/offload-sim/offload/internal/results"
)

// oneFolder takes exactly one positional argument, the results folder.
func oneFolder(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return badInputf("%s takes one results folder, got %d arguments (see '%s --help')", subPath(c), len(args), c.CommandPath())
	}
	return nil
}

func newReportCmd(io IO) *cobra.Command {
	var out string
	var force bool
	c := &cobra.Command{
		Use:   "report DIR",
		Short: "Write one self-contained HTML page of a results folder",
		Long: `Write an HTML report of a results folder (a run, an experiment, a
reproduction with its experiment folders, an emulation): provenance from
manifest.json, the summary tables with 95% confidence intervals (unstable
rows marked), each cell's policies ranked on mean latency by paired
differences with Holm-adjusted p-values (compare's ranking, the
significant differences named), the figures re-drawn from the CSVs as
inline SVG, a
reproduction's claims with their verdicts and evidence, and the resolved
scenario. The page loads nothing (no script, font or stylesheet from
elsewhere): it opens offline, reads on a phone and prints.

Without -o it is DIR/report.html, written like every file offload writes
there (a report.html that is not offload's is left alone and refused).
Elsewhere, an existing -o FILE is replaced only if it is a report offload
wrote, or with --force.`,
		Example: "  offload report results/sweep-load\n  offload report results/reproduce -o /tmp/repro.html",
		Args:    oneFolder,
		RunE: func(c *cobra.Command, args []string) error {
			_, err := analysis.WriteReport(c.Context(), args[0], out, force, reportOptions(), io.Out)
			return err
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "the HTML `FILE` (default DIR/report.html)")
	c.Flags().BoolVar(&force, "force", false, "replace -o FILE outside DIR even if offload did not write it")
	return c
}

// reportOptions are what the report draws of the experiments: a
// reproduction's order, then the emulation's folder; the registry's
// experiments' own figures, then the emulation's.
func reportOptions() analysis.ReportOptions {
	return analysis.ReportOptions{Order: reproduce.ReportOrder(emulate.Name),
		Figures: append(reproduce.ReportFigures(), emulate.ReportFigures())}
}

func newPlotCmd(io IO) *cobra.Command {
	o := analysis.PlotOptions{Stdout: io.Out}
	var logY, linY, caption, noCaption bool
	var title string
	c := &cobra.Command{
		Use:   "plot DIR (--y METRIC | --figure NAME) -o FILE",
		Short: "Re-plot any column of a results folder's summary.csv",
		Long: `Draw one column of DIR/summary.csv (mean and 95% interval bars, one line per
policy, unstable points ringed) against the swept parameter, or against
another column with --x, for all policies or those of --policy. The axis is
logarithmic when the values span more than a factor of 10, unless --log-y or
--lin-y says otherwise.

The format is the one -o's extension names (.png, .svg or .pdf); --format,
if given, must agree with it. A PNG is drawn at 300 dpi (its pixel width is
300 × its width in inches) and says so in the file, so that it prints at its
size. The title is "<metric> vs <x>" unless --title gives another, and
--title "" draws none (a paper's caption carries it). No caption is drawn
inside the image unless --caption; it wraps to the image's width.

--figure NAME draws one of the sweep's own figures instead, as the
experiment drew it (mean_latency, shares, class_latency, …: the file
stems it wrote), at --size, for the policies of --policy.

Inside DIR, -o replaces only a file offload wrote there. Anywhere else an
existing FILE is kept unless --force; a missing folder is made.`,
		Example: "  offload plot results/sweep-load --y p99_latency_s -o p99.svg\n" +
			"  offload plot results/sweep-load --y share_cloud --policy hybrid,jsq-s --size 5x3.5 -o cloud.png\n" +
			"  offload plot results/sweep-load --y mean_latency_s --size 3.5x2.6 --title \"\" -o fig3.pdf\n" +
			"  offload plot results/classes --figure class_latency --policy hybrid,jsq-s -o classes.svg",
		Args: oneFolder,
		RunE: func(c *cobra.Command, args []string) error {
			o.Dir = args[0]
			if o.Y == "" && o.Figure == "" {
				return badInputf("--y METRIC: which summary.csv column to plot (or --figure NAME: which of the sweep's figures)")
			}
			if logY && linY {
				return badInputf("--log-y and --lin-y: give one")
			}
			if caption && noCaption {
				return badInputf("--caption and --no-caption: give one")
			}
			if logY || linY {
				o.LogY = &logY
			}
			o.Caption = caption
			if c.Flags().Changed("title") {
				o.Title = &title
			}
			_, err := analysis.Plot(c.Context(), o)
			return err
		},
	}
	fl := c.Flags()
	// -y and -x as shorthands too: cobra's completion looks a one-letter
	// flag name up as a shorthand, so --y completes only with one.
	fl.StringVarP(&o.Y, "y", "y", "", "the summary.csv `METRIC` to plot (required)")
	fl.StringVar(&o.Figure, "figure", "", "draw the sweep's figure `NAME` (its file stem: mean_latency, shares, class_latency, …) instead of a column")
	fl.StringVarP(&o.X, "x", "x", "", "plot against this `PARAM`: the swept parameter (default) or another summary.csv column")
	fl.StringSliceVar(&o.Policies, "policy", nil, "only these policies, by label (`a,b`)")
	fl.StringVar(&o.Format, "format", "", "png, svg or pdf (default: the one -o's extension names; if given, it must agree)")
	fl.StringVar(&o.Size, "size", "", "image size `WxH` in inches, or with a unit: 18x12cm, 2100x1380px (at 300 dpi; default 7 in wide)")
	fl.BoolVar(&logY, "log-y", false, "logarithmic Y axis")
	fl.BoolVar(&linY, "lin-y", false, "linear Y axis")
	fl.BoolVar(&caption, "caption", false, "draw the caption (what lines and bars mean) under the legend")
	fl.BoolVar(&noCaption, "no-caption", false, "no caption inside the image (the default)")
	fl.StringVar(&title, "title", "", "the figure's `TITLE` (default: \"<metric> vs <x>\"; --title \"\" draws none)")
	fl.StringVarP(&o.Out, "out", "o", "", "the image `FILE` (required), ending in .png, .svg or .pdf: its format")
	fl.BoolVar(&o.Force, "force", false, "replace -o FILE outside DIR if it exists")
	return c
}

func newCompareCmd(io IO) *cobra.Command {
	o := analysis.CompareOptions{Stdout: io.Out}
	c := &cobra.Command{
		Use:   "compare DIR --baseline POLICY",
		Short: "Paired differences of every policy against a baseline, cell by cell",
		Long: `Pair every policy's runs with the baseline's by cell and replicate (every
policy sees the same arrivals, sizes and delays in one replicate) and give
the mean of the per-replicate differences policy − baseline of --metric with
its 95% Student-t interval: a table on stdout, compare_<metric>.csv and the
difference plot diff_<metric>.<format> (the metric without its _s suffix:
mean_latency_s → diff_mean_latency.png), written into DIR, or -o OUT.
"lower" means the whole interval lies below zero.

Then every cell's policies ranked on the metric by paired t tests over all
their pairs, Holm-adjusted: printed after the table, and written as
ranking_<metric>.csv (each policy's rank) and pairs_<metric>.csv (every
pair's difference, interval and p-values).`,
		Example: "  offload compare results/sweep-load --baseline jsq-s\n  offload compare results/run --baseline hybrid --metric p95_large_s -o /tmp/cmp",
		Args:    oneFolder,
		RunE: func(c *cobra.Command, args []string) error {
			o.Dir = args[0]
			if o.Baseline == "" {
				return badInputf("--baseline POLICY: which policy the others are compared with")
			}
			o.Command = cmdArgs(c.Context())
			_, err := analysis.Compare(c.Context(), o)
			return err
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Baseline, "baseline", "", "the `POLICY` label every other is compared with (required)")
	fl.StringVar(&o.Metric, "metric", results.ColMeanLatency, "the runs.csv `COLUMN` compared")
	fl.StringVar(&o.Format, "format", "png", "plot format: png, svg or pdf")
	fl.StringVarP(&o.Out, "out", "o", "", "write into this `folder` instead of DIR")
	fl.BoolVar(&o.Force, "force", false, "with -o: write into a folder that holds another scenario's results")
	return c
}

// analysisCommands are the commands that read a results folder.
func analysisCommands(io IO) []*cobra.Command {
	return []*cobra.Command{newReportCmd(io), newPlotCmd(io), newCompareCmd(io)}
}
