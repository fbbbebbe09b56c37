package results

import (
	"encoding/csv"
	"io"
	"strconv"
)

// EmulatedRun is one emulated run (docs/design.md §7): the simulator's runs.csv
// metrics plus the request accounting, which always satisfies
// Sent = Completed + Rejected + Failed.
type EmulatedRun struct {
	Run
	Sent, Completed, Rejected, Failed int
	// Valid is false for a run whose failure share passed the threshold
	// (--max-failures): it is kept in runs.csv and left out of the rest.
	Valid bool
}

// accountingColumns follow the simulator's columns in an emulation's runs.csv.
var accountingColumns = []string{"sent", "completed", "rejected", "failed", "valid"}

// EmulationRunsHeader is RunsHeader plus sent, completed, rejected, failed
// and valid.
func EmulationRunsHeader(cols []Column) []string {
	return append(RunsHeader(cols), accountingColumns...)
}

// WriteEmulationRuns writes an emulation's runs.csv: the simulator's schema
// (so that the same tools read both) followed by the accounting columns.
func WriteEmulationRuns(w io.Writer, cols []Column, runs []EmulatedRun) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(EmulationRunsHeader(cols)); err != nil {
		return err
	}
	for i, r := range runs {
		row, err := runRow(i, r.Run, cols)
		if err != nil {
			return err
		}
		for _, n := range []int{r.Sent, r.Completed, r.Rejected, r.Failed} {
			row = append(row, strconv.Itoa(n))
		}
		row = append(row, formatBool(r.Valid))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Comparison sets one policy's emulated latencies against the simulator's on
// the same scenario and seeds (means over replicates, 95% half-widths).
type Comparison struct {
	Policy                  string
	Runs                    int
	EmuMean, EmuMeanCI95    float64 // s
	SimMean, SimMeanCI95    float64 // s
	EmuP95, EmuP95CI95      float64 // s
	SimP95, SimP95CI95      float64 // s
	RejectionRate           float64 // rejected / sent over the policy's emulated runs
	Failed                  int     // failed requests over the policy's emulated runs
	InvalidRuns             int     // the policy's runs left out as invalid
	MeanDiffPct, P95DiffPct float64 // (emulated − simulated) / simulated, percent
}

// Compare pairs emulated and simulated summaries by policy, in the emulated
// order; acct gives each policy's (rejection rate, failed requests).
func Compare(emu, sim []Summary, acct func(policy string) (float64, int)) []Comparison {
	bySim := map[string]Summary{}
	for _, s := range sim {
		bySim[s.Policy] = s
	}
	var out []Comparison
	for _, e := range emu {
		s := bySim[e.Policy] // a missing one has no columns: every Get is NaN
		c := Comparison{Policy: e.Policy, Runs: e.Runs,
			EmuMean: e.Get(ColMeanLatency), EmuMeanCI95: e.CI(ColMeanLatency),
			SimMean: s.Get(ColMeanLatency), SimMeanCI95: s.CI(ColMeanLatency),
			EmuP95: e.Get(ColP95Latency), EmuP95CI95: e.CI(ColP95Latency),
			SimP95: s.Get(ColP95Latency), SimP95CI95: s.CI(ColP95Latency)}
		c.MeanDiffPct = 100 * (c.EmuMean - c.SimMean) / c.SimMean
		c.P95DiffPct = 100 * (c.EmuP95 - c.SimP95) / c.SimP95
		if acct != nil {
			c.RejectionRate, c.Failed = acct(e.Policy)
		}
		out = append(out, c)
	}
	return out
}

// ComparisonHeader is the header of the emulated-vs-simulated CSV.
var ComparisonHeader = []string{"policy", "runs",
	"emulated_mean_s", "emulated_mean_s_ci95", "simulated_mean_s", "simulated_mean_s_ci95", "mean_diff_pct",
	"emulated_p95_s", "emulated_p95_s_ci95", "simulated_p95_s", "simulated_p95_s_ci95", "p95_diff_pct",
	"rejection_rate", "failed", "invalid_runs"}

// WriteComparison writes one row per policy under ComparisonHeader.
func WriteComparison(w io.Writer, cs []Comparison) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ComparisonHeader); err != nil {
		return err
	}
	for _, c := range cs {
		row := []string{c.Policy, strconv.Itoa(c.Runs)}
		for _, v := range []float64{c.EmuMean, c.EmuMeanCI95, c.SimMean, c.SimMeanCI95, c.MeanDiffPct,
			c.EmuP95, c.EmuP95CI95, c.SimP95, c.SimP95CI95, c.P95DiffPct, c.RejectionRate} {
			row = append(row, formatFloat(v))
		}
		if err := cw.Write(append(row, strconv.Itoa(c.Failed), strconv.Itoa(c.InvalidRuns))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
