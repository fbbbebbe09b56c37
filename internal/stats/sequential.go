package stats

import (
	"fmt"
	"math"
)

// Statistic is what the sequential rule makes precise: the mean of the
// replicates' values with a Student-t interval, or their median with an
// order-statistics interval.
type Statistic int

const (
	// Mean: MeanCI of the replicate values (a run's mean latency, say).
	Mean Statistic = iota
	// Median: MedianCI of the replicate values, for a value whose law
	// across replicates cannot be taken as normal (a run's P95 or P99):
	// the interval holds for any continuous law. The estimand is the median
	// over replicates of the run's percentile, which tends to the
	// percentile itself as the run grows, as the mean over replicates does.
	Median
)

// String returns "mean" or "median".
func (s Statistic) String() string {
	if s == Median {
		return "median"
	}
	return "mean"
}

// Estimate returns the statistic of xs with its interval.
func (s Statistic) Estimate(xs []float64) Estimate {
	if s == Median {
		return MedianCI(xs)
	}
	return MeanCI(xs)
}

// MinReplicates is the fewest replicates a Rule looks at before its first
// test (unless the cap is lower): Law & Kelton's recommended n₀ ≥ 10.
const MinReplicates = 10

// Rule is the sequential relative-precision rule for the replicates of one
// cell. The replicates of a cell are paired across its policies by common
// random numbers, so the rule makes one decision for the whole cell: stop
// when every policy's 95% interval has a half-width at most Target times its
// center, otherwise add replicates, up to Max.
//
// It is the relative-precision procedure of Law & Kelton (Simulation
// Modeling and Analysis, §9.4.1, "Obtaining a specified precision"; Law,
// Kelton & Koenig, Communications in Statistics B 10(1), 1981), whose step
// is: after n replicates, stop if δ(n)/|X̄(n)| ≤ γ′, where δ(n) is the
// half-width. Two differences, both chosen:
//
//   - The test is the relative half-width against R itself (γ′ = R), the
//     precision a user asks for. Law & Kelton test against γ′ = γ/(1 + γ)
//     to bound the relative error |X̄ − μ|/|μ| by γ; with γ′ = R the bound
//     holds with γ = R/(1 − R) (from |X̄ − μ| ≤ δ ≤ R|X̄| ≤ R|μ| + R|X̄ − μ|):
//     1.0101% for R = 1%.
//   - Instead of one replicate at a time, a look that fails jumps to Law &
//     Kelton's own estimate of the replicates needed (Next), so that a
//     cell takes a few looks rather than hundreds, and each look's new
//     replicates can run in parallel. Fewer looks also means fewer chances
//     to stop on a lucky draw (below).
//
// The bias: the number of replicates is random and depends on the same
// values as the interval. The rule stops as soon as the sample variance
// happens to be small, so the final interval is too short more often than
// a fixed-n interval, and its coverage falls below 95%. The selection
// acts at every look that can go either way (also the look a projection
// brings near the need, where about half the runs stop: those with the
// smaller variance), and it is worst when the rule may stop on few
// replicates, whose variance estimate is the noisiest. Asymptotically
// (R → 0) the coverage is the nominal one (Chow & Robbins, Ann. Math.
// Statist. 36, 1965; Nádas, ibid. 40, 1969); at finite R Law & Kelton,
// from the experiments of Law, Kelton & Koenig, recommend n₀ ≥ 10 and
// γ ≤ 0.15, which is why the first test waits for Min ≥ MinReplicates
// replicates. The coverage study (StudyCoverage) measures the shortfall;
// docs/correctness.md gives the figures.
type Rule struct {
	Target float64   // R: the largest relative half-width accepted, in (0, 1)
	Min    int       // replicates before the first test: max(seeds, MinReplicates), at most Max
	Max    int       // the cap: the rule stops here, met or not
	On     Statistic // the statistic made precise
}

// NewRule returns the rule for a target R, the replicates a run asks for
// (seeds) and a cap (maxSeeds). The names in its errors are the
// command-line flags the values come from.
func NewRule(target float64, seeds, maxSeeds int, on Statistic) (Rule, error) {
	switch {
	case !(target > 0 && target < 1):
		return Rule{}, fmt.Errorf("--precision %v: the target relative half-width must be above 0 and below 1 (e.g. 0.01 for ±1%%)", target)
	case maxSeeds < 2:
		return Rule{}, fmt.Errorf("--max-seeds %d: the cap must be at least 2 replicates (an interval needs two)", maxSeeds)
	case seeds < 1:
		return Rule{}, fmt.Errorf("--seeds %d: at least 1 replicate", seeds)
	case on != Mean && on != Median:
		return Rule{}, fmt.Errorf("statistic %d: allowed are mean (%d) and median (%d)", on, Mean, Median)
	}
	return Rule{Target: target, Min: min(max(seeds, MinReplicates), maxSeeds), Max: maxSeeds, On: on}, nil
}

