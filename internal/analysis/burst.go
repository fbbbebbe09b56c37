package analysis

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/htmlreport"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// The burst experiment's own files: series_runs.csv is its sidecar.
const (
	seriesCSV     = "timeseries.csv"
	seriesRunsCSV = "series_runs.csv"
	burstsCSV     = "bursts.csv"
)

// BurstFiles and BurstPlots are the names BurstOutputs writes (runner.Spec's
// Files and Plots).
func BurstFiles() []string { return []string{seriesCSV, burstsCSV} }

// BurstPlots: see BurstFiles.
func BurstPlots() []string { return []string{"burst_latency", "burst_p95", "burst_cloud_share"} }

// BurstOutputs writes the burst experiment's files (summary.csv, the
// averaged series, every burst's statistics, the figures) and prints its
// table.
func BurstOutputs(r *runner.Result) ([]string, error) {
	b := analyseBursts(r.Plan, r.Outcomes, r.Args.Window)
	r.Sums = b.sums
	dir, format := r.Opts.Dir, r.Opts.Format
	drawn, err := b.write(r.Dir, format)
	if err != nil {
		return nil, err
	}
	b.print(r.Opts.Out)
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv"), filepath.Join(dir, seriesCSV),
		filepath.Join(dir, seriesRunsCSV), filepath.Join(dir, burstsCSV)}
	for _, f := range drawn {
		written = append(written, filepath.Join(dir, f+"."+format))
	}
	return written, nil
}

// burstAnalysis is the burst experiment's aggregate view of its runs.
type burstAnalysis struct {
	plan   *experiment.Plan
	width  float64
	tiers  []string
	cloud  int // index of the first cloud tier, −1 if none
	bursts []results.Interval
	sums   []results.Summary
	mean   []results.SeriesRow // timeseries.csv
	stats  []results.BurstRow  // bursts.csv, on the averaged series
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

// analyseBursts averages the replicates' series and measures every burst.
func analyseBursts(plan *experiment.Plan, outs []experiment.Outcome, width float64) *burstAnalysis {
	horizon := experiment.Horizon(plan.Scenario)
	b := &burstAnalysis{plan: plan, width: width, tiers: plan.Tiers(),
		bursts: experiment.BurstIntervals(plan.Scenario, horizon),
		sums:   results.Summarize(runner.OutcomeRuns(outs))}
	b.cloud = FirstCloud(plan)
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
		avg := meanSeries(groups[k])
		for _, w := range avg {
			b.mean = append(b.mean, results.SeriesRow{Key: key, Runs: len(groups[k]), Width: width, Window: w})
		}
		for _, st := range BurstStats(avg, width, b.bursts, horizon, b.cloud) {
			b.stats = append(b.stats, results.BurstRow{Key: key, BurstStat: st})
		}
	}
	return b
}

