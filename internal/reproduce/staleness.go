package reproduce

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/analysis"
	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/scenario"
)

// stalenessSpec is the staleness experiment (docs/design.md §4.8): every
// policy against the age of what the dispatchers see, many devices sharing
// the edge and the cloud through a periodic board.
func stalenessSpec() Experiment {
	return Experiment{Spec: runner.Spec{Name: stalenessName, Embedded: stalenessName, FixedSeeds: true,
		Short: "Latency and prediction error of every policy against the observation period",
		Long: `Run every policy, on devices that share the edge and the cloud, with a board
of the tiers' states refreshed every T seconds (the embedded staleness
scenario, or -f FILE; T = 0 is the fresh view): mean and P95 latency and the
estimator policies' MAPE against T, and stale.md: for each T, which estimator
predicts best and which policy routes best, with paired 95% intervals.`,
		Example: "  offload staleness -o results/staleness\n  offload staleness --policy hybrid,queue-only --seeds 3",
		Prepare: func(plan *experiment.Plan, _ runner.Args) error {
			if sw := plan.Scenario.Sweep; sw == nil || !strings.HasPrefix(sw.Param, "observation.") {
				return fmt.Errorf("%s: the scenario must sweep an observation field (e.g. sweep: {param: observation.period, ...})", stalenessName)
			}
			return nil
		},
		Outputs: stalenessOutputs,
		Files:   []string{staleMD},
		Plots:   []string{report.MeanLatencyFigure, report.MeanLatencyStableFigure, report.P95LatencyFigure, mapePlot},
	}}
}

// stalenessName is the staleness experiment's command, embedded scenario
// and folder.
const stalenessName = "staleness"

// The staleness experiment's own files; its latency figures take the
// sweeps' names (report's).
const (
	staleMD  = "stale.md"
	mapePlot = "mape"
)

// stalenessStep is staleness in a reproduction: what claims.md adds beyond
// the paper's claims.
func stalenessStep() step { return step{exp: stalenessSpec(), embedded: stalenessName} }

func stalenessOutputs(r *runner.Result) ([]string, error) {
	dir, plan := r.Opts.Dir, r.Plan
	runs := runner.OutcomeRuns(r.Outcomes)
	sums, err := runner.WriteSummary(r.Dir, plan, r.Opts, runs)
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	drawn, err := stalenessFigures(r, sums)
	if err != nil {
		return nil, err
	}
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv")}
	for _, f := range drawn {
		written = append(written, filepath.Join(dir, f+"."+r.Opts.Format))
	}
	md := staleReport(plan, runs)
	if err := r.Dir.WriteFile(staleMD, func(w io.Writer) error { _, err := io.WriteString(w, md); return err }); err != nil {
		return nil, err
	}
	analysis.PrintTable(r.Opts.Out, plan, sums)
	return append(written, filepath.Join(dir, staleMD)), nil
}

// stalenessFigures draws mean and P95 latency and the estimator policies'
// MAPE against the swept observation field, and returns the figures drawn
// (a figure without data is left out).
func stalenessFigures(r *runner.Result, sums []results.Summary) ([]string, error) {
	plan, format := r.Plan, r.Opts.Format
	param := plan.Scenario.Sweep.Param
	var stable, predicting []results.Summary
	for _, s := range sums {
		if !s.Unstable && !report.AtCriticalLoad(s) { // as the sweeps' *_stable figures
			stable = append(stable, s)
		}
	}
	for _, s := range sums {
		if !math.IsNaN(s.Get(results.ColMAPE)) {
			predicting = append(predicting, s)
		}
	}
	var drawn []string
	for _, p := range []struct {
		file, metric, title, ylabel string
		sums                        []results.Summary
	}{
		{report.MeanLatencyFigure, results.ColMeanLatency, "Mean latency", "mean latency (s)", sums},
		{report.MeanLatencyStableFigure, results.ColMeanLatency, "Mean latency", "mean latency (s)", stable},
		{report.P95LatencyFigure, results.ColP95Latency, "P95 latency", "P95 latency (s)", stable},
		{mapePlot, results.ColMAPE, "Prediction error of the estimator policies", "MAPE (%)", predicting},
	} {
		o := chart.FigureOptions{Title: p.title + " vs " + report.ParamName(param), XLabel: report.ParamLabel(param), YLabel: p.ylabel,
			LogX: true, LogY: report.SuggestLogY(p.sums, p.metric), FitY: p.file == report.MeanLatencyStableFigure}
		if p.file == report.MeanLatencyStableFigure {
			// As the sweeps' *_stable figures: the points near a tier's
			// capacity and far above the rest are drawn at the top.
			o.Title += ", stable points only"
			_, rest := report.SetApart(p.sums, p.metric)
			o.SetApart, o.LogY = true, report.SuggestLogY(rest, p.metric)
		}
		err := report.PlotMetricWith(r.Dir, p.file, format, p.sums, analysis.Legend(plan), p.metric, o)
		if err == nil {
			drawn = append(drawn, p.file)
		} else if !errors.Is(err, chart.ErrNoData) {
			return nil, err
		}
	}
	return drawn, nil
}

