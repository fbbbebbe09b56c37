package estimators

import "math"

// PoissonCa2 is C_a² of Poisson arrivals (exponential inter-arrival times),
// the value docs/design.md §2 uses in the model component.
const PoissonCa2 = 1.0

// ModelWait is the model component W^model of the hybrid estimator (docs/design.md
// §2): the Allen–Cunneen G/G/c wait with Poisson arrivals (C_a² = 1),
// evaluated at the capped utilisation ρ̃ = min(ρ̂, ρ_max), ρ̂ = λ̂/(cμ):
//
//	W^model = C(c, ρ̃c) / (cμ(1 − ρ̃)) · (1 + C_s²)/2
//
// The cap keeps it finite when the rate estimate reaches or exceeds capacity,
// and it is non-decreasing in lambdaHat (flat above ρ_max·cμ).
//
// Preconditions: c ≥ 1, mu > 0, cs2 ≥ 0, 0 < rhoMax < 1, all finite; a
// negative lambdaHat counts as 0.
func ModelWait(c int, lambdaHat, mu, cs2, rhoMax float64) float64 {
	return ModelWaitCa2(c, lambdaHat, mu, PoissonCa2, cs2, rhoMax)
}

// QueueWait is the queue component W^queue of the hybrid estimator (docs/design.md
// §2), the time to drain the observed backlog plus this task at the tier's
// full rate:
//
//	W^queue = (q + 1)/(cμ)  when q > 0 or all c servers are busy (b ≥ c),
//	W^queue = 0             otherwise (a server is free).
func QueueWait(q, b, c int, mu float64) float64 {
	if q > 0 || b >= c {
		return float64(q+1) / (float64(c) * mu)
	}
	return 0
}

// Blend is the hybrid estimator's load-dependent weight on the queue
// component (the paper's β_i(t)):
//
//	β = min(1, q/c)
//
// 0 for an empty queue (trust the model), 1 once the backlog reaches one
// task per server (trust the observation).
func Blend(q, c int) float64 {
	if q >= c {
		return 1
	}
	if q <= 0 {
		return 0
	}
	return float64(q) / float64(c)
}

// Hybrid is the blended waiting-time estimate
//
//	Ŵ = (1 − β)·W^model + β·W^queue
//
// It returns wQueue exactly when beta is 1 and wModel exactly when beta is
// 0, so the docs/design.md §2 identities hold without rounding.
func Hybrid(beta, wModel, wQueue float64) float64 {
	switch beta {
	case 0:
		return wModel
	case 1:
		return wQueue
	}
	return blend(beta, wModel, wQueue)
}

// blend is (1 − β)·a + β·b, written once for Hybrid and the estimator's
// plain pass (Estimator.scores), and never inlined, so that both run the
// same machine code: Go may fuse a multiply and an add into one rounding
// (FMA, as on arm64, or on amd64 built with GOAMD64=v3), and inlined into
// two functions the compiler fused the one product in the one and the
// other in the other, a unit in the last place apart. Only a backlog
// between none and one task a server reaches it.
//
//go:noinline
func blend(beta, a, b float64) float64 { return (1-beta)*a + beta*b }

// HybridWait is the hybrid estimate Ŵ of docs/design.md §2 for one tier, from its
// observed state (q waiting, b busy of c servers), its per-server service
// rate mu, the estimated arrival rate lambdaHat, the service C_s² and the
// utilisation cap rhoMax. It composes ModelWait, QueueWait, Blend and Hybrid.
//
// Invariants (tested): for valid inputs the result is finite, ≥ 0, never NaN;
// non-decreasing in lambdaHat for a fixed backlog and in q for q ≥ c; equal
// to W^model at q = 0 and to W^queue at q ≥ c. For 0 < q < c it is not
// monotone in q: one more waiting task changes it by
// (2(q+1)/(cμ) − W^model)/c, which is negative while W^model > 2(q+1)/(cμ).
func HybridWait(q, b, c int, mu, lambdaHat, cs2, rhoMax float64) float64 {
	return Hybrid(Blend(q, c), ModelWait(c, lambdaHat, mu, cs2, rhoMax), QueueWait(q, b, c, mu))
}

// Penalty is the utilisation penalty of docs/design.md §2, a routing device that is
// not part of the prediction: above the threshold θ the score is inflated
// linearly in the excess utilisation,
//
//	score · (1 + k·(ρ̂ − θ)/(1 − θ))  when ρ̂ > θ,  score otherwise,
//
// so a tier at ρ̂ = 1 costs (1 + k) times its estimate. k = 0 switches the
// penalty off. Preconditions: 0 ≤ θ < 1, k ≥ 0, rho finite.
func Penalty(score, rho, theta, k float64) float64 {
	if k == 0 || !(rho > theta) {
		return score
	}
	return score * (1 + k*(rho-theta)/(1-theta))
}

// RelaxationTime is how long a tier's queue takes to forget its state, s:
// the M/M/1 relaxation time 1/(μ(1 − √ρ)²) (Morse 1955; Whitt 1989 uses it
// to size simulation runs) with the tier's full rate cμ in place of μ, at
// the capped utilisation ρ̃ = min(λ̂/(cμ), ρ_max). Near saturation it grows
// without bound (a backlog lasts), at light load it is about one service
// time of the whole tier. The age-aware estimator (ModeAge) discounts an
// observation older than this.
func RelaxationTime(c int, lambdaHat, mu, rhoMax float64) float64 {
	capacity := float64(c) * mu
	rho := min(max(lambdaHat/capacity, 0), rhoMax) // the builtins: math.Min and math.Max are calls, with the same results
	d := 1 - math.Sqrt(rho)
	return 1 / (capacity * d * d)
}
