package policies

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
	"github.com/offload-sim/offload/internal/lb"
)

var _ dispatch.Policy = (*staticOpt)(nil)

// staticOpt is the best static random split (docs/design.md §3.7): each
// task goes to tier i with a fixed probability p_i, whatever the state,
// the p_i minimising the predicted mean latency at the scenario's base
// arrival rate λ,
//
//	Σ_i p_i·(D̄_i + Ŵ_i(p_i λ) + 1/μ_i),
//
// Ŵ_i being the Allen–Cunneen wait of tier i fed a Poisson stream of rate
// p_i λ (+∞ at or above capacity). It is what a dispatcher that knows the
// rate but observes nothing can do best, and the classic baseline of
// optimal static routing (Bernoulli splitting).
//
// A draw is O(1) of the tiers, by Walker's alias method as Vose builds it
// ("A linear algorithm for generating random numbers with a given
// distribution", IEEE TSE 17(9), 1991): one uniform picks a column and,
// with its fraction, the column's tier or its alias.
//
// With many devices, each device's policy is cold in the caches when its
// turn comes, and each cache line a decision reads is a miss. So what it
// reads, the generator and (up to three tiers) the whole table, fills
// the first 64 bytes, and the value is 128 bytes, a size class whose
// objects the allocator places on cache-line boundaries: one line, where
// the table's two slices were two more.
type staticOpt struct {
	rng   *rand.Rand
	small [smallSplit]aliasColumn // the table of up to smallSplit tiers
	n     int                     // tiers
	cols  []aliasColumn           // the table: small[:n], or its own array past smallSplit tiers
	p     []float64
	_     [16]byte // to 128 bytes (TestStaticOptIsOneLine)
}

// smallSplit is the most tiers whose alias table the policy holds in
// itself.
const smallSplit = 3

// aliasColumn is column i of an alias table: it keeps tier i with
// probability prob, and gives alias otherwise.
type aliasColumn struct {
	prob  float64
	alias int32
}

func buildStaticOpt(b Build) (dispatch.Policy, error) {
	if !(b.Rate > 0) || math.IsInf(b.Rate, 0) {
		return nil, fmt.Errorf("needs the scenario's arrival rate (Build.Rate), got %v: build it with policies.Make", b.Rate)
	}
	return newStaticOpt(b.Tiers, b.Rate, b.Rand), nil
}

// newStaticOpt returns the best static split of arrival rate lambda over
// these tiers, drawing its choices from rng.
func newStaticOpt(tiers []dispatch.Tier, lambda float64, rng *rand.Rand) *staticOpt {
	p := staticSplit(tiers, lambda)
	s := &staticOpt{p: p, rng: rng, n: len(p)}
	s.cols = s.small[:0]
	if s.n > smallSplit {
		s.cols = make([]aliasColumn, 0, s.n)
	}
	prob, alias := lb.AliasTable(p)
	for i := range prob {
		s.cols = append(s.cols, aliasColumn{prob[i], alias[i]})
	}
	return s
}

// split returns the probabilities p_i.
func (s *staticOpt) split() []float64 { return slices.Clone(s.p) }

// Blind implements dispatch.Blind: the split ignores the state.
func (*staticOpt) Blind() {}

// Decide implements dispatch.Policy: one uniform draw u, the column
// ⌊u·n⌋ of the alias table, and its tier if the fraction of u·n is below
// the column's probability, its alias otherwise. A tier of probability 0
// is never chosen.
func (s *staticOpt) Decide(*dispatch.View) dispatch.Decision {
	x := s.rng.Float64() * float64(s.n)
	i := min(int(x), s.n-1)
	var c *aliasColumn
	if s.n <= smallSplit { // the first line alone
		c = &s.small[i]
	} else {
		c = &s.cols[i]
	}
	if x-float64(i) < c.prob {
		return dispatch.Decision{Tier: i}
	}
	return dispatch.Decision{Tier: int(c.alias)}
}

// splitCost is tier t's term p·(D̄ + Ŵ(pλ) + 1/μ) of the static objective.
func splitCost(t *dispatch.Tier, p, lambda float64) float64 {
	if p <= 0 {
		return 0
	}
	w := estimators.AllenCunneen(t.Servers, p*lambda, t.Mu, estimators.PoissonCa2, t.Cs2)
	return p * (t.MeanDelay + w + 1/t.Mu)
}

// staticCost is the predicted mean latency of split p.
func staticCost(tiers []dispatch.Tier, p []float64, lambda float64) float64 {
	var c float64
	for i := range tiers {
		c += splitCost(&tiers[i], p[i], lambda)
	}
	return c
}

