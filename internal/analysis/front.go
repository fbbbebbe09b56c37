package analysis

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
)

// The energy experiment's own files.
const (
	frontPlot = "energy_front"
	frontCSV  = "front.csv"
)

// FrontFiles and FrontPlots are the names FrontOutputs writes (runner.Spec's
// Files and Plots).
func FrontFiles() []string { return []string{frontCSV} }

// FrontPlots: see FrontFiles.
func FrontPlots() []string { return []string{frontPlot} }

// SweptEnergyLabel checks that the scenario models energy and sweeps the
// weight of a hybrid-energy entry, and returns that entry's label; an error
// begins with name, the experiment's.
func SweptEnergyLabel(name string, plan *experiment.Plan) (string, error) {
	sc := plan.Scenario
	if !sc.HasEnergy() {
		return "", fmt.Errorf("%s: the scenario has no energy model (give a tier power: {idle, max} W, or tx_energy/rx_energy J/bit)", name)
	}
	want := "policies.<label>.energy_weight of a hybrid-energy entry"
	if sc.Sweep == nil {
		return "", fmt.Errorf("%s: the scenario must sweep %s", name, want)
	}
	label, pre := strings.CutPrefix(sc.Sweep.Param, "policies.")
	if label, suf := strings.CutSuffix(label, ".energy_weight"); pre && suf {
		for _, e := range plan.Policies {
			if e.Label == label && e.Name == policies.NameHybridEnergy {
				return label, nil
			}
		}
	}
	return "", fmt.Errorf("%s: sweep.param %q: the scenario must sweep %s", name, sc.Sweep.Param, want)
}

// frontPoint is one point of the latency–energy figure: a policy entry's
// mean energy per task and mean latency over the replicates, with their
// 95% half-widths. Points of one label form one line (a swept weight),
// drawn in order of energy.
type frontPoint struct {
	Label              string
	Energy, EnergyCI   float64 // J per task
	Latency, LatencyCI float64 // s
	Unstable           bool
	Tag                string // written beside the point (a swept weight), or ""
}

// FrontCaption is the note of the latency–energy figure, drawn in the image
// only when FigureOptions.Caption asks for it: offload energy leaves it out,
// and the docs give it beside the figure.
const FrontCaption = "Points: mean over replicates; bars: 95% Student-t intervals of both coordinates. " +
	"A line joins one policy's points across its swept weight; a ring marks a point where a tier's load is shown above 1."

// frontSeries groups the points by label, each label's sorted by energy,
// the labels in legend order; points missing a coordinate are left out,
// and a missing interval draws no bar.
func frontSeries(pts []frontPoint, legend chart.Legend) []chart.Series {
	var out []chart.Series
	for _, p := range pts {
		if !isFinite(p.Energy) || !isFinite(p.Latency) {
			continue
		}
		i := slices.IndexFunc(out, func(s chart.Series) bool { return s.Label == p.Label })
		if i < 0 {
			i = len(out)
			out = append(out, chart.Series{Label: p.Label})
		}
		out[i].Points = append(out[i].Points, chart.Point{X: p.Energy, Y: p.Latency, Low: halfWidth(p.LatencyCI), High: halfWidth(p.LatencyCI),
			XErr: halfWidth(p.EnergyCI), Unstable: p.Unstable, Tag: p.Tag})
	}
	for _, s := range out {
		slices.SortStableFunc(s.Points, func(a, b chart.Point) int { return cmp.Compare(a.X, b.X) })
	}
	slices.SortStableFunc(out, func(a, b chart.Series) int {
		return cmp.Compare(legendRank(legend, a.Label), legendRank(legend, b.Label))
	})
	return out
}

// legendRank is a label's place in the legend; names outside it go last.
func legendRank(l chart.Legend, label string) int {
	if i := slices.Index(l.Labels, label); i >= 0 {
		return i
	}
	return len(l.Labels)
}

// halfWidth is a usable error-bar half-width: 0 when missing.
func halfWidth(ci float64) float64 {
	if !isFinite(ci) || ci < 0 {
		return 0
	}
	return ci
}

// frontPoints are the plot's points: the swept entry at each weight, every
// other entry once (the sweep does not touch it, so its cells agree; the
// first is taken).
func frontPoints(sums []results.Summary, swept string) []frontPoint {
	var pts []frontPoint
	seen := map[string]bool{}
	for _, s := range sums {
		if s.Policy != swept && seen[s.Policy] {
			continue
		}
		seen[s.Policy] = true
		tag := ""
		if s.Policy == swept && s.Value != 0 { // at 0 it is hybrid, drawn under hybrid's point
			tag = "w=" + strconv.FormatFloat(s.Value, 'g', 4, 64)
		}
		pts = append(pts, frontPoint{Label: s.Policy, Energy: s.Get(results.ColEnergy), EnergyCI: s.CI(results.ColEnergy),
			Latency: s.Get(results.ColMeanLatency), LatencyCI: s.CI(results.ColMeanLatency), Unstable: s.Unstable, Tag: tag})
	}
	return pts
}

