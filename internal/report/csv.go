package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/offload-sim/offload/internal/results"
)

// runKeys are the runs.csv columns before the metrics: they identify a run.
var runKeys = []string{"experiment", "param", "value", "policy", "seed"}

// summaryKeys are the summary.csv columns before the metrics.
var summaryKeys = []string{"experiment", "param", "value", "policy", "runs"}

// RunsHeader returns the runs.csv header for these tiers.
func RunsHeader(tiers []string) []string {
	return append(append([]string(nil), runKeys...), results.Columns(tiers)...)
}

// SummaryHeader returns the summary.csv header for these tiers: every
// metric followed by its <metric>_ci95, then unstable.
func SummaryHeader(tiers []string) []string {
	h := append([]string(nil), summaryKeys...)
	for _, c := range results.Columns(tiers) {
		h = append(h, c, c+"_ci95")
	}
	return append(h, "unstable")
}

// WriteRuns writes runs.csv: a header and one row per run, in the order
// given (the caller's order is the file's, which keeps it deterministic).
// A run's Share and Util must have one entry per tier, or none (all empty).
func WriteRuns(w io.Writer, tiers []string, runs []results.Run) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(RunsHeader(tiers)); err != nil {
		return err
	}
	for i, r := range runs {
		if err := checkTiers(r, tiers); err != nil {
			return fmt.Errorf("run %d (%s, %s, seed %d): %w", i, r.Experiment, r.Policy, r.Seed, err)
		}
		row := []string{r.Experiment, r.Param, formatFloat(r.Value), r.Policy, strconv.Itoa(r.Seed)}
		row = append(row, strconv.Itoa(r.Tasks))
		for _, v := range r.Metrics(len(tiers)).Vector()[1:] {
			row = append(row, formatFloat(v))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// checkTiers refuses a run whose per-tier slices do not match the header:
// writing it would shift values under the wrong tier's column.
func checkTiers(r results.Run, tiers []string) error {
	for _, s := range []struct {
		name string
		n    int
	}{{"shares", len(r.Share)}, {"utils", len(r.Util)}} {
		if s.n != 0 && s.n != len(tiers) {
			return fmt.Errorf("%d %s for %d tiers", s.n, s.name, len(tiers))
		}
	}
	return nil
}

// WriteSummary writes summary.csv: a header and one row per summary.
func WriteSummary(w io.Writer, tiers []string, sums []results.Summary) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(SummaryHeader(tiers)); err != nil {
		return err
	}
	for _, s := range sums {
		if err := checkTiers(results.Run{Share: s.Mean.Share, Util: s.Mean.Util}, tiers); err != nil {
			return fmt.Errorf("summary (%s, %s): %w", s.Experiment, s.Policy, err)
		}
		row := []string{s.Experiment, s.Param, formatFloat(s.Value), s.Policy, strconv.Itoa(s.Runs)}
		mean := padded(s.Mean, len(tiers)).Vector()
		ci := padded(s.CI95, len(tiers)).Vector()
		for j := range mean {
			row = append(row, formatFloat(mean[j]), formatFloat(ci[j]))
		}
		row = append(row, formatBool(s.Unstable))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// padded gives a summary without per-tier values (no run recorded any) the
// empty cells its row needs.
func padded(m results.Metrics, ntiers int) results.Metrics {
	if len(m.Share) == 0 {
		m.Share = results.NaNs(ntiers)
	}
	if len(m.Util) == 0 {
		m.Util = results.NaNs(ntiers)
	}
	return m
}

// formatFloat writes the shortest representation that reads back to the
// same float64; non-finite values are missing (see the package doc).
func formatFloat(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func formatBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
