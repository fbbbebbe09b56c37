package policies

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
	"github.com/offload-sim/offload/internal/workload"
)

var (
	_ dispatch.Policy      = (*sita)(nil)
	_ dispatch.Clairvoyant = (*sita)(nil)
)

// sita is size-interval task assignment (docs/design.md §3.7): the size
// axis is cut into one interval per tier, and a task goes to the tier of the
// interval its size falls in. The tiers take the intervals in order of mean
// delay (then speed, then position): the smallest sizes go to the tier
// nearest the device. The cutoffs are computed once, from the scenario's
// size law, by sita-e (each tier's share of the work ∝ its capacity c·s)
// or sita-opt (the predicted mean latency minimised).
//
// It reads the task's own size at the decision (v.Oracle.TaskSize()), so it
// is dispatch.Clairvoyant about that size, as the oracle is; it sees nothing
// else of the oracle.
type sita struct {
	// cutoffs are ascending; interval j holds the sizes in
	// (cutoffs[j−1], cutoffs[j]], the first from 0, the last to +∞.
	cutoffs []float64
	tierOf  []int // interval j → tier
}

// Clairvoyant marks SITA as needing View.Oracle (for the task's size).
func (*sita) Clairvoyant() {}

// Blind implements dispatch.Blind: the interval is the task's size alone.
func (*sita) Blind() {}

// Decide implements dispatch.Policy. It panics if v.Oracle is nil.
func (p *sita) Decide(v *dispatch.View) dispatch.Decision {
	if v.Oracle == nil {
		panic("policies: sita decided without View.Oracle; the caller must set it for dispatch.Clairvoyant policies")
	}
	j, _ := slices.BinarySearch(p.cutoffs, v.Oracle.TaskSize())
	return dispatch.Decision{Tier: p.tierOf[j]}
}

// bounds returns the interval boundaries, ascending (one fewer than the
// intervals), and the tier of each interval.
func (p *sita) bounds() (cutoffs []float64, tiers []int) {
	return slices.Clone(p.cutoffs), slices.Clone(p.tierOf)
}

// sizeOrder is the tiers in the order they take the size intervals: by mean
// delay, then speed (the slower servers the smaller sizes), then position.
func sizeOrder(tiers []dispatch.Tier) []int {
	order := make([]int, len(tiers))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(tiers[a].MeanDelay, tiers[b].MeanDelay); c != 0 {
			return c
		}
		return cmp.Compare(tiers[a].Speed, tiers[b].Speed)
	})
	return order
}

func needSizes(b Build) error {
	if !(b.Sizes.Mean() > 0) {
		return errors.New("needs the scenario's size distribution (Build.Sizes): build it with policies.Make")
	}
	return nil
}

func capacity(t dispatch.Tier) float64 { return float64(t.Servers) * t.Speed }

// largestTier is the tier of largest capacity c·s (the first on a tie): the
// one interval's tier when sizes are constant.
func largestTier(tiers []dispatch.Tier) int {
	best := 0
	for i, t := range tiers {
		if capacity(t) > capacity(tiers[best]) {
			best = i
		}
	}
	return best
}

// sitaEqual returns sita-e's cutoffs: with the tiers in sizeOrder, the
// j-th cutoff is the size below which a fraction W_j = Σ_{k≤j} c_k s_k / Σ c s
// of the work lies (workload.Dist.WorkQuantile, closed form for Pareto and
// lognormal), so that each interval carries work in proportion to its
// tier's capacity and, under any arrival rate, every tier runs at the same
// offered load. Constant sizes cannot be split: one interval, the tier of
// largest capacity.
func sitaEqual(tiers []dispatch.Tier, sizes workload.Dist) *sita {
	if sizes.Kind() == workload.Deterministic {
		return &sita{tierOf: []int{largestTier(tiers)}}
	}
	order := sizeOrder(tiers)
	var total float64
	for _, t := range tiers {
		total += capacity(t)
	}
	p := &sita{tierOf: order}
	var cum float64
	for _, i := range order[:len(order)-1] {
		cum += capacity(tiers[i])
		p.cutoffs = append(p.cutoffs, sizes.WorkQuantile(cum/total))
	}
	return p
}

func buildSITAE(b Build) (dispatch.Policy, error) {
	if err := needSizes(b); err != nil {
		return nil, err
	}
	return sitaEqual(b.Tiers, b.Sizes), nil
}

func buildSITAOpt(b Build) (dispatch.Policy, error) {
	if err := needSizes(b); err != nil {
		return nil, err
	}
	if !(b.Rate > 0) || math.IsInf(b.Rate, 0) {
		return nil, fmt.Errorf("needs the scenario's arrival rate (Build.Rate), got %v: build it with policies.Make", b.Rate)
	}
	return sitaOptimal(b.Tiers, b.Sizes, b.Rate), nil
}

// sitaModel predicts the mean latency of a size-interval split at arrival
// rate lambda: each tier is an M/G/c queue fed the Poisson thinning of the
// arrivals whose size falls in its interval, with that interval's own mean
// size and C_s² (from the truncated law's first two partial moments), and
// its wait is Allen–Cunneen's (docs/design.md §2.5):
//
//	L = Σ_j P_j·(D̄_j + Ŵ_j) + E[X; X ∈ I_j]/s_j
//
// +Inf when some tier would be at or above capacity.
type sitaModel struct {
	tiers  []dispatch.Tier
	order  []int
	sizes  workload.Dist
	lambda float64
}

// cut is the cutoff at quantile p: 0 and +∞ at the ends.
func (m *sitaModel) cut(p float64) float64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return math.Inf(1)
	}
	return m.sizes.Quantile(p)
}