// staleReport is the section "Where the hybrid earns its keep": for each
// swept value, which estimator policy predicts best (lowest MAPE) and which
// policy routes best (lowest mean latency; the clairvoyant oracle apart),
// each against the runner-up with the paired 95% interval of the
// difference, and hybrid against model-only and queue-only; under the
// table, sentences read from the same numbers.
func staleReport(plan *experiment.Plan, runs []results.Run) string {
	var b strings.Builder
	sc := plan.Scenario
	param := sc.Sweep.Param
	_, unit := scenario.ParamLabel(param)
	fmt.Fprintf(&b, "## Where the hybrid earns its keep\n\n%d devices, %s observation, %s swept; %d replicates per cell. Differences are paired per replicate (common random numbers); ± is the 95%% t-interval.\n\n",
		sc.DeviceCount(), observationName(plan), param, sc.Seeds)
	var predictors, routers []string
	for _, e := range plan.Policies {
		if policies.HasEstimator(e.Name) {
			predictors = append(predictors, e.Label)
		}
		if e.Name != policies.NameOracle {
			routers = append(routers, e.Label)
		}
	}
	unstable := map[string]bool{}
	for _, s := range results.Summarize(runs) {
		unstable[fmt.Sprint(s.Value, "|", s.Policy)] = s.Unstable
	}
	var rows []staleRow
	for _, cell := range plan.Cells {
		cr := cellRuns{value: cell.Value, seeds: sc.Seeds, unstable: unstable, by: map[string][]results.Run{}}
		for _, r := range runs {
			if r.Param == cell.Param && sameValue(r.Value, cell.Value) {
				cr.by[r.Policy] = append(cr.by[r.Policy], r)
			}
		}
		rows = append(rows, cr.row(predictors, routers))
	}
	tHead := "T"
	if unit != "" {
		tHead += " (" + unit + ")"
	}
	writeStaleTable(&b, rows, tHead)
	writeStaleReading(&b, rows, tHead)
	return b.String()
}

// staleRow is one swept value of the staleness report.
type staleRow struct {
	v                float64
	p1, p2, r1, r2   string
	pred, route      claims.Cell
	vsQueue, vsModel claims.Cell
}

// cellRuns are one cell's runs by policy label.
type cellRuns struct {
	value    float64
	seeds    int
	unstable map[string]bool // by "value|policy"
	by       map[string][]results.Run
}

// row is the cell's row: the best predictor and router, each against the
// runner-up, and hybrid against its ablations.
func (c cellRuns) row(predictors, routers []string) staleRow {
	r := staleRow{v: c.value}
	r.p1, r.p2 = c.best(predictors, results.ColMAPE)
	r.r1, r.r2 = c.best(routers, results.ColMeanLatency)
	r.pred, r.route = c.pair(r.p1, r.p2, results.ColMAPE), c.pair(r.r1, r.r2, results.ColMeanLatency)
	r.vsQueue = c.pair(policies.NameHybrid, policies.NameQueueOnly, results.ColMeanLatency)
	r.vsModel = c.pair(policies.NameHybrid, policies.NameModelOnly, results.ColMeanLatency)
	return r
}

// col is a label's column of values by replicate (NaN where missing).
func (c cellRuns) col(label, name string) []float64 {
	out := results.NaNs(c.seeds)
	for _, r := range c.by[label] {
		if r.Seed < len(out) {
			out[r.Seed] = r.Get(name)
		}
	}
	return out
}

// best are the labels of the lowest and second-lowest mean of a column.
func (c cellRuns) best(labels []string, name string) (first, second string) {
	type lm struct {
		label string
		mean  float64
	}
	var ls []lm
	for _, l := range labels {
		if m, _, n := results.MeanCI95(c.col(l, name)); n > 0 {
			ls = append(ls, lm{l, m})
		}
	}
	slices.SortStableFunc(ls, func(a, b lm) int { return cmpFloat(a.mean, b.mean) })
	if len(ls) > 0 {
		first = ls[0].label
	}
	if len(ls) > 1 {
		second = ls[1].label
	}
	return first, second
}