// write writes the burst experiment's files and returns the names of the
// figures it drew: a figure with nothing to show (no burst in the run) is
// left out, not drawn empty.
func (b *burstAnalysis) write(dir *runner.Folder, format string) (drawn []string, err error) {
	if err := dir.WriteFile("summary.csv", func(w io.Writer) error { return results.WriteSummary(w, b.plan.Columns(), b.sums) }); err != nil {
		return nil, err
	}
	if err := dir.WriteFile(seriesCSV, func(w io.Writer) error { return results.WriteSeries(w, b.tiers, b.mean, false) }); err != nil {
		return nil, err
	}
	if err := dir.WriteFile(burstsCSV, func(w io.Writer) error { return results.WriteBursts(w, b.stats) }); err != nil {
		return nil, err
	}
	for _, f := range burstFigures(b.policyRuns(), Legend(b.plan), b.bursts, b.end, b.width, b.cloud) {
		err := f.Draw(dir, f.File, format, true, false)
		if errors.Is(err, chart.ErrNoData) {
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
func (b *burstAnalysis) policyRuns() []policyRuns {
	var out []policyRuns
	for _, k := range b.order {
		if k.param != b.order[0].param || k.value != b.order[0].value {
			continue
		}
		pr := policyRuns{Policy: k.policy, Runs: b.reps[k]}
		for _, s := range b.sums {
			if s.Policy == k.policy && s.Param == k.param && math.Float64bits(s.Value) == k.value {
				pr.Unstable = s.Unstable
			}
		}
		out = append(out, pr)
	}
	return out
}

// FirstCloud is the index of the first cloud tier, −1 if none.
func FirstCloud(plan *experiment.Plan) int {
	for i, t := range plan.Scenario.Tiers {
		if t.Kind == dispatch.Cloud.String() {
			return i
		}
	}
	return -1
}

func (b *burstAnalysis) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if b.plan.Scenario.Sweep != nil {
		fmt.Fprintf(tw, "%s\t", b.plan.Scenario.Sweep.Param)
	}
	// The last column marks an unstable row, as run's table does (printTable).
	fmt.Fprintf(tw, "policy\tmean latency (s)\tmean peak (s)\tmean recovery (s)\tnever recovered\tcloud share before\tduring\t  unstable\n")
	for _, k := range b.order {
		var peak, rec, before, during MeanAcc
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", k.policy, runner.Num(lat), runner.Num(peak.Mean()), runner.Num(rec.Mean()), never, len(b.bursts), runner.Num(before.Mean()), runner.Num(during.Mean()), unstable)
	}
	_ = tw.Flush()
}

// SeriesSidecar keeps series_runs.csv (each run's windows of a.Window s)
// in step with runs.csv.
func SeriesSidecar(a runner.Args) *runner.Sidecar {
	width := a.Window
	return &runner.Sidecar{
		Files: []string{seriesRunsCSV},
		Write: func(d *runner.Folder, plan *experiment.Plan, outs []experiment.Outcome) error {
			var rows []results.SeriesRow
			for _, out := range outs {
				for _, w := range out.Series {
					rows = append(rows, results.SeriesRow{Key: keyOf(out.Run), Width: width, Window: w})
				}
			}
			return d.WriteFile(seriesRunsCSV, func(w io.Writer) error { return results.WriteSeries(w, plan.Tiers(), rows, true) })
		},
		Load: func(src runner.Reader, plan *experiment.Plan) (map[runner.RunKey]experiment.Outcome, error) {
			out := map[runner.RunKey]experiment.Outcome{}
			var rows []results.SeriesRow
			err := src(seriesRunsCSV, func(r io.Reader) (err error) {
				rows, err = results.ReadSeriesRuns(r, plan.Tiers())
				return err
			})
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				if math.Abs(r.Width-width) > 1e-9*width {
					return nil, fmt.Errorf("series_runs.csv has windows of %g s, this run asks for %g s", r.Width, width)
				}
				k := runner.NewRunKey(r.Param, r.Value, r.Policy, r.Seed)
				o := out[k]
				o.Series = append(o.Series, r.Window)
				out[k] = o
			}
			return out, nil
		},
	}
}

func float64Bits(x float64) uint64 { return math.Float64bits(x) }

// recoveryBand: a burst is recovered from once the windowed mean latency is
// back within 20% of the level just before the burst.
const recoveryBand = 0.2

// BurstStats measures every burst of a series with windows of width w. Each
// burst is followed until the next one starts (or until horizon). cloud is
// the index of the tier whose share is tracked (−1: none).
func BurstStats(ws []results.Window, w float64, bursts []results.Interval, horizon float64, cloud int) []results.BurstStat {
	out := make([]results.BurstStat, 0, len(bursts))
	for k, b := range bursts {
		limit := horizon
		if k+1 < len(bursts) {
			limit = bursts[k+1].Start
		}
		st := results.BurstStat{Index: k, Start: b.Start, End: b.End, Recovery: math.NaN(), Peak: math.NaN(), PeakAt: math.NaN()}
		var base, cloudBase, cloudIn MeanAcc
		for _, x := range ws {
			end := x.Start + w
			switch {
			case x.Start >= b.Start-results.BaselineSpan && end <= b.Start:
				base.Add(x.MeanLatency)
				cloudBase.Add(shareOf(x, cloud))
			case x.Start >= b.Start && end <= b.End:
				cloudIn.Add(shareOf(x, cloud))
			}
			if x.Start >= b.Start && end <= limit && !(x.MeanLatency <= st.Peak) && !math.IsNaN(x.MeanLatency) {
				st.Peak, st.PeakAt = x.MeanLatency, x.Start
			}
		}
		st.Baseline, st.CloudBefore, st.CloudDuring = base.Mean(), cloudBase.Mean(), cloudIn.Mean()
		for _, x := range ws {
			end := x.Start + w
			if x.Start >= b.End && end <= limit && x.MeanLatency <= (1+recoveryBand)*st.Baseline {
				st.Recovery = end - b.End
				break
			}
		}
		out = append(out, st)
	}
	return out
}

func shareOf(x results.Window, tier int) float64 {
	if tier < 0 || tier >= len(x.Share) || x.Tasks == 0 {
		return math.NaN()
	}
	return x.Share[tier]
}

// MeanAcc averages the finite values it is given; its zero value is empty.
type MeanAcc struct {
	sum float64
	n   int
}

// Add counts x if it is finite.
func (m *MeanAcc) Add(x float64) {
	if isFinite(x) {
		m.sum += x
		m.n++
	}
}

// Mean is the average so far, NaN if nothing was counted.
func (m *MeanAcc) Mean() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.sum / float64(m.n)
}

