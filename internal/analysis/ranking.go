package analysis

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/offload-sim/offload/internal/htmlreport"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/stats"
)

// cellRanking is one cell's policies tested pair by pair on their common
// replicates, with Holm's adjustment over all the cell's pairs, and ranked
// on the significant differences, in the metric's direction
// (results.DirectionOf: lower first where neither way is better).
type cellRanking struct {
	Experiment, Param string
	Value             float64
	Policies          []string // in the runs' order
	Neutral           bool     // neither way is better: ranks order, better_than stays empty
	stats.Comparison
}

// rankCells compares the policies of every cell of runs on metric, cell
// by cell in order of first appearance. The replicates are paired by their
// number (common random numbers); a replicate some policy lacks, or whose
// value is missing, is left out of every pair of the cell.
func rankCells(runs []results.Run, metric string) []cellRanking {
	type cellKey struct {
		exp, param string
		value      string
	}
	var cells []cellKey
	byCell := map[cellKey][]results.Run{}
	for _, r := range runs {
		k := cellKey{r.Experiment, r.Param, strconv.FormatFloat(r.Value, 'g', -1, 64)}
		if _, ok := byCell[k]; !ok {
			cells = append(cells, k)
		}
		byCell[k] = append(byCell[k], r)
	}
	var out []cellRanking
	for _, k := range cells {
		group := byCell[k]
		c := cellRanking{Experiment: k.exp, Param: k.param, Value: group[0].Value}
		n := 0
		for _, r := range group {
			if !slices.Contains(c.Policies, r.Policy) {
				c.Policies = append(c.Policies, r.Policy)
			}
			n = max(n, r.Seed+1)
		}
		values := make([][]float64, len(c.Policies))
		for p := range values {
			values[p] = results.NaNs(n)
		}
		for _, r := range group {
			values[slices.Index(c.Policies, r.Policy)][r.Seed] = r.Get(metric)
		}
		better := stats.Lower
		if results.DirectionOf(metric) == results.HigherBetter {
			better = stats.Higher
		}
		c.Comparison = stats.Compare(values, better)
		c.Neutral = results.DirectionOf(metric) == results.NoBetter
		out = append(out, c)
	}
	return out
}