// latency is the predicted mean latency with the cutoffs at quantiles ps
// (ascending, one fewer than the tiers).
func (m *sitaModel) latency(ps []float64) float64 {
	var total float64
	a := 0.0
	for j, i := range m.order {
		b := math.Inf(1)
		if j < len(ps) {
			b = m.cut(ps[j])
		}
		lo := a
		a = b
		prob := m.sizes.PartialMoment(0, lo, b)
		if !(prob > 1e-300) {
			continue // an empty interval: the tier gets nothing
		}
		m1, m2 := m.sizes.PartialMoment(1, lo, b), m.sizes.PartialMoment(2, lo, b)
		t := &m.tiers[i]
		mean := m1 / prob
		cs2 := math.Max(0, m2*prob/(m1*m1)-1)
		w := estimators.AllenCunneen(t.Servers, m.lambda*prob, t.Speed/mean, estimators.PoissonCa2, cs2)
		if math.IsInf(w, 1) || math.IsNaN(w) {
			return math.Inf(1)
		}
		total += prob*(t.MeanDelay+w) + m1/t.Speed
	}
	return total
}

// sitaOptimal returns sita-opt's cutoffs: those of least predicted mean
// latency (sitaModel) with the tiers in sizeOrder, found by coordinate
// search in quantile space from sita-e's cutoffs (always stable when the
// system is): each cutoff in turn is moved to the best point between its
// neighbours, by golden-section search inside the stretch where every tier
// stays below capacity, and the sweeps repeat until an improvement is below
// 10⁻¹² of the latency. Along one cutoff only two tiers' loads change, one up
// and one down, so that stretch is an interval, found by bisection. An
// interval may end up empty (a tier not worth using). On the default
// continuum at 10, 100 and 200 tasks/s the result is never above the best
// point of a 400 × 400 grid over the two cutoffs (that point is above it by
// at most 5·10⁻⁶ relative), and no move of 10⁻⁵ to 10⁻³ in quantile, along
// an axis or a diagonal, improves it (TestSITAOptAgainstGrid). When no split is stable (the arrival rate at or
// beyond the total capacity) it keeps sita-e's cutoffs.
func sitaOptimal(tiers []dispatch.Tier, sizes workload.Dist, lambda float64) *sita {
	m := &sitaModel{tiers: tiers, order: sizeOrder(tiers), sizes: sizes, lambda: lambda}
	if sizes.Kind() == workload.Deterministic {
		return m.single()
	}
	start := sitaEqual(tiers, sizes)
	ps := make([]float64, len(start.cutoffs))
	for j, x := range start.cutoffs {
		ps[j] = sizes.CDF(x)
	}
	best := m.latency(ps)
	if math.IsInf(best, 1) {
		return start
	}
	for range 200 {
		before := best
		for j := range ps {
			best = m.improve(ps, j, best)
		}
		if before-best <= 1e-12*best {
			break
		}
	}
	p := &sita{tierOf: m.order}
	for _, q := range ps {
		p.cutoffs = append(p.cutoffs, m.cut(q))
	}
	return p
}

// single is the best one tier for every task when all sizes are equal
// (no cutoff separates them): the least predicted latency, the largest
// tier when none is finite.
func (m *sitaModel) single() *sita {
	best, bestL := largestTier(m.tiers), math.Inf(1)
	for i := range m.tiers {
		m.order = []int{i}
		if l := m.latency(nil); l < bestL {
			best, bestL = i, l
		}
	}
	return &sita{tierOf: []int{best}}
}

// improve moves cutoff quantile ps[j], between its neighbours, to where
// the predicted latency is least (a golden-section search over its
// feasible range, and the range's ends), if that beats best, the latency
// at ps; it returns the latency at the new ps.
func (m *sitaModel) improve(ps []float64, j int, best float64) float64 {
	lo, hi := 0.0, 1.0
	if j > 0 {
		lo = ps[j-1]
	}
	if j+1 < len(ps) {
		hi = ps[j+1]
	}
	cur := ps[j]
	f := func(x float64) float64 {
		ps[j] = x
		v := m.latency(ps)
		ps[j] = cur
		return v
	}
	lo, hi = feasibleEdge(f, cur, lo), feasibleEdge(f, cur, hi)
	for _, x := range []float64{golden(f, lo, hi), lo, hi} {
		if v := f(x); v < best {
			best, cur = v, x
		}
	}
	ps[j] = cur
	return best
}

// feasibleEdge is the point nearest out, between in (where f is finite) and
// out, at which f is still finite: out itself, or the limit found by
// bisection.
func feasibleEdge(f func(float64) float64, in, out float64) float64 {
	if !math.IsInf(f(out), 1) {
		return out
	}
	for range 100 {
		mid := in + (out-in)/2
		if mid == in || mid == out {
			break
		}
		if math.IsInf(f(mid), 1) {
			out = mid
		} else {
			in = mid
		}
	}
	return in
}

// golden is the golden-section search for a minimum of f on [a, b], to
// 10⁻¹³ of the interval's scale; f is assumed unimodal there (a convex or
// quasi-convex cost).
func golden(f func(float64) float64, a, b float64) float64 {
	const r = 0.6180339887498949 // (√5 − 1)/2
	x1, x2 := b-r*(b-a), a+r*(b-a)
	f1, f2 := f(x1), f(x2)
	for range 200 {
		if b-a <= 1e-13*math.Max(1, math.Abs(a)+math.Abs(b)) {
			break
		}
		if f1 <= f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - r*(b-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + r*(b-a)
			f2 = f(x2)
		}
	}
	if f1 <= f2 {
		return x1
	}
	return x2
}