// meanSeries averages replicate series window by window (each field over
// the replicates where it is defined). The series must share their windows.
func meanSeries(reps [][]results.Window) []results.Window {
	if len(reps) == 0 {
		return nil
	}
	n := len(reps[0])
	for _, r := range reps {
		n = min(n, len(r))
	}
	out := make([]results.Window, n)
	for i := range out {
		x := reps[0][i]
		w := results.Window{Start: x.Start}
		w.Share, w.Lambda, w.Beta, w.Rho = avgAt(reps, i, func(w results.Window) []float64 { return w.Share }),
			avgAt(reps, i, func(w results.Window) []float64 { return w.Lambda }),
			avgAt(reps, i, func(w results.Window) []float64 { return w.Beta }),
			avgAt(reps, i, func(w results.Window) []float64 { return w.Rho })
		var mean, p95 MeanAcc
		for _, r := range reps {
			w.Tasks += r[i].Tasks
			mean.Add(r[i].MeanLatency)
			p95.Add(r[i].P95Latency)
		}
		w.MeanLatency, w.P95Latency = mean.Mean(), p95.Mean()
		out[i] = w
	}
	return out
}

// avgAt averages a per-tier field of window i across replicates.
func avgAt(reps [][]results.Window, i int, field func(results.Window) []float64) []float64 {
	k := len(field(reps[0][i]))
	out := make([]float64, k)
	for t := range k {
		var m MeanAcc
		for _, r := range reps {
			if f := field(r[i]); t < len(f) {
				m.Add(f[t])
			}
		}
		out[t] = m.Mean()
	}
	return out
}

// policyRuns is one policy's time series in each replicate of one cell
// (series_runs.csv). Unstable says the policy is unstable at the base load
// (summary.csv's unstable): its latency has no level to come back to, so
// the figures draw it in a panel of its own rather than let it stretch the
// axis of the others.
type policyRuns struct {
	Policy   string
	Unstable bool
	Runs     [][]results.Window // per replicate, windows in time order
}

// burstFigures lists the burst experiment's figures: windowed mean and
// P95 latency and the share of tasks sent to the cloud (tier index cloud,
// −1: none), each zoomed on one burst period — from BaselineSpan before
// the middle burst (the level it is measured against) to the next burst's
// start (or end, the end of arrivals) — with the mean over replicates and
// its 95% interval as a band, and the policies unstable at the base load
// in a separate panel. width is the windows' width, s.
func burstFigures(runs []policyRuns, legend chart.Legend, bursts []results.Interval, end, width float64, cloud int) []chart.Figure {
	if len(bursts) == 0 || len(runs) == 0 {
		return nil
	}
	k := len(bursts) / 2
	b := bursts[k]
	to := end
	if k+1 < len(bursts) {
		to = bursts[k+1].Start
	}
	from := math.Max(b.Start-results.BaselineSpan, 0)
	which := fmt.Sprintf("burst %d of %d", k+1, len(bursts))
	caption := fmt.Sprintf("Zoomed on %s: from %g s before it (the baseline of bursts.csv) to the next burst's start, time counted from the burst's start (shaded: the burst). "+
		"Lines: mean over replicates of each %g s window; band: its 95%% Student-t interval. ", which, b.Start-from, width)
	if slices.ContainsFunc(runs, func(r policyRuns) bool { return r.Unstable }) {
		caption += "Right: the policies unstable at the base load (a tier's offered load shown above 1), on an axis of their own: their latency grows through the run."
	}
	z := zoom{runs: runs, legend: legend, span: b, from: from, to: to, width: width, which: which, caption: caption, xlabel: "time since the burst began (s)"}
	figs := []chart.Figure{
		z.fig("burst_latency", "Windowed mean latency", "mean latency (s)", func(w results.Window) float64 { return w.MeanLatency }, true, false),
		z.fig("burst_p95", "Windowed P95 latency", "P95 latency (s)", func(w results.Window) float64 { return w.P95Latency }, true, false),
	}
	if cloud >= 0 {
		figs = append(figs, z.fig("burst_cloud_share", "Share of tasks sent to the cloud", "cloud share",
			func(w results.Window) float64 { return shareAt(w.Share, cloud) }, false, true))
	}
	return figs
}

