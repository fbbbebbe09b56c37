package results

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ReadRuns parses a runs.csv written by WriteRuns for cols (the columns the
// reader expects, e.g. those of the plan being resumed). The header must be
// exactly the one WriteRuns writes for them, so a file from another version
// or scenario is an error rather than silently misread. An empty cell is NaN;
// seed and integer columns must be integers.
func ReadRuns(r io.Reader, cols []Column) ([]Run, error) {
	cr := csv.NewReader(r)
	header, err := readHeader(cr, "runs.csv")
	if err != nil {
		return nil, err
	}
	if want := RunsHeader(cols); !slices.Equal(header, want) {
		return nil, fmt.Errorf("runs.csv: header %q is not the expected %q", strings.Join(header, ","), strings.Join(want, ","))
	}
	return readRecords(cr, "runs.csv", func(rec []string) (Run, error) { return parseRun(rec, cols) })
}

// HeaderTiers recovers the tier names from a runs.csv header (its share_
// columns), for a reader that does not know the scenario.
func HeaderTiers(header []string) []string {
	var tiers []string
	for _, c := range header {
		if name, ok := strings.CutPrefix(c, "share_"); ok {
			tiers = append(tiers, name)
		}
	}
	return tiers
}

func parseRun(rec []string, cols []Column) (Run, error) {
	r := Run{Experiment: rec[0], Param: rec[1], Policy: rec[3], Cols: cols}
	var err error
	if r.Value, err = parseFloat("value", rec[2]); err != nil {
		return r, err
	}
	if r.Seed, err = parseInt("seed", rec[4]); err != nil {
		return r, err
	}
	m := rec[len(runKeys):]
	r.Values = make([]float64, len(cols))
	for i, c := range cols {
		if c.Int {
			n, err := parseInt(c.Name, m[i])
			if err != nil {
				return r, err
			}
			r.Values[i] = float64(n)
			continue
		}
		if r.Values[i], err = parseFloat(c.Name, m[i]); err != nil {
			return r, err
		}
	}
	return r, nil
}

func parseFloat(col, s string) (float64, error) {
	if s == "" {
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s: %q is not a finite number", col, s)
	}
	return x, nil
}

func parseInt(col, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not an integer", col, s)
	}
	return n, nil
}

// ReadSummary parses a summary.csv as WriteSummary writes it, for any
// columns: the metrics are named by the header (every name followed by its
// <name>_ci95, between the key columns and unstable), so a file of another
// scenario's tiers, of an emulation or of a future column reads too. An
// empty cell is NaN. The summaries share one Cols slice, whose columns have
// only a Name.
func ReadSummary(r io.Reader) ([]Summary, error) {
	cr := csv.NewReader(r)
	header, err := readHeader(cr, "summary.csv")
	if err != nil {
		return nil, err
	}
	precise := hasPrecision(header)
	if precise {
		header = header[:len(header)-2]
	}
	cols, err := summaryColumns(header)
	if err != nil {
		return nil, fmt.Errorf("summary.csv: %w", err)
	}
	return readRecords(cr, "summary.csv", func(rec []string) (Summary, error) {
		if !precise {
			return parseSummary(rec, cols)
		}
		s, err := parseSummary(rec[:len(rec)-2], cols)
		if err != nil {
			return s, err
		}
		return s, parsePrecision(&s, rec[len(rec)-2:])
	})
}

// hasPrecision reports whether a summary.csv header ends with the
// precision columns of a run until precise.
func hasPrecision(h []string) bool {
	return len(h) >= 2 && h[len(h)-2] == ColPrecision && h[len(h)-1] == ColPrecisionMet
}

// parsePrecision reads the precision and precision_met cells into s.
func parsePrecision(s *Summary, rec []string) error {
	s.Precise = true
	var err error
	if s.Precision, err = parseFloat(ColPrecision, rec[0]); err != nil {
		return err
	}
	switch m := rec[1]; m {
	case "0", "1":
		s.PrecisionMet = m == "1"
	default:
		return fmt.Errorf("%s: %q is not 0 or 1", ColPrecisionMet, m)
	}
	return nil
}

