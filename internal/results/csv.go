package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// runKeys are the runs.csv columns before the metrics: they identify a run.
var runKeys = []string{"experiment", "param", "value", "policy", "seed"}

// summaryKeys are the summary.csv columns before the metrics.
var summaryKeys = []string{"experiment", "param", "value", "policy", "runs"}

// RunsHeader returns the runs.csv header for these columns.
func RunsHeader(cols []Column) []string {
	return append(append([]string(nil), runKeys...), Names(cols)...)
}

// SummaryHeader returns the summary.csv header for these columns: every
// metric followed by its <metric>_ci95, then unstable.
func SummaryHeader(cols []Column) []string {
	h := append([]string(nil), summaryKeys...)
	for _, c := range cols {
		h = append(h, c.Name, c.Name+"_ci95")
	}
	return append(h, "unstable")
}

// Precision columns: summary.csv's last two of a run until precise.
const (
	ColPrecision    = "precision"
	ColPrecisionMet = "precision_met"
)

// WriteRuns writes runs.csv: a header for cols and one row per run, in the
// order given (the caller's order is the file's, which keeps it
// deterministic). Every run must have exactly these columns.
func WriteRuns(w io.Writer, cols []Column, runs []Run) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(RunsHeader(cols)); err != nil {
		return err
	}
	for i, r := range runs {
		row, err := runRow(i, r, cols)
		if err != nil {
			return err
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// sameColumns refuses a row whose columns are not the header's: writing it
// would shift values under the wrong column.
func sameColumns(got, want []Column, nvalues int) error {
	if len(got) != len(want) || nvalues != len(want) {
		return fmt.Errorf("%d columns and %d values for a header of %d", len(got), nvalues, len(want))
	}
	for i := range got {
		if got[i].Name != want[i].Name {
			return fmt.Errorf("column %d is %s, the header's is %s", i, got[i].Name, want[i].Name)
		}
	}
	return nil
}

// WriteSummary writes summary.csv: a header for cols and one row per
// summary; when the summaries are of a run until precise (Precise), the
// header ends with precision and precision_met.
func WriteSummary(w io.Writer, cols []Column, sums []Summary) error {
	cw := csv.NewWriter(w)
	precise := len(sums) > 0 && sums[0].Precise
	header := SummaryHeader(cols)
	if precise {
		header = append(header, ColPrecision, ColPrecisionMet)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, s := range sums {
		if err := sameColumns(s.Cols, cols, len(s.Mean)); err != nil {
			return fmt.Errorf("summary (%s, %s): %w", s.Experiment, s.Policy, err)
		}
		row := []string{s.Experiment, s.Param, formatFloat(s.Value), s.Policy, strconv.Itoa(s.Runs)}
		for j := range cols {
			row = append(row, formatFloat(s.Mean[j]), formatFloat(s.CI95[j]))
		}
		row = append(row, formatBool(s.Unstable))
		if precise {
			row = append(row, formatFloat(s.Precision), formatBool(s.PrecisionMet))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// formatValue writes an integer column as an integer, any other as a float.
func formatValue(c Column, x float64) string {
	if c.Int && !math.IsNaN(x) && !math.IsInf(x, 0) {
		return strconv.FormatInt(int64(x), 10)
	}
	return formatFloat(x)
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

// runRow is run i's row of runs.csv under cols: its key, then its values.
// The emulation's runs.csv begins its rows with it too.
func runRow(i int, r Run, cols []Column) ([]string, error) {
	if err := sameColumns(r.Cols, cols, len(r.Values)); err != nil {
		return nil, fmt.Errorf("run %d (%s, %s, seed %d): %w", i, r.Experiment, r.Policy, r.Seed, err)
	}
	row := []string{r.Experiment, r.Param, formatFloat(r.Value), r.Policy, strconv.Itoa(r.Seed)}
	for j, c := range cols {
		row = append(row, formatValue(c, r.Values[j]))
	}
	return row, nil
}
