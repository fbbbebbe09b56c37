package runner

import (
	"errors"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/store"
)

// BurstSpec is the burst experiment: time series through repeated bursts,
// and per burst the peak and the recovery (docs/design.md §4).
func BurstSpec() Spec {
	return Spec{Name: "burst", Embedded: "burst",
		Short: "Latency and cloud share through repeated load bursts",
		Long: `Run every policy through the bursts of the embedded burst scenario (or -f
FILE) and follow it in time windows: timeseries.csv (per window and policy,
averaged over replicates: mean and P95 latency, tier shares, λ̂, β and ρ̂ per
tier), bursts.csv (per burst and policy: baseline, peak windowed mean latency,
recovery time), and plots with the bursts shaded.`,
		Prepare: prepareBurst,
		side:    func(a Args) *sidecar { return seriesSidecar(a.Window) },
		outputs: burstOutputs,
	}
}

// prepareBurst checks that bursts fall at known times and that the series
// fits in memory.
func prepareBurst(plan *experiment.Plan, a Args) error {
	if !(a.Window > 0) || math.IsInf(a.Window, 0) {
		return fmt.Errorf("--window %g: need a window width > 0 (s)", a.Window)
	}
	horizon := experiment.Horizon(plan.Scenario)
	if horizon == 0 {
		return fmt.Errorf("burst: the scenario must be in duration mode (duration, warmup_time) so that bursts fall at known times; got tasks: %d (to shorten a burst run, use --set duration=SECONDS, not --tasks)", plan.Scenario.Tasks)
	}
	if n := horizon / a.Window; n > maxWindows {
		return fmt.Errorf("--window %g: %.0f windows over %g s of arrivals; at most %d are allowed (widen the window)", a.Window, n, horizon, maxWindows)
	}
	plan.SeriesWidth = a.Window
	return nil
}

func burstOutputs(r *Result) ([]string, error) {
	b := AnalyseBursts(r.Plan, r.Outcomes, r.Args.Window)
	r.Sums = b.sums
	dir, format := r.Opts.Dir, r.Opts.Format
	drawn, err := b.write(r.Dir, format)
	if err != nil {
		return nil, err
	}
	b.print(r.Opts.Out)
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv"), fmtPath(dir, "timeseries.csv"),
		fmtPath(dir, "series_runs.csv"), fmtPath(dir, "bursts.csv")}
	for _, f := range drawn {
		written = append(written, fmtPath(dir, f+"."+format))
	}
	return written, nil
}

// maxWindows bounds a run's series, whose memory grows with the window count.
const maxWindows = 100000

// BurstAnalysis is the burst experiment's aggregate view of its runs.
type BurstAnalysis struct {
	plan   *experiment.Plan
	width  float64
	tiers  []string
	cloud  int // index of the first cloud tier, −1 if none
	bursts []results.Interval
	sums   []results.Summary
	mean   []report.SeriesRow // timeseries.csv
	stats  []report.BurstRow  // bursts.csv, on the averaged series
	order  []cellPolicy
	reps   map[cellPolicy][][]results.Window // each replicate's series
	end    float64                           // end of arrivals, s
}

// cellPolicy names one (cell, policy) group of runs.
type cellPolicy struct {
	param  string
	value  uint64
	policy string
}

// AnalyseBursts averages the replicates' series and measures every burst.
func AnalyseBursts(plan *experiment.Plan, outs []experiment.Outcome, width float64) *BurstAnalysis {
	horizon := experiment.Horizon(plan.Scenario)
	b := &BurstAnalysis{plan: plan, width: width, tiers: plan.Tiers(),
		bursts: experiment.BurstIntervals(plan.Scenario, horizon),
		sums:   results.Summarize(outcomeRuns(outs))}
	b.cloud = firstCloud(plan)
	b.end = horizon
	groups := map[cellPolicy][][]results.Window{}
	b.reps = groups
	first := map[cellPolicy]results.Run{}
	for _, out := range outs {
		k := cellPolicy{out.Param, math.Float64bits(out.Value), out.Policy}
		if _, ok := groups[k]; !ok {
			b.order = append(b.order, k)
			first[k] = out.Run
		}
		groups[k] = append(groups[k], out.Series)
	}
	for _, k := range b.order {
		key := keyOf(first[k])
		key.Seed = -1
		avg := results.MeanSeries(groups[k])
		for _, w := range avg {
			b.mean = append(b.mean, report.SeriesRow{Key: key, Runs: len(groups[k]), Width: width, Window: w})
		}
		for _, st := range results.BurstStats(avg, width, b.bursts, horizon, b.cloud) {
			b.stats = append(b.stats, report.BurstRow{Key: key, BurstStat: st})
		}
	}
	return b
}