// rankFolder is the HTML report's ranking of a results folder (its root
// is folder): compare's, on mean latency, over the runs of its runs.csv
// that compare reads. A folder without runs.csv, or whose runs have no
// mean latency, has none.
func rankFolder(folder fs.FS) (string, []htmlreport.Ranking, error) {
	metric := results.ColMeanLatency
	b, err := fs.ReadFile(folder, "runs.csv")
	if errors.Is(err, fs.ErrNotExist) {
		return metric, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	all, err := results.ReadRunsAny(bytes.NewReader(b))
	if err != nil {
		return "", nil, fmt.Errorf("runs.csv: %w", err)
	}
	runs := validRuns(all)
	if len(runs) == 0 || results.Index(runs[0].Cols, metric) < 0 {
		return metric, nil, nil
	}
	var out []htmlreport.Ranking
	for _, c := range rankCells(runs, metric) {
		out = append(out, htmlRanking(c, metric))
	}
	return metric, out, nil
}

// htmlRanking is a cell's ranking as the report shows it.
func htmlRanking(c cellRanking, metric string) htmlreport.Ranking {
	value := c.Value
	if c.Param == "" {
		value = math.NaN()
	}
	r := htmlreport.Ranking{Value: value, Replicates: c.Replicates, Policies: c.Policies, Rank: c.Rank}
	for _, pr := range c.Pairs {
		aBetter, bBetter := c.better(pr, metric)
		r.Pairs = append(r.Pairs, htmlreport.RankedPair{A: c.Policies[pr.A], B: c.Policies[pr.B], N: pr.N,
			Diff: pr.Center, CI95: pr.Half, P: pr.P, PHolm: pr.PHolm, Significant: pr.Significant,
			ABetter: aBetter, BBetter: bBetter})
	}
	return r
}

// better reports which policy of a pair is significantly better on
// metric, in its direction; neither when the difference is not
// significant or the metric has no better way.
func (c cellRanking) better(pr stats.Pair, metric string) (a, b bool) {
	if !pr.Significant || c.Neutral {
		return false, false
	}
	sign := 1.0 // a − b < 0 is a better
	if results.DirectionOf(metric) == results.HigherBetter {
		sign = -1
	}
	return sign*pr.Center < 0, sign*pr.Center > 0
}

// rankingHeader and pairsHeader are the columns of ranking_<stem>.csv and
// pairs_<stem>.csv.
var (
	rankingHeader = []string{"experiment", "param", "value", "policy", "pairs", "mean", "rank", "better_than"}
	pairsHeader   = []string{"experiment", "param", "value", "policy_a", "policy_b", "pairs", "diff", "diff_ci95", "p", "p_holm", "significant"}
)

// writeRanking writes each cell's policies with their rank and the
// policies each is significantly better than (space-separated).
func writeRanking(w io.Writer, cs []cellRanking, metric string) error {
	var rows [][]string
	for _, c := range cs {
		for p, pol := range c.Policies {
			var better []string
			for _, pr := range c.Pairs {
				aBetter, bBetter := c.better(pr, metric)
				switch {
				case pr.A == p && aBetter:
					better = append(better, c.Policies[pr.B])
				case pr.B == p && bBetter:
					better = append(better, c.Policies[pr.A])
				}
			}
			rows = append(rows, []string{c.Experiment, c.Param, csvFloat(c.Value), pol, strconv.Itoa(c.Replicates),
				csvFloat(c.Means[p]), strconv.Itoa(c.Rank[p]), strings.Join(better, " ")})
		}
	}
	return writeCSV(w, rankingHeader, rows)
}

// writePairs writes every tested pair of every cell: the paired mean
// difference a − b with its 95% interval, the raw and the Holm-adjusted
// two-sided p-value, and whether the difference is significant after the
// adjustment.
func writePairs(w io.Writer, cs []cellRanking) error {
	var rows [][]string
	for _, c := range cs {
		for _, pr := range c.Pairs {
			rows = append(rows, []string{c.Experiment, c.Param, csvFloat(c.Value), c.Policies[pr.A], c.Policies[pr.B], strconv.Itoa(pr.N),
				csvFloat(pr.Center), csvFloat(pr.Half), csvFloat(pr.P), csvFloat(pr.PHolm), boolCell(pr.Significant)})
		}
	}
	return writeCSV(w, pairsHeader, rows)
}

// printRanking writes each cell's ranks as groups, best first, and how
// many of its pairs differ significantly after Holm's adjustment.
func printRanking(w io.Writer, cs []cellRanking, metric string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	way := map[results.Direction]string{results.LowerBetter: "lower is better", results.HigherBetter: "higher is better",
		results.NoBetter: "neither way is better, ranked lowest first"}[results.DirectionOf(metric)]
	fmt.Fprintf(tw, "\nranking on %s, %s: paired t tests, Holm-adjusted over each cell's pairs, significant at 5%%\n", metric, way)
	for _, c := range cs {
		cell := "run"
		if c.Param != "" {
			cell = c.Param + "=" + runner.Num(c.Value)
		}
		sig := 0
		for _, pr := range c.Pairs {
			if pr.Significant {
				sig++
			}
		}
		var groups []string
		for rank := 1; rank <= len(c.Policies); rank++ {
			var g []string
			for p, pol := range c.Policies {
				if c.Rank[p] == rank {
					g = append(g, pol)
				}
			}
			if len(g) > 0 {
				groups = append(groups, fmt.Sprintf("%d: %s", rank, strings.Join(g, ", ")))
			}
		}
		fmt.Fprintf(tw, "%s\t%d of %d pairs significant\t%s\n", cell, sig, len(c.Pairs), strings.Join(groups, "; "))
	}
	_ = tw.Flush()
}

func csvFloat(x float64) string {
	if !isFiniteNum(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func isFiniteNum(x float64) bool { return x == x && x-x == 0 }

func boolCell(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// writeCSV writes a header and rows.
func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}