// dominated reports, for each point, whether another point has a lower
// mean on both coordinates (or lower on one and equal on the other).
func dominated(pts []frontPoint) []bool {
	out := make([]bool, len(pts))
	for i, p := range pts {
		for j, q := range pts {
			if i != j && q.Energy <= p.Energy && q.Latency <= p.Latency && (q.Energy < p.Energy || q.Latency < p.Latency) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// FrontOutputs are the outputs of the energy experiment, named name: they
// write its summary.csv, front.csv and its figure, and print the front.
func FrontOutputs(name string) func(r *runner.Result) ([]string, error) {
	return func(r *runner.Result) ([]string, error) { return frontOutputs(name, r) }
}

func frontOutputs(name string, r *runner.Result) ([]string, error) {
	dir, plan := r.Opts.Dir, r.Plan
	swept, err := SweptEnergyLabel(name, plan)
	if err != nil {
		return nil, err
	}
	sums, err := runner.WriteSummary(r.Dir, plan, r.Opts, runner.OutcomeRuns(r.Outcomes))
	if err != nil {
		return nil, err
	}
	r.Sums = sums
	written := []string{filepath.Join(dir, "runs.csv"), filepath.Join(dir, "summary.csv")}
	pts := frontPoints(sums, swept)
	idle := math.NaN()
	if len(sums) > 0 {
		idle = sums[0].Get(results.ColEnergyIdle)
	}
	legend := Legend(plan)
	err = chart.Chart{FigureOptions: chart.FigureOptions{
		Title:  "Mean latency against energy per task",
		XLabel: fmt.Sprintf("energy caused per task (J; idle adds %s J to every point)", runner.Num(idle)),
		YLabel: "mean latency (s)", LogY: spansDecade(pts)},
		Legend: legend, Series: frontSeries(pts, legend), Note: FrontCaption}.Save(r.Dir, frontPlot, r.Opts.Format)
	if err != nil {
		return nil, err
	}
	written = append(written, filepath.Join(dir, frontPlot+"."+r.Opts.Format))
	weights := frontWeights(sums, swept)
	if err := r.Dir.WriteFile(frontCSV, func(w io.Writer) error { return writeFront(w, pts, weights) }); err != nil {
		return nil, err
	}
	written = append(written, filepath.Join(dir, frontCSV))
	printFront(r.Opts.Out, pts, weights)
	return written, nil
}

// spansDecade reports whether the points' latencies span more than a
// factor of 10 (an unstable policy's seconds beside the others'
// milliseconds), where a linear axis would flatten the front.
func spansDecade(pts []frontPoint) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if p.Latency > 0 && !math.IsInf(p.Latency, 1) {
			lo, hi = math.Min(lo, p.Latency), math.Max(hi, p.Latency)
		}
	}
	return hi/lo > 10
}

// frontWeights is each front point's energy weight: the swept value for
// the swept entry, NaN for the others.
func frontWeights(sums []results.Summary, swept string) []float64 {
	var ws []float64
	seen := map[string]bool{}
	for _, s := range sums {
		if s.Policy != swept && seen[s.Policy] {
			continue
		}
		seen[s.Policy] = true
		w := math.NaN()
		if s.Policy == swept {
			w = s.Value
		}
		ws = append(ws, w)
	}
	return ws
}

// writeFront writes front.csv: policy, energy_weight (empty for the
// entries not swept), the two coordinates with their 95% half-widths, and
// pareto (1 when no other point beats it on both).
func writeFront(w io.Writer, pts []frontPoint, weights []float64) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"policy", "energy_weight", "mean_latency_s", "mean_latency_s_ci95", "energy_j", "energy_j_ci95", "pareto"})
	dom := dominated(pts)
	for i, p := range pts {
		pareto := "1"
		if dom[i] {
			pareto = "0"
		}
		_ = cw.Write([]string{p.Label, cell(weights[i]), cell(p.Latency), cell(p.LatencyCI), cell(p.Energy), cell(p.EnergyCI), pareto})
	}
	cw.Flush()
	return cw.Error()
}

// cell writes a float as runs.csv does: shortest round-trip form, empty
// when missing.
func cell(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// printFront writes the front's table to w.
func printFront(w io.Writer, pts []frontPoint, weights []float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "policy\tenergy_weight (s/J)\tmean latency (s)\t± 95%% CI\tenergy (J/task)\t± 95%% CI\t  on the front\n")
	dom := dominated(pts)
	for i, p := range pts {
		mark := ""
		if !dom[i] {
			mark = "  yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Label, runner.Num(weights[i]), runner.Num(p.Latency), runner.Num(p.LatencyCI), runner.Num(p.Energy), runner.Num(p.EnergyCI), mark)
	}
	_ = tw.Flush()
}
