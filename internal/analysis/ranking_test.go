package analysis

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/offload-sim/offload/internal/results"
)

// rankedRuns are two cells of three policies over ten common replicates:
// a common component per replicate (common random numbers) far larger
// than the shifts, and a small own noise; b is 1 above both others, c
// 0.001 above a.
func rankedRuns() []results.Run {
	cols := []results.Column{{Name: results.ColMeanLatency}}
	var runs []results.Run
	for _, v := range []float64{1, 2} {
		for k, pol := range []struct {
			name  string
			shift float64
		}{{"a", 0}, {"b", 1}, {"c", 0.001}} {
			for s := range 10 {
				x := float64(s*s%7) + pol.shift + 0.01*float64((s*(3+2*k))%5)
				runs = append(runs, results.Run{Experiment: "e", Param: "p", Value: v, Policy: pol.name, Seed: s, Cols: cols, Values: []float64{x}})
			}
		}
	}
	return runs
}

// TestReportRanking: the HTML report's ranking is compare's, read from
// the folder's runs.csv: the same ranks, differences, p-values and
// verdicts, with the better policy of each significant pair named.
func TestReportRanking(t *testing.T) {
	runs := rankedRuns()
	var csvb bytes.Buffer
	if err := results.WriteRuns(&csvb, runs[0].Cols, runs); err != nil {
		t.Fatal(err)
	}
	metric, rs, err := rankFolder(fstest.MapFS{"runs.csv": {Data: csvb.Bytes()}})
	if err != nil || metric != results.ColMeanLatency || len(rs) != 2 {
		t.Fatalf("rankFolder: %q, %d rankings, %v", metric, len(rs), err)
	}
	cs := rankCells(runs, results.ColMeanLatency)
	for i, r := range rs {
		c := cs[i]
		if r.Value != c.Value || r.Replicates != 10 || len(r.Pairs) != 3 || r.Rank[0] != 1 || r.Rank[1] != 2 || r.Rank[2] != 1 {
			t.Errorf("cell %d: %+v", i, r)
		}
		for k, pr := range r.Pairs {
			want := c.Pairs[k]
			if pr.PHolm != want.PHolm || pr.P != want.P || pr.Diff != want.Center || pr.Significant != want.Significant {
				t.Errorf("cell %d pair %s-%s: %+v, compare has %+v", i, pr.A, pr.B, pr, want)
			}
			if pr.B == "b" && !pr.ABetter || pr.A == "b" && !pr.BBetter || pr.A == "a" && pr.B == "c" && (pr.ABetter || pr.BBetter) {
				t.Errorf("cell %d pair %s-%s: better a %v, b %v", i, pr.A, pr.B, pr.ABetter, pr.BBetter)
			}
		}
	}
	if _, rs, err := rankFolder(fstest.MapFS{}); err != nil || rs != nil {
		t.Errorf("a folder without runs.csv: %v, %v", rs, err)
	}
}

// TestRankCells: per cell, the policies are paired by replicate, tested
// with Holm's adjustment and ranked on the significant differences only;
// the files say which differences are significant.
func TestRankCells(t *testing.T) {
	cs := rankCells(rankedRuns(), results.ColMeanLatency)
	if len(cs) != 2 {
		t.Fatalf("%d cells, want 2", len(cs))
	}
	for _, c := range cs {
		if c.Replicates != 10 || len(c.Pairs) != 3 {
			t.Fatalf("cell %v: %d replicates, %d pairs", c.Value, c.Replicates, len(c.Pairs))
		}
		// b is 1 above both others in every pair: significant; a against
		// c differs by 0.001 against a noise of 0.01: not.
		if c.Rank[0] != 1 || c.Rank[2] != 1 || c.Rank[1] != 2 {
			t.Errorf("cell %v: ranks %v, want a 1, b 2, c 1", c.Value, c.Rank)
		}
		for _, pr := range c.Pairs {
			if pr.PHolm < pr.P {
				t.Errorf("pair %d-%d: Holm %v below raw %v", pr.A, pr.B, pr.PHolm, pr.P)
			}
		}
	}
	var rank, pairs bytes.Buffer
	if err := writeRanking(&rank, cs, results.ColMeanLatency); err != nil {
		t.Fatal(err)
	}
	if err := writePairs(&pairs, cs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rank.String(), "e,p,1,a,10,") || !strings.Contains(rank.String(), ",1,b\n") {
		t.Errorf("ranking:\n%s", rank.String())
	}
	if !strings.Contains(pairs.String(), "e,p,1,a,b,10,-0.98") {
		t.Errorf("pairs:\n%s", pairs.String())
	}
}

// TestRankDirection: goodput ranks the higher first and says b is better
// than a; a share ranks in order but calls no policy better.
func TestRankDirection(t *testing.T) {
	for _, tc := range []struct {
		metric  string
		rankB   int
		betterB string
	}{{results.ColGoodput, 1, "a"}, {results.ShareCol("edge"), 2, ""}, {results.ColMeanLatency, 2, ""}} {
		cols := []results.Column{{Name: tc.metric}}
		var runs []results.Run
		for k, pol := range []string{"a", "b"} {
			for s := range 10 {
				x := float64(s*s%7) + float64(k) + 0.01*float64((s*(3+2*k))%5)
				runs = append(runs, results.Run{Experiment: "e", Policy: pol, Seed: s, Cols: cols, Values: []float64{x}})
			}
		}
		cs := rankCells(runs, tc.metric)
		if got := cs[0].Rank[1]; got != tc.rankB {
			t.Errorf("%s: b ranks %d, want %d", tc.metric, got, tc.rankB)
		}
		var buf bytes.Buffer
		if err := writeRanking(&buf, cs, tc.metric); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if got := lines[2][strings.LastIndex(lines[2], ",")+1:]; got != tc.betterB {
			t.Errorf("%s: b better than %q, want %q\n%s", tc.metric, got, tc.betterB, buf.String())
		}
	}
}