// Decision is what a Rule says after a look at a cell's replicates.
type Decision struct {
	N      int  // the replicates looked at, per policy
	Stop   bool // the cell is done: Met, or capped
	Met    bool // every policy's relative half-width is at most Target (NaN is not)
	Capped bool // stopped at Max without Met
	// Next is how many replicates the cell should have in all before the
	// next look: N when Stop, otherwise in (N, Max]. It depends only on
	// the values looked at, so the replicates a run makes do not depend on
	// the number of workers or the order in which they finish.
	Next int
	// Precision is each policy's relative half-width (Estimate.Relative),
	// in the order of the values: summary.csv's precision.
	Precision []float64
	// Worst is the policy with the largest relative half-width, the first
	// on ties, NaN counting as largest; it sets Next.
	Worst int
}

// Decide looks at values[p][i], the value of replicate i for policy p, and
// says whether to stop and, if not, how many replicates to have before the
// next look. Every policy must have the same number of replicates (they
// are paired); Decide panics otherwise, or without a policy. A non-finite
// value is skipped, as summary.csv skips it.
//
// Before Min replicates it does not test and asks for Min. After a failed
// test Next is, for the mean, Law & Kelton's approximate number of
// replicates for the worst policy,
//
//	n*(R) = min{ i > n : t_{i−1, 0.975} · s/√i ≤ R·|x̄| }   (§9.4.1, with γ′ = R),
//
// with s and x̄ that policy's standard deviation and mean; for the median
// the interval narrows as 1/√n too, and Next = ⌈n·(h/(R·m))²⌉ with h/m its
// relative half-width now. Both are capped at Max. A policy whose
// precision cannot be computed (fewer values than an interval needs, or a
// center of 0) doubles n instead.
func (r Rule) Decide(values [][]float64) Decision {
	if len(values) == 0 {
		panic("stats: Decide without a policy")
	}
	n := len(values[0])
	d := Decision{N: n, Precision: make([]float64, len(values))}
	var worst Estimate
	for p, xs := range values {
		if len(xs) != n {
			panic(fmt.Sprintf("stats: Decide: policy %d has %d replicates, policy 0 has %d: they must be paired", p, len(xs), n))
		}
		e := r.On.Estimate(xs)
		d.Precision[p] = e.Relative()
		if p == 0 || worse(d.Precision[p], d.Precision[d.Worst]) {
			d.Worst, worst = p, e
		}
	}
	d.Met = d.Precision[d.Worst] <= r.Target
	switch {
	case n < r.Min:
		d.Next = r.Min
	case d.Met:
		d.Stop, d.Next = true, n
	case n >= r.Max:
		d.Stop, d.Capped, d.Next = true, true, n
	default:
		d.Next = min(r.next(worst, n), r.Max)
	}
	return d
}

// worse orders relative half-widths for Decide: NaN above everything.
func worse(a, b float64) bool {
	return !math.IsNaN(b) && (math.IsNaN(a) || a > b)
}

// next returns the projected replicates for estimate e of the worst
// policy after n replicates (before the cap), always above n.
func (r Rule) next(e Estimate, n int) int {
	rel := e.Relative()
	if math.IsNaN(rel) || math.IsInf(rel, 0) {
		return 2 * max(n, 1)
	}
	if r.On == Median {
		return max(n+1, ceilInt(float64(n)*(rel/r.Target)*(rel/r.Target)))
	}
	// s/|x̄| recovered from the interval: Half = t_{N−1}·s/√N.
	cv := rel * math.Sqrt(float64(e.N)) / TQuantile(e.N-1)
	// t_{i−1} > z for every i, so no i below (z·cv/R)² can pass: start
	// there, and step up to the first i that does.
	z := 1.959963984540054 // the standard normal's 0.975 quantile
	i := max(n+1, ceilInt((z*cv/r.Target)*(z*cv/r.Target)))
	for ; i < r.Max; i++ {
		if TQuantile(i-1)*cv/math.Sqrt(float64(i)) <= r.Target {
			break
		}
	}
	return i
}

// ceilInt is ⌈x⌉ for x ≥ 0, saturating far above any replicate count.
func ceilInt(x float64) int {
	if x >= 1<<40 {
		return 1 << 40
	}
	return int(math.Ceil(x))
}
