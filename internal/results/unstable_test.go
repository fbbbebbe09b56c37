package results

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// tierColumns are runs.csv's columns with k tiers.
func tierColumns(k int) []Column {
	var tiers []string
	for i := range k {
		tiers = append(tiers, "t"+strconv.Itoa(i))
	}
	return RunColumns(Layout{Tiers: tiers})
}

// cellWith makes one cell's replicates: loads[r][i] is replicate r's
// offered load of tier i, which got shares[i] of the replicate's tasks.
func cellWith(cols []Column, value float64, tasks int, shares []float64, loads [][]float64) []Run {
	runs := make([]Run, len(loads))
	for r, l := range loads {
		vals := NaNs(len(cols))
		vals[Index(cols, ColTasks)] = float64(tasks)
		for i, x := range l {
			vals[Index(cols, UtilCol("t"+strconv.Itoa(i)))] = x
			vals[Index(cols, ShareCol("t"+strconv.Itoa(i)))] = shares[i]
		}
		runs[r] = Run{Experiment: "e", Policy: "p", Seed: r, Value: value, Cols: cols, Values: vals}
	}
	return runs
}

// even is k equal shares.
func even(k int) []float64 {
	s := make([]float64, k)
	for i := range s {
		s[i] = 1 / float64(k)
	}
	return s
}

// noisy draws R replicates of k tiers' loads at rho, each measured over n
// tasks with noise constant kappa2: normal, of variance rho²·kappa2/n.
func noisy(rng *rand.Rand, reps, k int, rho, kappa2, n float64) [][]float64 {
	loads := make([][]float64, reps)
	for r := range loads {
		loads[r] = make([]float64, k)
		for i := range loads[r] {
			loads[r][i] = rho * (1 + math.Sqrt(kappa2/n)*rng.NormFloat64())
		}
	}
	return loads
}

// The flag's false alarms are bounded whatever the number of tiers. Every
// one of k = 10 tiers at exactly its capacity (the boundary, where a false
// flag is likeliest), 5 replicates of 500 tasks each, normal noise of
// κ² = 2: each tier's statistic is Z/V, Z standard normal and V² the
// pooled variance's χ²(40)/40, the same V for the cell's tiers, so a cell
// is flagged with probability E[1 − Φ(c·V)^k], c the t quantile at
// 1 − α/k — computed here by quadrature over V, about 0.048. The point
// rule of a mean ≥ 1 flagged all but a thousandth of such cells. 2000
// cells: the binomial standard deviation of the rate is 0.0048, and the
// check allows four of them.
func TestUnstableFalseAlarmsBounded(t *testing.T) {
	const cells, reps, k, n = 2000, 5, 10, 500
	rng := rand.New(rand.NewPCG(1, 2))
	cols := tierColumns(k)
	flagged := 0
	for range cells {
		if Summarize(cellWith(cols, 1, n*k, even(k), noisy(rng, reps, k, 1, 2, n)))[0].Unstable {
			flagged++
		}
	}
	df := k * (reps - 1)
	c := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - StabilityLevel/k)
	chi := distuv.ChiSquared{K: float64(df)}
	normal := distuv.UnitNormal
	const m = 20000
	p := 0.0
	for i := range m {
		v := math.Sqrt(chi.Quantile((float64(i)+0.5)/m) / float64(df))
		p += 1 - math.Pow(normal.CDF(c*v), k)
	}
	p /= m
	sd := math.Sqrt(p * (1 - p) / cells)
	if rate := float64(flagged) / cells; math.Abs(rate-p) > 4*sd || p > StabilityLevel {
		t.Errorf("%d of %d cells at capacity flagged (%.4f); the test's level is %.4f ± %.4f", flagged, cells, rate, p, 4*sd)
	}
}

// A tier loaded beyond its capacity is flagged, with few replicates and
// one loaded tier too: the noise is pooled over the plan's cells and
// scaled by each replicate's tasks. A hundred tiers at 0.9 whose largest
// mean measures above 1 by chance are not.
func TestUnstableFlagsOverload(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	three := tierColumns(3)
	for _, c := range []struct {
		name string
		runs []Run
		want bool
	}{
		// random at 60 tasks/s: the local tier (μ = 10) gets 20 tasks/s.
		{"random: local at 2", cellWith(three, 60, 2000, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, [][]float64{{2.03, 0.4, 0.1}, {1.98, 0.41, 0.1}}), true},
		// edge-first at 150 tasks/s: everything to the edge, at 1.5.
		{"edge-first: edge at 1.5", cellWith(three, 150, 2000, []float64{0, 1, 0}, [][]float64{{0, 1.53, 0}, {0, 1.48, 0}}), true},
		{"stable", cellWith(three, 40, 2000, []float64{0.2, 0.5, 0.3}, [][]float64{{0.5, 0.7, 0.1}, {0.52, 0.71, 0.1}}), false},
	} {
		// A plan of this cell and a stable one beside it, which the noise
		// pools with.
		other := cellWith(three, 20, 2000, even(3), noisy(rng, 2, 3, 0.5, 2, 2000/3.0))
		sums := Summarize(append(c.runs, other...))
		if sums[0].Unstable != c.want || sums[1].Unstable {
			t.Errorf("%s: unstable %v (the stable cell %v), want %v", c.name, sums[0].Unstable, sums[1].Unstable, c.want)
		}
	}
	hundred := tierColumns(100)
	loads := noisy(rng, 2, 100, 0.9, 2, 200)
	loads[0][7], loads[1][7] = 1.02, 1.002 // its mean: 1.011
	if s := Summarize(cellWith(hundred, 900, 20000, even(100), loads))[0]; s.Unstable {
		t.Errorf("100 tiers at 0.9, one mean at %v: flagged", s.Get(UtilCol("t7")))
	}
}
