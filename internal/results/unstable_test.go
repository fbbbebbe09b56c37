package results

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// cellOf makes one cell's replicates of k tiers: loads[r][i] is replicate
// r's offered load of tier i; every other column is missing.
func cellOf(loads [][]float64) []Run {
	return cellWith(tierColumns(len(loads[0])), loads)
}

// tierColumns are runs.csv's columns with k tiers.
func tierColumns(k int) []Column {
	var tiers []string
	for i := range k {
		tiers = append(tiers, "t"+strconv.Itoa(i))
	}
	return RunColumns(Layout{Tiers: tiers})
}

func cellWith(cols []Column, loads [][]float64) []Run {
	first := Index(cols, UtilCol("t0"))
	runs := make([]Run, len(loads))
	for r, l := range loads {
		vals := NaNs(len(cols))
		copy(vals[first:], l)
		runs[r] = Run{Experiment: "e", Policy: "p", Seed: r, Value: math.NaN(), Cols: cols, Values: vals}
	}
	return runs
}

// The flag's false alarms are bounded whatever the number of tiers: with
// every one of k = 20 tiers exactly at capacity (the hypothesis' boundary,
// where a false flag is likeliest) and normal measurement noise, for which
// the t-test is exact, a cell is flagged with probability
// 1 − (1 − α/k)^k = 0.0488 (α = StabilityLevel). The point rule of a mean
// ≥ 1 flagged such cells all but once in a million (some tier of 20
// measures above 1).
// 4000 cells of 5 replicates: the binomial standard deviation of the rate
// is 0.0034, and the check allows four of them.
func TestUnstableFalseAlarmsBounded(t *testing.T) {
	const cells, reps, k = 4000, 5, 20
	rng := rand.New(rand.NewPCG(1, 2))
	cols := tierColumns(k)
	flagged := 0
	for range cells {
		loads := make([][]float64, reps)
		for r := range loads {
			loads[r] = make([]float64, k)
			for i := range loads[r] {
				loads[r][i] = 1 + 0.03*rng.NormFloat64()
			}
		}
		if Summarize(cellWith(cols, loads))[0].Unstable {
			flagged++
		}
	}
	p := 1 - math.Pow(1-StabilityLevel/k, k)
	sd := math.Sqrt(p * (1 - p) / cells)
	if rate := float64(flagged) / cells; math.Abs(rate-p) > 4*sd {
		t.Errorf("%d of %d cells at capacity flagged (%.4f); the test's level is %.4f ± %.4f", flagged, cells, rate, p, 4*sd)
	}
}

// A tier loaded beyond its capacity is flagged: its measured load's excess
// over 1 is large against the replicates' spread. The per-tier level is
// α/k, so that a cell of one tier, or of a thousand, keeps its family-wise
// level; and the decision is the one-sided t-test's, here against gonum's
// Student-t directly.
func TestUnstableFlagsOverload(t *testing.T) {
	for _, c := range []struct {
		name  string
		loads [][]float64
		want  bool
	}{
		// random at 60 tasks/s: the local tier (μ = 10) gets 20 tasks/s.
		{"local at 2", [][]float64{{2.01, 0.4, 0.1}, {1.98, 0.41, 0.1}, {2.0, 0.39, 0.1}}, true},
		{"edge at 1.2", [][]float64{{0.2, 1.21}, {0.2, 1.19}, {0.2, 1.2}, {0.2, 1.22}, {0.2, 1.18}}, true},
		// The mean of one tier of 100 at 0.9 is 1.011 by chance.
		{"100 tiers at 0.9, one measured high", [][]float64{spread(100, 0.9, 1.02), spread(100, 0.9, 1.002)}, false},
		{"stable", [][]float64{{0.5, 0.7}, {0.52, 0.71}}, false},
	} {
		if got := Summarize(cellOf(c.loads))[0].Unstable; got != c.want {
			t.Errorf("%s: unstable %v, want %v", c.name, got, c.want)
		}
	}
	// The decision against the t quantile computed here.
	s := Summarize(cellOf([][]float64{{1.05, 0.5, 0.5}, {1.02, 0.5, 0.5}, {1.08, 0.5, 0.5}, {1.04, 0.5, 0.5}}))[0]
	j := Index(s.Cols, UtilCol("t0"))
	mean, sd := 1.0475, 0.025
	tstat := (mean - 1) / (sd / 2)
	crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 3}.Quantile(1 - StabilityLevel/3)
	if got, want := s.TierUnstable(j), tstat > crit; got != want || math.Abs(s.Mean[j]-mean) > 1e-12 {
		t.Errorf("t = %.3f against %.3f: TierUnstable %v, want %v", tstat, crit, got, want)
	}
}

// spread is one replicate of k tiers at load x, the last at last.
func spread(k int, x, last float64) []float64 {
	l := make([]float64, k)
	for i := range l {
		l[i] = x
	}
	l[k-1] = last
	return l
}
