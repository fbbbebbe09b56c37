package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Paired is the paired t test of two policies over common replicates.
type Paired struct {
	// Estimate is the mean difference a − b over the pairs used, with its
	// 95% Student-t interval (MeanCI of the differences); N is the pairs.
	Estimate
	// T is the statistic d̄/(s_d/√N), P its two-sided p-value on N − 1
	// degrees of freedom, 2·P(T_{N−1} > |T|). P ≤ Alpha exactly when the
	// interval excludes 0. When every difference is the same, P is 1 if
	// they are 0 and 0 otherwise; below two pairs T and P are NaN.
	T, P float64
}

// PairedT returns the paired t test of a against b (Student 1908; Law &
// Kelton, §10.2.1, the paired-t interval for comparing two systems under
// common random numbers): the differences a[i] − b[i], skipping a pair
// with a non-finite side and replicates beyond the shorter slice, as
// results.PairedDiff does. It allocates one slice of the differences.
func PairedT(a, b []float64) Paired {
	d := make([]float64, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		if isFinite(a[i]) && isFinite(b[i]) {
			d = append(d, a[i]-b[i])
		}
	}
	return pairedT(d)
}

func pairedT(d []float64) Paired {
	mean, sd, n := meanSD(d)
	p := Paired{Estimate: tInterval(mean, sd, n), T: math.NaN(), P: math.NaN()}
	switch {
	case n < 2:
	case sd == 0 && mean == 0:
		p.T, p.P = 0, 1
	case sd == 0:
		p.T, p.P = math.Copysign(math.Inf(1), mean), 0
	default:
		p.T = mean / (sd / math.Sqrt(float64(n)))
		p.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Survival(math.Abs(p.T))
	}
	return p
}

// Holm returns the adjusted p-values of Holm's step-down procedure over
// the family p (Holm, "A simple sequentially rejective multiple test
// procedure", Scandinavian Journal of Statistics 6(2), 1979; adjusted
// p-values as in Wright, Biometrics 48(4), 1992): with the m finite
// p-values sorted, p₍₁₎ ≤ … ≤ p₍ₘ₎,
//
//	p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎).
//
// Rejecting every hypothesis with p̃ ≤ α keeps the probability of any
// false rejection in the family at most α, whatever the dependence between
// the tests. The adjusted values are never below the raw ones, are
// monotone in the raw order, and the smallest is Bonferroni's m·p₍₁₎. A
// NaN (a test that could not be made) stays NaN and is not counted in m;
// equal p-values keep their input order.
func Holm(p []float64) []float64 {
	idx := make([]int, 0, len(p))
	for i, x := range p {
		if !math.IsNaN(x) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	adj := make([]float64, len(p))
	for i := range adj {
		adj[i] = math.NaN()
	}
	m, run := len(idx), 0.0
	for j, i := range idx {
		run = max(run, min(1, float64(m-j)*p[i]))
		adj[i] = run
	}
	return adj
}

// Better says which direction of a metric is better.
type Better int

const (
	Lower  Better = iota // latency, energy: lower is better
	Higher               // throughput: higher is better
)

// Pair is the comparison of policies A < B in a Comparison.
type Pair struct {
	A, B int
	Paired
	// PHolm is P adjusted by Holm over every pair of the comparison;
	// Significant is PHolm ≤ Alpha.
	PHolm       float64
	Significant bool
}

// Comparison is every pair of a cell's policies tested on their paired
// replicates, and the ranking the significant differences support.
type Comparison struct {
	// Replicates is the number of replicates used: those where every
	// policy has a finite value, so that every pair is tested on the same
	// replicates.
	Replicates int
	// Means is each policy's mean over those replicates.
	Means []float64
	// Pairs holds every pair A < B in the order (0,1), (0,2), …, (1,2), …
	Pairs []Pair
	// Rank is each policy's rank, from 1 (best). Rank(B) is one more than
	// the largest rank of a policy significantly better than B, and 1 when
	// none is: the longest chain of significant differences above it. So
	// a significant difference always separates ranks, the better policy
	// ranking higher; policies of the same rank are never significantly
	// different (the partial order, reported as groups of equal rank); and
	// two ranks can differ without a significant difference between them
	// (A better than C, B between and separated from neither: A 1, B 1, C 2).
	Rank []int
}

// Compare tests every pair of the policies of values[p][i] (policy p,
// replicate i, paired by common random numbers) by PairedT, adjusts the
// p-values by Holm over all the pairs, and ranks the policies on the
// significant differences, better being lower or higher values. A
// replicate where some policy has a non-finite value is left out of every
// pair, so all pairs stand on the same replicates and the sign of each
// mean difference is that of the difference of the two means.
func Compare(values [][]float64, better Better) Comparison {
	n := 0
	if len(values) > 0 {
		n = len(values[0])
	}
	for _, xs := range values {
		n = min(n, len(xs))
	}
	keep := make([]int, 0, n)
	for i := range n {
		if !slices.ContainsFunc(values, func(xs []float64) bool { return !isFinite(xs[i]) }) {
			keep = append(keep, i)
		}
	}
	c := Comparison{Replicates: len(keep), Means: make([]float64, len(values)), Rank: make([]int, len(values))}
	for p, xs := range values {
		var s float64
		for _, i := range keep {
			s += xs[i]
		}
		c.Means[p] = s / float64(len(keep))
	}
	d := make([]float64, len(keep))
	var raw []float64
	for a := range values {
		for b := a + 1; b < len(values); b++ {
			for k, i := range keep {
				d[k] = values[a][i] - values[b][i]
			}
			pr := Pair{A: a, B: b, Paired: pairedT(d)}
			c.Pairs = append(c.Pairs, pr)
			raw = append(raw, pr.P)
		}
	}
	for k, q := range Holm(raw) {
		c.Pairs[k].PHolm = q
		c.Pairs[k].Significant = q <= Alpha
	}
	c.rank(better)
	return c
}

// rank fills Rank: the policies in order of their means, best first (ties
// in input order), each one rank below the lowest-ranked policy before it
// that is significantly better. A policy is only ever compared with those
// before it in that order, so the ranks are well defined (no cycle) even
// where rounding made a difference of means and a mean difference
// disagree in sign.
func (c *Comparison) rank(better Better) {
	order := make([]int, len(c.Means))
	for i := range order {
		order[i] = i
	}
	sign := 1.0
	if better == Higher {
		sign = -1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := sign*c.Means[a], sign*c.Means[b]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	pair := func(a, b int) Pair {
		a, b = min(a, b), max(a, b)
		n := len(c.Means)
		return c.Pairs[a*n-a*(a+1)/2+(b-a-1)]
	}
	for k, q := range order {
		c.Rank[q] = 1
		for _, p := range order[:k] {
			if pair(p, q).Significant {
				c.Rank[q] = max(c.Rank[q], c.Rank[p]+1)
			}
		}
	}
}