// pair is the paired difference a − b of a column, its unstable sides
// noted.
func (c cellRuns) pair(a, b, name string) claims.Cell {
	label := "T = " + strconv.FormatFloat(c.value, 'g', -1, 64)
	if a == "" || b == "" {
		return claims.Cell{Label: label, A: math.NaN(), B: math.NaN(), Diff: math.NaN(), CI95: math.NaN()}
	}
	cell := claims.Lower(label, c.col(a, name), c.col(b, name))
	var notes []string
	for _, p := range []string{a, b} {
		if c.unstable[fmt.Sprint(c.value, "|", p)] {
			notes = append(notes, p+" unstable")
		}
	}
	cell.Note = strings.Join(notes, ", ")
	return cell
}

// writeStaleTable writes the report's table, one unit per column, as
// claims.md writes its tables.
func writeStaleTable(b *strings.Builder, rows []staleRow, tHead string) {
	pick := func(f func(staleRow) claims.Cell, base string) claims.Unit {
		var xs []float64
		for _, r := range rows {
			xs = append(xs, f(r).Diff)
		}
		return claims.PickUnit(base, xs...)
	}
	uRoute := pick(func(r staleRow) claims.Cell { return r.route }, "s")
	uQueue := pick(func(r staleRow) claims.Cell { return r.vsQueue }, "s")
	uModel := pick(func(r staleRow) claims.Cell { return r.vsModel }, "s")
	fmt.Fprintf(b, "| %s | best predictor | runner-up | MAPE difference (percentage points) | best router | runner-up | mean latency difference (%s) | hybrid − queue-only (%s) | hybrid − model-only (%s) |\n",
		tHead, uRoute.Name, uQueue.Name, uModel.Name)
	b.WriteString("| ---: | --- | --- | ---: | --- | --- | ---: | ---: | ---: |\n")
	diff := func(c claims.Cell, u claims.Unit) string {
		if c.N < 2 {
			return "—"
		}
		d, h := claims.MeanDiff(c.Diff*u.Factor, c.CI95*u.Factor)
		return d + " ± " + h
	}
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", strconv.FormatFloat(r.v, 'g', -1, 64),
			orDash(r.p1), orDash(r.p2), diff(r.pred, claims.Unit{Name: "%", Factor: 1}),
			orDash(r.r1), orDash(r.r2), diff(r.route, uRoute), diff(r.vsQueue, uQueue), diff(r.vsModel, uModel))
	}
}

// writeStaleReading writes the reading under the table: who is best where,
// then hybrid against its ablations.
func writeStaleReading(b *strings.Builder, rows []staleRow, tHead string) {
	winners := func(f func(staleRow) string) string {
		var order []string
		at := map[string][]string{}
		for _, r := range rows {
			w := f(r)
			if w == "" {
				continue
			}
			if _, ok := at[w]; !ok {
				order = append(order, w)
			}
			at[w] = append(at[w], strconv.FormatFloat(r.v, 'g', -1, 64))
		}
		var parts []string
		for _, w := range order {
			parts = append(parts, w+" at "+joinWords(at[w]))
		}
		return strings.Join(parts, "; ")
	}
	fmt.Fprintf(b, "\nLowest MAPE, by %s: %s. Lowest mean latency (oracle apart): %s.",
		tHead, winners(func(r staleRow) string { return r.p1 }), winners(func(r staleRow) string { return r.r1 }))
	for _, other := range []struct {
		name string
		f    func(staleRow) claims.Cell
	}{{policies.NameQueueOnly, func(r staleRow) claims.Cell { return r.vsQueue }}, {policies.NameModelOnly, func(r staleRow) claims.Cell { return r.vsModel }}} {
		cmp := claims.Comparison{Title: "hybrid − " + other.name, A: policies.NameHybrid, B: other.name, Unit: "s"}
		for _, r := range rows {
			if c := other.f(r); c.N >= 2 {
				cmp.Cells = append(cmp.Cells, c)
			}
		}
		if s := claims.Reading(cmp); s != "" {
			b.WriteString(" In mean latency, " + s)
		}
	}
	b.WriteString("\n")
}

// joinWords lists values as a sentence does: "a", "a and b", "a, b and c".
func joinWords(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

func observationName(plan *experiment.Plan) string {
	if o := plan.Scenario.Observation; o != nil {
		return o.Model
	}
	return "fresh"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func sameValue(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
