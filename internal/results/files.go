package results

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Key identifies the run (or, with Seed < 0, the cell and policy) a row of
// the mape, series and bursts files belongs to.
type Key struct {
	Experiment, Param string
	Value             float64
	Policy            string // the policy, or the router in mape.csv
	Seed              int
}

func (k Key) cells() []string {
	return []string{k.Experiment, k.Param, formatFloat(k.Value), k.Policy, strconv.Itoa(k.Seed)}
}

// MAPERow is one mape.csv row: one shadow estimator in one router run.
type MAPERow struct {
	Key
	Tasks int
	ShadowError
}

// MAPEHeader is the mape.csv header. mape_idle and mape_busy split mape by
// whether the chosen tier had an idle server in the router's view at the
// decision; idle_share is the share of tasks where it had.
var MAPEHeader = append(slices.Clip(mapeHeaderV1), ColMAPEIdle, ColMAPEBusy, ColIdleShare)

// mapeHeaderV1 is mape.csv as offload wrote it before the split: --resume
// still reads such a file, its runs' split cells empty.
var mapeHeaderV1 = []string{"experiment", "param", "value", "router", "seed", "estimator", "tasks", ColMAPE, "mae_wait_s"}

// WriteMAPE writes mape.csv: per router run, one row per shadow estimator;
// mape in percent, mae_wait_s the mean absolute error of the wait alone.
func WriteMAPE(w io.Writer, rows []MAPERow) error {
	return writeTable(w, MAPEHeader, len(rows), func(i int) []string {
		r := rows[i]
		return append(r.cells(), r.Estimator, strconv.Itoa(r.Tasks), formatFloat(r.MAPE), formatFloat(r.MAEWait),
			formatFloat(r.MAPEIdle), formatFloat(r.MAPEBusy), formatFloat(r.IdleShare))
	})
}

// ReadMAPE reads mape.csv back (for --resume), in its current layout or
// the one before the idle split.
func ReadMAPE(r io.Reader) ([]MAPERow, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("mape.csv: %w", err)
	}
	header := MAPEHeader
	if bytes.HasPrefix(b, []byte(strings.Join(mapeHeaderV1, ",")+"\n")) {
		header = mapeHeaderV1
	}
	recs, err := readTable(bytes.NewReader(b), "mape.csv", header)
	if err != nil {
		return nil, err
	}
	rows := make([]MAPERow, len(recs))
	for i, rec := range recs {
		k, err := parseKey(rec)
		if err != nil {
			return nil, fmt.Errorf("mape.csv line %d: %w", i+2, err)
		}
		row := MAPERow{Key: k}
		row.Estimator = rec[5]
		row.MAPEIdle, row.MAPEBusy, row.IdleShare = math.NaN(), math.NaN(), math.NaN()
		if row.Tasks, err = parseInt("tasks", rec[6]); err == nil {
			fs := []*float64{&row.MAPE, &row.MAEWait, &row.MAPEIdle, &row.MAPEBusy, &row.IdleShare}
			for j := 7; j < len(header) && err == nil; j++ {
				*fs[j-7], err = parseFloat(header[j], rec[j])
			}
		}
		if err != nil {
			return nil, fmt.Errorf("mape.csv line %d: %w", i+2, err)
		}
		rows[i] = row
	}
	return rows, nil
}

// MAPESummaryHeader is the mape_summary.csv header.
var MAPESummaryHeader = []string{"experiment", "param", "value", "router", "estimator", "runs", ColMAPE, "mape_ci95", "mae_wait_s", "mae_wait_s_ci95",
	"mape_idle", "mape_idle_ci95", "mape_busy", "mape_busy_ci95", "idle_share", "idle_share_ci95"}

// WriteMAPESummary writes mape_summary.csv from summaries whose Policy is the
// estimator, under ShadowColumns: each mean followed by its 95%
// half-width.
func WriteMAPESummary(w io.Writer, router string, sums []Summary) error {
	return writeTable(w, MAPESummaryHeader, len(sums), func(i int) []string {
		s := sums[i]
		rec := []string{s.Experiment, s.Param, formatFloat(s.Value), router, s.Policy, strconv.Itoa(s.Runs)}
		for _, c := range []string{ColMAPE, ColMAEWait, ColMAPEIdle, ColMAPEBusy, ColIdleShare} {
			rec = append(rec, formatFloat(s.Get(c)), formatFloat(s.CI(c)))
		}
		return rec
	})
}

// SeriesRow is one window of a series: of one run (series_runs.csv, Seed ≥
// 0) or averaged over a cell's replicates (timeseries.csv, Runs > 0).
type SeriesRow struct {
	Key
	Runs  int
	Width float64
	Window
}

