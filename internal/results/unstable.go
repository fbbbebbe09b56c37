package results

import (
	"math"
	"strings"
)

// StabilityLevel is the family-wise level of the instability test: the
// largest chance that a cell none of whose tiers is loaded beyond its
// capacity is flagged unstable, whatever its number of tiers.
const StabilityLevel = 0.05

// The instability test (docs/design.md §5.4). A replicate measures tier i's
// offered load ρ̂ = W/(T·c·s) from the work W of the n tasks it sent there
// in the measured window T. Over a run, ρ̂ is a mean of n tasks' work, so
// its variance falls as the run grows: Var(ρ̂) ≈ ρ²·κ²/n, where κ² (the
// arrivals' and the sizes' squared coefficients of variation, c_a² + c_s²
// for a renewal stream of tasks) depends on the scenario and the policy,
// not on the run length. κ² is estimated from the replicates' spread,
// pooled over every (cell, policy, tier) of the runs that sent a tier
// tasks in at least two replicates, so that a cell with few replicates, or
// one loaded tier, still has a well-estimated noise. A tier is shown
// unstable when the one-sided test of "ρ ≤ 1" rejects at level α/k (α =
// StabilityLevel, k the cell's tiers: Bonferroni): T = (mean ρ̂ − 1)/SE,
// SE = κ̂·√(Σ_r 1/n_r)/R the standard error of the mean of R replicates at
// the boundary ρ = 1, against Student's t with the pooled degrees of
// freedom. A longer run (larger n) tells a smaller excess over 1; a cell of
// many tiers near capacity is not flagged by the chance high measure of
// one of them. Without any replicate spread (one replicate), a mean load
// ≥ 1 is flagged: there is nothing to test against.

// loadNoise is the pooled estimate of κ² and its degrees of freedom.
type loadNoise struct {
	kappa2 float64
	df     int
}

// tierLoads are one cell's measures of one tier: per replicate, the load
// and the tasks it rests on.
type tierLoads struct {
	rho, n []float64
}

// cellLoads gathers the loads of each tier (util_ column) of a cell's runs,
// with n = share × tasks (NaN where either is missing); a replicate without
// the load is left out.
func cellLoads(g []Run) []tierLoads {
	var out []tierLoads
	for j, c := range g[0].Cols {
		tier, ok := strings.CutPrefix(c.Name, "util_")
		if !ok {
			continue
		}
		var t tierLoads
		for _, r := range g {
			if rho := r.Get(c.Name); isFinite(rho) && j < len(r.Values) {
				t.rho, t.n = append(t.rho, rho), append(t.n, r.Get(ShareCol(tier))*r.Get(ColTasks))
			}
		}
		out = append(out, t)
	}
	return out
}

// pooledNoise estimates κ² from every cell's tiers that got tasks in at
// least two replicates: Σ n_r·(ρ̂_r − ρ̄)²/ρ̄² over the replicates, over
// Σ (R − 1).
func pooledNoise(groups [][]Run) loadNoise {
	var ss float64
	df := 0
	for _, g := range groups {
		for _, t := range cellLoads(g) {
			if len(t.rho) < 2 || slices0(t.n) {
				continue
			}
			mean := 0.0
			for _, x := range t.rho {
				mean += x
			}
			mean /= float64(len(t.rho))
			if !(mean > 0) {
				continue
			}
			for i, x := range t.rho {
				d := (x - mean) / mean
				ss += t.n[i] * d * d
			}
			df += len(t.rho) - 1
		}
	}
	if df == 0 {
		return loadNoise{kappa2: math.NaN()}
	}
	return loadNoise{kappa2: ss / float64(df), df: df}
}

// slices0 reports whether some task count is not positive (or unknown).
func slices0(n []float64) bool {
	for _, x := range n {
		if !(x > 0) {
			return true
		}
	}
	return false
}

// overloaded reports whether some tier of the cell is shown to be loaded
// beyond its capacity (the test above).
func overloaded(g []Run, noise loadNoise) bool {
	loads := cellLoads(g)
	k := len(loads)
	crit := math.NaN()
	for _, t := range loads {
		if len(t.rho) == 0 {
			continue
		}
		mean := 0.0
		for _, x := range t.rho {
			mean += x
		}
		mean /= float64(len(t.rho))
		if !(mean >= 1) {
			continue
		}
		if math.IsNaN(noise.kappa2) || slices0(t.n) {
			return true // nothing to test against: the point estimate
		}
		inv := 0.0
		for _, n := range t.n {
			inv += 1 / n
		}
		se := math.Sqrt(noise.kappa2*inv) / float64(len(t.rho))
		if se == 0 {
			if mean > 1 {
				return true
			}
			continue
		}
		if math.IsNaN(crit) {
			crit = tQuantile(1-StabilityLevel/float64(k), noise.df)
		}
		if (mean-1)/se > crit {
			return true
		}
	}
	return false
}