// SummaryMetrics reads a summary.csv's header alone and returns its
// metric columns (those plot --y takes), in file order.
func SummaryMetrics(r io.Reader) ([]string, error) {
	header, err := readHeader(csv.NewReader(r), "summary.csv")
	if err != nil {
		return nil, err
	}
	if hasPrecision(header) {
		header = header[:len(header)-2]
	}
	cols, err := summaryColumns(header)
	if err != nil {
		return nil, fmt.Errorf("summary.csv: %w", err)
	}
	return Names(cols), nil
}

// summaryColumns checks a summary.csv header's shape and names its metrics.
func summaryColumns(h []string) ([]Column, error) {
	n := len(summaryKeys)
	if len(h) < n+1 || !slices.Equal(h[:n], summaryKeys) || h[len(h)-1] != "unstable" || (len(h)-n-1)%2 != 0 {
		return nil, fmt.Errorf("header %q is not %s, <metric>,<metric>_ci95 pairs, unstable", strings.Join(h, ","), strings.Join(summaryKeys, ","))
	}
	var cols []Column
	for i := n; i < len(h)-1; i += 2 {
		if h[i+1] != h[i]+"_ci95" {
			return nil, fmt.Errorf("header: %s is followed by %s, not %s_ci95", h[i], h[i+1], h[i])
		}
		cols = append(cols, Column{Name: h[i]})
	}
	return cols, nil
}

func parseSummary(rec []string, cols []Column) (Summary, error) {
	s := Summary{Experiment: rec[0], Param: rec[1], Policy: rec[3], Cols: cols,
		Mean: make([]float64, len(cols)), CI95: make([]float64, len(cols))}
	var err error
	if s.Value, err = parseFloat("value", rec[2]); err != nil {
		return s, err
	}
	if s.Runs, err = parseInt("runs", rec[4]); err != nil {
		return s, err
	}
	for j, c := range cols {
		if s.Mean[j], err = parseFloat(c.Name, rec[5+2*j]); err != nil {
			return s, err
		}
		if s.CI95[j], err = parseFloat(c.Name+"_ci95", rec[6+2*j]); err != nil {
			return s, err
		}
	}
	switch u := rec[len(rec)-1]; u {
	case "0", "1":
		s.Unstable = u == "1"
	default:
		return s, fmt.Errorf("unstable: %q is not 0 or 1", u)
	}
	return s, nil
}

// ReadRunsAny parses a runs.csv whatever its columns: the key columns,
// then metrics named by the header (an emulation's accounting columns
// included, valid read as 1 or 0). An empty cell is NaN. For --resume,
// ReadRuns, which insists on the expected header, is the right reader;
// this one serves tools that read a folder they did not plan (compare).
func ReadRunsAny(r io.Reader) ([]Run, error) {
	cr := csv.NewReader(r)
	header, err := readHeader(cr, "runs.csv")
	if err != nil {
		return nil, err
	}
	if len(header) < len(runKeys) || !slices.Equal(header[:len(runKeys)], runKeys) {
		return nil, fmt.Errorf("runs.csv: header %q does not start with %s", strings.Join(header, ","), strings.Join(runKeys, ","))
	}
	var cols []Column
	for _, n := range header[len(runKeys):] {
		cols = append(cols, Column{Name: n})
	}
	return readRecords(cr, "runs.csv", func(rec []string) (Run, error) { return parseRun(rec, cols) })
}

// readHeader reads the first record of the CSV file called name, the
// header every offload CSV starts with.
func readHeader(cr *csv.Reader, name string) ([]string, error) {
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, no header", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return header, nil
}

// readRecords parses the records after the header with parse, naming the
// file and the record's line in an error.
func readRecords[T any](cr *csv.Reader, name string, parse func([]string) (T, error)) ([]T, error) {
	var out []T
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		v, err := parse(rec)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, line, err)
		}
		out = append(out, v)
	}
}