// SeriesHeader is the header of timeseries.csv (averaged: a runs column) or
// series_runs.csv (per run: a seed column).
func SeriesHeader(tiers []string, perRun bool) []string {
	h := []string{"experiment", "param", "value", "policy", "runs", "window_start_s", "window_end_s", "tasks", "mean_latency_s", "p95_latency_s"}
	if perRun {
		h[4] = "seed"
	}
	for _, p := range []string{"share_", "lambda_", "beta_", "rho_"} {
		for _, t := range tiers {
			h = append(h, p+t)
		}
	}
	return h
}

// WriteSeries writes timeseries.csv (perRun false) or series_runs.csv.
// Per tier: share of the window's tasks, and the estimator's λ̂ (tasks/s),
// β and ρ̂ at the window's first decision.
func WriteSeries(w io.Writer, tiers []string, rows []SeriesRow, perRun bool) error {
	return writeTable(w, SeriesHeader(tiers, perRun), len(rows), func(i int) []string {
		r := rows[i]
		rec := r.cells()
		if !perRun {
			rec[4] = strconv.Itoa(r.Runs)
		}
		rec = append(rec, formatFloat(r.Start), formatFloat(r.Start+r.Width), strconv.Itoa(r.Tasks),
			formatFloat(r.MeanLatency), formatFloat(r.P95Latency))
		for _, f := range [][]float64{r.Share, r.Lambda, r.Beta, r.Rho} {
			for t := range tiers {
				rec = append(rec, formatFloat(at(f, t)))
			}
		}
		return rec
	})
}

// ReadSeriesRuns reads series_runs.csv back (for --resume).
func ReadSeriesRuns(r io.Reader, tiers []string) ([]SeriesRow, error) {
	recs, err := readTable(r, "series_runs.csv", SeriesHeader(tiers, true))
	if err != nil {
		return nil, err
	}
	n := len(tiers)
	rows := make([]SeriesRow, len(recs))
	for i, rec := range recs {
		k, err := parseKey(rec)
		if err != nil {
			return nil, fmt.Errorf("series_runs.csv line %d: %w", i+2, err)
		}
		v := make([]float64, len(rec))
		for j := 5; j < len(rec); j++ {
			if v[j], err = parseFloat(SeriesHeader(tiers, true)[j], rec[j]); err != nil {
				return nil, fmt.Errorf("series_runs.csv line %d: %w", i+2, err)
			}
		}
		x := Window{Start: v[5], Tasks: int(v[7]), MeanLatency: v[8], P95Latency: v[9]}
		x.Share, x.Lambda, x.Beta, x.Rho = v[10:10+n:10+n], v[10+n:10+2*n:10+2*n], v[10+2*n:10+3*n:10+3*n], v[10+3*n:10+4*n:10+4*n]
		rows[i] = SeriesRow{Key: k, Width: v[6] - v[5], Window: x}
	}
	return rows, nil
}

// BurstRow is one bursts.csv row: how one policy went through one burst,
// measured on its replicate-averaged series.
type BurstRow struct {
	Key
	BurstStat
}

// colBurst is bursts.csv's column of the burst's number.
const colBurst = "burst"

// BurstsHeader is the bursts.csv header.
var BurstsHeader = []string{"experiment", "param", "value", "policy", colBurst, "start_s", "end_s", "baseline_s",
	"peak_mean_latency_s", "peak_at_s", "recovery_s", "cloud_share_before", "cloud_share_during"}

// WriteBursts writes bursts.csv; recovery_s is empty when the windowed mean
// never came back within the band before the next burst.
func WriteBursts(w io.Writer, rows []BurstRow) error {
	return writeTable(w, BurstsHeader, len(rows), func(i int) []string {
		r := rows[i]
		rec := r.cells()[:4]
		return append(rec, strconv.Itoa(r.Index), formatFloat(r.Start), formatFloat(r.End), formatFloat(r.Baseline),
			formatFloat(r.Peak), formatFloat(r.PeakAt), formatFloat(r.Recovery), formatFloat(r.CloudBefore), formatFloat(r.CloudDuring))
	})
}

func at(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}

func writeTable(w io.Writer, header []string, n int, row func(i int) []string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := range n {
		if err := cw.Write(row(i)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func readTable(r io.Reader, name string, header []string) ([][]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(header)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], header) {
		return nil, fmt.Errorf("%s: header is not %q", name, strings.Join(header, ","))
	}
	return recs[1:], nil
}

func parseKey(rec []string) (Key, error) {
	k := Key{Experiment: rec[0], Param: rec[1], Policy: rec[3]}
	var err error
	if k.Value, err = parseFloat("value", rec[2]); err != nil {
		return k, err
	}
	k.Seed, err = parseInt("seed", rec[4])
	return k, err
}