// zoom is a time-series figure's window on one shaded span.
type zoom struct {
	runs                   []policyRuns
	legend                 chart.Legend
	span                   results.Interval
	from, to, width        float64
	which, caption, xlabel string
	shade                  string // the shade's legend entry; "" is "burst"
}

// fig is one figure of the zoom: y of every window, the stable policies'
// panel and, when some are unstable, theirs beside it a third as wide.
func (z zoom) fig(file, title, ylabel string, y func(results.Window) float64, logY, frac bool) chart.Figure {
	stable, unstable := burstLines(z.runs, z.span.Start, z.from, z.to, z.width, y)
	panel := func(ss []chart.Series, title string) chart.Chart {
		return chart.Chart{FigureOptions: chart.FigureOptions{Title: title, XLabel: z.xlabel, YLabel: ylabel, LogY: logY}, Legend: z.legend, Series: ss,
			Fraction: frac, MarkEvery: 3, Band: true, Shade: []results.Interval{{Start: 0, End: z.span.End - z.span.Start}}, ShadeName: z.shade}
	}
	return chart.NewFigure(file, title+" through "+z.which, strings.TrimSpace(z.caption), chart.FigureOptions{XLabel: z.xlabel, YLabel: ylabel, LogY: logY},
		func(dir chart.Folder, file, format string, o chart.FigureOptions) error {
			ps := chart.Panels{Title: o.Title, Width: o.Width, Height: o.Height, Widths: []float64{2, 1},
				Charts: []chart.Chart{panel(stable, ""), panel(unstable, "unstable at the base load")},
				Extra:  []chart.LegendItem{{Text: "band: 95% interval", Fill: color.Gray{Y: 200}}}}
			return ps.Save(dir, file, format)
		})
}

// burstLines averages each policy's replicates window by window over the
// windows lying wholly in [from, to), x measured from start: the stable
// policies' series, then the unstable ones'.
func burstLines(runs []policyRuns, start, from, to, width float64, y func(results.Window) float64) (stable, unstable []chart.Series) {
	for _, pr := range runs {
		if len(pr.Runs) == 0 {
			continue
		}
		l := chart.Series{Label: pr.Policy}
		n := len(pr.Runs[0])
		for _, r := range pr.Runs {
			n = min(n, len(r))
		}
		vals := make([]float64, len(pr.Runs))
		for i := range n {
			w0 := pr.Runs[0][i].Start
			if w0 < from-1e-9*width || w0+width > to+1e-9*width {
				continue
			}
			for r, run := range pr.Runs {
				vals[r] = y(run[i])
			}
			m, ci, k := results.MeanCI95(vals)
			if k == 0 {
				continue
			}
			if !isFinite(ci) {
				ci = 0
			}
			l.Points = append(l.Points, chart.Point{X: w0 + width/2 - start, Y: m, Low: ci, High: ci})
		}
		switch {
		case len(l.Points) == 0:
		case pr.Unstable:
			unstable = append(unstable, l)
		default:
			stable = append(stable, l)
		}
	}
	return stable, unstable
}

// shareAt is xs[i], or NaN past its end (a window without that tier).
func shareAt(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}

