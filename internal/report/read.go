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

// ReadRuns parses a runs.csv written by WriteRuns and returns its tiers (from
// the share_ columns) and runs. The header must be exactly what WriteRuns
// writes for those tiers, so a file from another version or scenario is an
// error rather than silently misread. An empty cell is NaN (Value, metrics);
// seed and tasks must be integers.
func ReadRuns(r io.Reader) (tiers []string, runs []results.Run, err error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, errors.New("runs.csv: empty file, no header")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("runs.csv: %w", err)
	}
	tiers, err = tiersOf(header)
	if err != nil {
		return nil, nil, err
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return tiers, runs, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("runs.csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		run, err := parseRun(rec, tiers)
		if err != nil {
			return nil, nil, fmt.Errorf("runs.csv line %d: %w", line, err)
		}
		runs = append(runs, run)
	}
}

// tiersOf recovers the tier names from a runs.csv header and checks that the
// whole header is the one WriteRuns would write for them.
func tiersOf(header []string) ([]string, error) {
	fixed := len(runKeys) + len(results.Fixed)
	var tiers []string
	if len(header) > fixed {
		for _, c := range header[fixed:] {
			if name, ok := strings.CutPrefix(c, "share_"); ok {
				tiers = append(tiers, name)
			}
		}
	}
	if want := RunsHeader(tiers); !slices.Equal(header, want) {
		return nil, fmt.Errorf("runs.csv: header %q is not the expected %q", strings.Join(header, ","), strings.Join(want, ","))
	}
	return tiers, nil
}

func parseRun(rec []string, tiers []string) (results.Run, error) {
	var r results.Run
	var err error
	r.Experiment, r.Param, r.Policy = rec[0], rec[1], rec[3]
	if r.Value, err = parseFloat("value", rec[2]); err != nil {
		return r, err
	}
	if r.Seed, err = parseInt("seed", rec[4]); err != nil {
		return r, err
	}
	m := rec[len(runKeys):]
	if r.Tasks, err = parseInt("tasks", m[0]); err != nil {
		return r, err
	}
	names := results.Columns(tiers)
	v := make([]float64, len(m))
	for i := 1; i < len(m); i++ { // 0 is tasks, an integer
		if v[i], err = parseFloat(names[i], m[i]); err != nil {
			return r, err
		}
	}
	f, ntiers := len(results.Fixed), len(tiers)
	r.MeanLatency, r.P50Latency, r.P95Latency, r.P99Latency = v[1], v[2], v[3], v[4]
	r.MaxLatency, r.MeanWait, r.MeanLarge, r.P95Large = v[5], v[6], v[7], v[8]
	r.MAPE, r.DecisionNs = v[9], v[10]
	r.Share = v[f : f+ntiers : f+ntiers]
	r.Util = v[f+ntiers : f+2*ntiers : f+2*ntiers]
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
