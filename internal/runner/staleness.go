package runner

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/report"
	"github.com/offload-sim/offload/internal/results"
)

// StalenessSpec is the staleness experiment (docs/design.md §4.8): every
// policy against the age of what the dispatchers see, many devices sharing
// the edge and the cloud through a periodic board.
func StalenessSpec() Spec {
	return Spec{Name: "staleness", Embedded: "staleness",
		Short: "Latency and prediction error of every policy against the observation period",
		Long: `Run every policy, on devices that share the edge and the cloud, with a board
of the tiers' states refreshed every T seconds (the embedded staleness
scenario, or -f FILE; T = 0 is the fresh view): mean and P95 latency and the
estimator policies' MAPE against T, and stale.md: for each T, which estimator
predicts best and which policy routes best, with paired 95% intervals.`,
		Prepare: func(plan *experiment.Plan, _ Args) error {
			if sw := plan.Scenario.Sweep; sw == nil || !strings.HasPrefix(sw.Param, "observation.") {
				return fmt.Errorf("staleness: the scenario must sweep an observation field (e.g. sweep: {param: observation.period, ...})")
			}
			return nil
		},
		outputs: stalenessOutputs,
	}
}

func stalenessOutputs(r *Result) ([]string, error) {
	dir, plan, format := r.Opts.Dir, r.Plan, r.Opts.Format
	runs := outcomeRuns(r.Outcomes)
	sums, err := writeSummary(r.Dir, plan.Columns(), runs)
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	param := plan.Scenario.Sweep.Param
	xlabel := report.ParamLabel(param)
	written := []string{fmtPath(dir, "runs.csv"), fmtPath(dir, "summary.csv")}
	var stable []results.Summary
	for _, s := range sums {
		if !s.Unstable && !report.AtCriticalLoad(s) { // as the sweeps' *_stable figures
			stable = append(stable, s)
		}
	}
	var predicting []results.Summary
	for _, s := range sums {
		if !math.IsNaN(s.Get(results.ColMAPE)) {
			predicting = append(predicting, s)
		}
	}
	for _, p := range []struct {
		file, metric, title, ylabel string
		sums                        []results.Summary
	}{
		{"mean_latency", results.ColMeanLatency, "Mean latency", "mean latency (s)", sums},
		{"mean_latency_stable", results.ColMeanLatency, "Mean latency", "mean latency (s)", stable},
		{"p95_latency", results.ColP95Latency, "P95 latency", "P95 latency (s)", stable},
		{"mape", results.ColMAPE, "Prediction error of the estimator policies", "MAPE (%)", predicting},
	} {
		title := p.title + " vs " + report.ParamName(param)
		o := report.FigureOptions{Title: title, XLabel: xlabel, YLabel: p.ylabel,
			LogX: true, LogY: report.SuggestLogY(p.sums, p.metric), FitY: p.file == "mean_latency_stable"}
		if p.file == "mean_latency_stable" {
			// As the sweeps' *_stable figures: the points near a tier's
			// capacity and far above the rest are drawn at the top.
			o.Title += ", stable points only"
			_, rest := report.SetApart(p.sums, p.metric)
			o.SetApart, o.LogY = true, report.SuggestLogY(rest, p.metric)
		}
		err := report.PlotMetricWith(r.Dir, p.file, format, p.sums, legendOf(plan), p.metric, o)
		if err == nil {
			written = append(written, fmtPath(dir, p.file+"."+format))
		} else if !errors.Is(err, report.ErrNoData) {
			return nil, err
		}
	}
	md := StaleReport(plan, runs)
	if err := r.Dir.WriteFile("stale.md", func(w io.Writer) error { _, err := io.WriteString(w, md); return err }); err != nil {
		return nil, err
	}
	printTable(r.Opts.Out, plan, sums)
	return append(written, fmtPath(dir, "stale.md")), nil
}

// StaleReport is the section "Where the hybrid earns its keep": for each
// swept value, which estimator policy predicts best (lowest MAPE) and which
// policy routes best (lowest mean latency; the clairvoyant oracle apart),
// each against the runner-up with the paired 95% interval of the
// difference, and hybrid against model-only and queue-only.
func StaleReport(plan *experiment.Plan, runs []results.Run) string {
	var b strings.Builder
	sc := plan.Scenario
	fmt.Fprintf(&b, "## Where the hybrid earns its keep\n\n%d devices, %s observation, %s swept; %d replicates per cell. Differences are paired per replicate (common random numbers); ± is the 95%% t-interval.\n\n",
		sc.DeviceCount(), observationName(plan), sc.Sweep.Param, sc.Seeds)
	b.WriteString("| T | best predictor (MAPE %) | runner-up | difference | best router (mean latency s) | runner-up | difference | hybrid − queue-only (s) | hybrid − model-only (s) |\n")
	b.WriteString("| ---: | --- | --- | ---: | --- | --- | ---: | ---: | ---: |\n")
	for ci, cell := range plan.Cells {
		by := map[string][]results.Run{}
		for _, r := range runs {
			if r.Param == cell.Param && sameValue(r.Value, cell.Value) {
				by[r.Policy] = append(by[r.Policy], r)
			}
		}
		col := func(label, name string) []float64 {
			rs := by[label]
			out := results.NaNs(sc.Seeds)
			for _, r := range rs {
				if r.Seed < len(out) {
					out[r.Seed] = r.Get(name)
				}
			}
			return out
		}
		best := func(labels []string, name string) (first, second string) {
			type lm struct {
				label string
				mean  float64
			}
			var ls []lm
			for _, l := range labels {
				if m, _, n := results.MeanCI95(col(l, name)); n > 0 {
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
		var predictors, routers []string
		for _, e := range plan.Policies {
			if policies.HasEstimator(e.Name) {
				predictors = append(predictors, e.Label)
			}
			if e.Name != policies.NameOracle {
				routers = append(routers, e.Label)
			}
		}
		diff := func(a, b, name string) string {
			if a == "" || b == "" {
				return "—"
			}
			d, h, n := results.PairedDiff(col(a, name), col(b, name))
			if n < 2 {
				return "—"
			}
			return fmt.Sprintf("%.4g ± %.2g", d, h)
		}
		p1, p2 := best(predictors, results.ColMAPE)
		r1, r2 := best(routers, results.ColMeanLatency)
		fmt.Fprintf(&b, "| %g | %s | %s | %s | %s | %s | %s | %s | %s |\n", plan.Cells[ci].Value, orDash(p1), orDash(p2), diff(p1, p2, results.ColMAPE),
			orDash(r1), orDash(r2), diff(r1, r2, results.ColMeanLatency),
			diff(policies.NameHybrid, policies.NameQueueOnly, results.ColMeanLatency), diff(policies.NameHybrid, policies.NameModelOnly, results.ColMeanLatency))
	}
	return b.String()
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