// BurstReportFigures re-draw the burst experiment's figures for the HTML
// report from series_runs.csv, each replicate's windows, with the bursts
// from bursts.csv. A folder with only timeseries.csv (the replicates'
// average) draws its lines without an interval band; one with neither
// has none.
func BurstReportFigures(c htmlreport.Contents) ([]chart.Figure, error) {
	names := make([]string, len(c.Tiers))
	cloud := -1
	for i, t := range c.Tiers {
		names[i] = t.Name
		if t.Kind == dispatch.Cloud.String() && cloud < 0 {
			cloud = i
		}
	}
	rows, err := readSeriesRows(c.FS, names)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var runs []policyRuns
	seeds := map[string]map[int]int{} // policy → replicate → index in its Runs
	end, width := 0.0, rows[0].Width
	for _, r := range rows {
		if r.Param != rows[0].Param || r.Value != rows[0].Value && !(math.IsNaN(r.Value) && math.IsNaN(rows[0].Value)) {
			continue // the first cell only, as the experiment draws it
		}
		i := slices.IndexFunc(runs, func(p policyRuns) bool { return p.Policy == r.Policy })
		if i < 0 {
			i = len(runs)
			runs = append(runs, policyRuns{Policy: r.Policy, Unstable: unstableIn(c.Sums, r.Policy, r.Value)})
			seeds[r.Policy] = map[int]int{}
		}
		j, ok := seeds[r.Policy][r.Seed]
		if !ok {
			j = len(runs[i].Runs)
			seeds[r.Policy][r.Seed] = j
			runs[i].Runs = append(runs[i].Runs, nil)
		}
		runs[i].Runs[j] = append(runs[i].Runs[j], r.Window)
		end = math.Max(end, r.Start+r.Width)
	}
	bursts, err := readBurstIntervals(c.FS)
	if err != nil {
		return nil, err
	}
	return burstFigures(runs, c.Legend, bursts, end, width, cloud), nil
}

// readSeriesRows reads series_runs.csv, or else timeseries.csv as one
// replicate per policy; neither: no rows.
func readSeriesRows(fsys fs.FS, tiers []string) ([]results.SeriesRow, error) {
	name := seriesRunsCSV
	b, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		name = seriesCSV
		b, err = fs.ReadFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		// The averaged series reads as one replicate per policy: its runs
		// column stands where series_runs.csv has the replicate.
		if i := bytes.IndexByte(b, '\n'); err == nil && i > 0 {
			b = append([]byte(strings.Replace(string(b[:i]), ",runs,", ",seed,", 1)), b[i:]...)
		}
	}
	if err != nil {
		return nil, err
	}
	rows, err := results.ReadSeriesRuns(bytes.NewReader(b), tiers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rows, nil
}

// readBurstIntervals reads the distinct bursts of bursts.csv (none
// without the file).
func readBurstIntervals(fsys fs.FS) ([]results.Interval, error) {
	b, err := fs.ReadFile(fsys, burstsCSV)
	if err != nil {
		return nil, nil
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err == nil && len(recs) == 0 {
		err = errors.New("empty file")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", burstsCSV, err)
	}
	for _, n := range results.BurstsHeader {
		if !slices.Contains(recs[0], n) {
			return nil, fmt.Errorf("%s: no %s column", burstsCSV, n)
		}
	}
	start, end := slices.Index(recs[0], "start_s"), slices.Index(recs[0], "end_s")
	var bursts []results.Interval
	for _, r := range recs[1:] {
		iv := results.Interval{Start: parseCell(r, start), End: parseCell(r, end)}
		if !slices.Contains(bursts, iv) {
			bursts = append(bursts, iv)
		}
	}
	return bursts, nil
}

// parseCell is record r's number at column j; an empty, bad or missing
// cell is NaN.
func parseCell(r []string, j int) float64 {
	if j >= len(r) {
		return math.NaN()
	}
	x, err := strconv.ParseFloat(r[j], 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// unstableIn reports whether summary.csv marks the policy unstable at the
// swept value v.
func unstableIn(sums []results.Summary, policy string, v float64) bool {
	for _, s := range sums {
		if s.Policy == policy && (s.Value == v || math.IsNaN(s.Value) && math.IsNaN(v)) {
			return s.Unstable
		}
	}
	return false
}