// write writes the burst experiment's files and returns the names of the
// figures it drew: a figure with nothing to show (no burst in the run) is
// left out, not drawn empty.
func (b *BurstAnalysis) write(dir *store.Dir, format string) (drawn []string, err error) {
	if err := dir.WriteFile("summary.csv", func(w io.Writer) error { return report.WriteSummary(w, b.plan.Columns(), b.sums) }); err != nil {
		return nil, err
	}
	if err := dir.WriteFile("timeseries.csv", func(w io.Writer) error { return report.WriteSeries(w, b.tiers, b.mean, false) }); err != nil {
		return nil, err
	}
	if err := dir.WriteFile("bursts.csv", func(w io.Writer) error { return report.WriteBursts(w, b.stats) }); err != nil {
		return nil, err
	}
	for _, f := range report.BurstFigures(b.policyRuns(), legendOf(b.plan), b.bursts, b.end, b.width, b.cloud) {
		err := f.Draw(dir, f.File, format, true, false)
		if errors.Is(err, report.ErrNoData) {
			continue
		}
		if err != nil {
			return nil, err
		}
		drawn = append(drawn, f.File)
	}
	return drawn, nil
}

// policyRuns are the replicates' series of each policy in the first cell,
// marked unstable as summary.csv marks them.
func (b *BurstAnalysis) policyRuns() []report.PolicyRuns {
	var out []report.PolicyRuns
	for _, k := range b.order {
		if k.param != b.order[0].param || k.value != b.order[0].value {
			continue
		}
		pr := report.PolicyRuns{Policy: k.policy, Runs: b.reps[k]}
		for _, s := range b.sums {
			if s.Policy == k.policy && s.Param == k.param && math.Float64bits(s.Value) == k.value {
				pr.Unstable = s.Unstable
			}
		}
		out = append(out, pr)
	}
	return out
}

// firstCloud is the index of the first cloud tier, −1 if none.
func firstCloud(plan *experiment.Plan) int {
	for i, t := range plan.Scenario.Tiers {
		if t.Kind == dispatch.Cloud.String() {
			return i
		}
	}
	return -1
}

func (b *BurstAnalysis) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if b.plan.Scenario.Sweep != nil {
		fmt.Fprintf(tw, "%s\t", b.plan.Scenario.Sweep.Param)
	}
	// The last column marks an unstable row, as run's table does (printTable).
	fmt.Fprintf(tw, "policy\tmean latency (s)\tmean peak (s)\tmean recovery (s)\tnever recovered\tcloud share before\tduring\t  unstable\n")
	for _, k := range b.order {
		var peak, rec, before, during results.MeanAcc
		never := 0
		for _, r := range b.stats {
			if r.Policy != k.policy || float64Bits(r.Value) != k.value {
				continue
			}
			peak.Add(r.Peak)
			before.Add(r.CloudBefore)
			during.Add(r.CloudDuring)
			if math.IsNaN(r.Recovery) {
				never++
			} else {
				rec.Add(r.Recovery)
			}
		}
		lat, unstable := math.NaN(), "" // unterminated, so that a stable row ends without padding
		for _, s := range b.sums {
			if s.Policy == k.policy && math.Float64bits(s.Value) == k.value {
				lat = s.Get(results.ColMeanLatency)
				if s.Unstable {
					unstable = "  yes"
				}
			}
		}
		if b.plan.Scenario.Sweep != nil {
			fmt.Fprintf(tw, "%g\t", math.Float64frombits(k.value))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", k.policy, Num(lat), Num(peak.Mean()), Num(rec.Mean()), never, len(b.bursts), Num(before.Mean()), Num(during.Mean()), unstable)
	}
	_ = tw.Flush()
}

// seriesSidecar keeps series_runs.csv (each run's windows) in step with
// runs.csv.
func seriesSidecar(width float64) *sidecar {
	return &sidecar{
		files: []string{"series_runs.csv"},
		write: func(d *store.Dir, plan *experiment.Plan, outs []experiment.Outcome) error {
			var rows []report.SeriesRow
			for _, out := range outs {
				for _, w := range out.Series {
					rows = append(rows, report.SeriesRow{Key: keyOf(out.Run), Width: width, Window: w})
				}
			}
			return d.WriteFile("series_runs.csv", func(w io.Writer) error { return report.WriteSeries(w, plan.Tiers(), rows, true) })
		},
		load: func(src reader, plan *experiment.Plan) (map[runKey]experiment.Outcome, error) {
			out := map[runKey]experiment.Outcome{}
			var rows []report.SeriesRow
			err := src("series_runs.csv", func(r io.Reader) (err error) {
				rows, err = report.ReadSeriesRuns(r, plan.Tiers())
				return err
			})
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				if math.Abs(r.Width-width) > 1e-9*width {
					return nil, fmt.Errorf("series_runs.csv has windows of %g s, this run asks for %g s", r.Width, width)
				}
				k := runKey{r.Param, float64Bits(r.Value), r.Policy, r.Seed}
				o := out[k]
				o.Series = append(o.Series, r.Window)
				out[k] = o
			}
			return out, nil
		},
	}
}

func float64Bits(x float64) uint64 { return math.Float64bits(x) }
