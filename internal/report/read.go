package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/results"
)

// ReadRuns parses a runs.csv written by WriteRuns for cols (the columns the
// reader expects, e.g. those of the plan being resumed). The header must be
// exactly the one WriteRuns writes for them, so a file from another version
// or scenario is an error rather than silently misread. An empty cell is NaN;
// seed and integer columns must be integers.
func ReadRuns(r io.Reader, cols []results.Column) ([]results.Run, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("runs.csv: empty file, no header")
	}
	if err != nil {
		return nil, fmt.Errorf("runs.csv: %w", err)
	}
	if want := RunsHeader(cols); !slices.Equal(header, want) {
		return nil, fmt.Errorf("runs.csv: header %q is not the expected %q", strings.Join(header, ","), strings.Join(want, ","))
	}
	var runs []results.Run
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return runs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("runs.csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		run, err := parseRun(rec, cols)
		if err != nil {
			return nil, fmt.Errorf("runs.csv line %d: %w", line, err)
		}
		runs = append(runs, run)
	}
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

func parseRun(rec []string, cols []results.Column) (results.Run, error) {
	r := results.Run{Experiment: rec[0], Param: rec[1], Policy: rec[3], Cols: cols}
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