// staticSplit minimises staticCost on the simplex by pairwise coordinate
// descent: for each pair of tiers in turn, the mass the two share is
// re-divided optimally by golden-section search, within the stretch where
// both stay below capacity. Each term p·Ŵ(pλ) is convex in p (the Erlang
// C wait is convex and increasing in the arrival rate, and so is its
// product with p), so the objective is a separable convex function and
// pairwise exchange converges to its minimum; sweeps repeat until one
// improves it by less than 10⁻¹⁴. It starts from the split in proportion
// to capacity c·μ, stable whenever any split is; when none is (λ ≥ Σ cμ)
// that proportional split is returned.
//
// Identical tiers (the same c, μ, D̄ and C_s²) have equal shares at the
// minimum (the objective is symmetric in them and strictly convex), so
// the descent runs over classes of identical tiers, a class of m sharing
// its mass s as m·cost(s/m): a sweep costs O(K²) for K classes, not O(n²)
// for n tiers, which at a pool of a thousand alike tiers is the
// difference between an hour and a moment. A class of one is a tier as
// before, to the bit.
func staticSplit(tiers []dispatch.Tier, lambda float64) []float64 {
	n := len(tiers)
	p := make([]float64, n)
	var total float64
	for _, t := range tiers {
		total += float64(t.Servers) * t.Mu
	}
	for i, t := range tiers {
		p[i] = float64(t.Servers) * t.Mu / total
	}
	if lambda >= total || n == 1 {
		return p
	}
	reps, size, class := tierClasses(tiers)
	share := make([]float64, len(reps)) // each class's mass
	for i, c := range class {
		if size[c] == 1 {
			share[c] = p[i]
		}
	}
	for c, t := range reps {
		if size[c] > 1 {
			share[c] = size[c] * float64(t.Servers) * t.Mu / total
		}
	}
	descend(reps, size, share, lambda)
	for i, c := range class {
		p[i] = share[c] / size[c]
	}
	return p
}

// tierClasses groups tiers that a split cannot tell apart (the same
// servers, μ, mean delay and cs²): reps has one tier a class, in order of
// first appearance, size the tiers of each class, class each tier's.
func tierClasses(tiers []dispatch.Tier) (reps []dispatch.Tier, size []float64, class []int) {
	type key struct {
		c             int
		mu, delay, cs float64
	}
	class = make([]int, len(tiers))
	seen := map[key]int{}
	for i, t := range tiers {
		k := key{t.Servers, t.Mu, t.MeanDelay, t.Cs2}
		c, ok := seen[k]
		if !ok {
			c = len(reps)
			seen[k] = c
			reps, size = append(reps, t), append(size, 0)
		}
		class[i] = c
		size[c]++
	}
	return reps, size, class
}

// descend is staticSplit's pairwise descent over classes of identical
// tiers: reps[k] is class k's tier, m[k] its number of tiers, s[k] its
// mass, which it changes in place.
func descend(reps []dispatch.Tier, m, s []float64, lambda float64) {
	k := len(reps)
	cost := func(c int, x float64) float64 { return m[c] * splitCost(&reps[c], x/m[c], lambda) }
	capa := make([]float64, k) // the largest stable mass, m·cμ/λ
	for c, t := range reps {
		capa[c] = m[c] * (float64(t.Servers) * t.Mu / lambda)
	}
	total := func() float64 {
		var v float64
		for c := range reps {
			v += cost(c, s[c])
		}
		return v
	}
	best := total()
	for range 500 {
		before := best
		for i := range k {
			for j := i + 1; j < k; j++ {
				sum := s[i] + s[j]
				if sum == 0 {
					continue
				}
				rest := best - cost(i, s[i]) - cost(j, s[j])
				g := func(x float64) float64 { return cost(i, x) + cost(j, sum-x) }
				lo, hi := math.Max(0, sum-capa[j]), math.Min(sum, capa[i])
				x := golden(g, lo, hi)
				cands := []float64{x}
				if lo == 0 {
					cands = append(cands, 0)
				}
				if hi == sum {
					cands = append(cands, sum)
				}
				bx, bv := s[i], g(s[i])
				for _, c := range cands {
					if v := g(c); v < bv {
						bx, bv = c, v
					}
				}
				s[i], s[j] = bx, sum-bx
				best = rest + bv
			}
		}
		best = total() // no drift from the running sums
		if before-best <= 1e-14*best {
			break
		}
	}
}
