package estimators

import "math"

// ErlangB is the Erlang loss probability B(c, a) of an M/M/c/c system with c
// servers and offered load a = λ/μ Erlangs.
//
// It uses the recursion on the inverse, 1/B_0 = 1,
// 1/B_k = 1 + (k/a)·(1/B_{k−1}), which only adds positive terms and is
// therefore stable for c in the hundreds or thousands (it overflows to +Inf,
// giving B = 0, only where B is below the smallest float64). It is the
// textbook recursion B_k = a·B_{k−1}/(k + a·B_{k−1}) turned upside down
// (Jagerman, "Some properties of the Erlang loss function", Bell System
// Technical Journal 53(3), 1974), and costs one multiply-add per server.
//
// a ≤ 0 gives 0 (and 1 when c ≤ 0).
func ErlangB(c int, a float64) float64 {
	if c <= 0 {
		return 1
	}
	if a <= 0 {
		return 0
	}
	return 1 / invErlangB(c, a)
}

// invErlangB is 1/B(c, a) for c ≥ 1, a > 0.
func invErlangB(c int, a float64) float64 {
	r := 1 / a
	inv := 1.0
	for k := 1; k <= c; k++ {
		inv = 1 + float64(k)*r*inv
	}
	return inv
}

// ErlangC is the Erlang C probability that an arriving task waits in an
// M/M/c queue with c servers and offered load a = λ/μ Erlangs:
//
//	C(c, a) = B / (1 − ρ(1 − B)),  B = ErlangB(c, a),  ρ = a/c,
//
// (Cooper, Introduction to Queueing Theory, 2nd ed., 1981, the relation
// between the Erlang loss and delay formulas). When a ≥ c the queue is
// unstable and every task waits: ErlangC returns 1. a ≤ 0 gives 0.
func ErlangC(c int, a float64) float64 {
	if a >= float64(c) {
		return 1
	}
	if a <= 0 {
		return 0
	}
	b := ErlangB(c, a)
	rho := a / float64(c)
	return b / (1 - rho*(1-b))
}

// MMcWait is the mean waiting time in the queue (not counting service) of an
// M/M/c queue with arrival rate lambda and per-server service rate mu:
//
//	W_q = C(c, λ/μ) / (cμ − λ)
//
// (Gross, Shortle, Thompson and Harris, Fundamentals of Queueing Theory, 4th
// ed., 2008, §2.3). It is +Inf when λ ≥ cμ and 0 when λ ≤ 0.
func MMcWait(c int, lambda, mu float64) float64 {
	capacity := float64(c) * mu
	if lambda >= capacity {
		return math.Inf(1)
	}
	if lambda <= 0 {
		return 0
	}
	return ErlangC(c, lambda/mu) / (capacity - lambda)
}

// AllenCunneen is the Allen–Cunneen approximation of the mean waiting time in
// a G/G/c queue, the M/M/c wait scaled by the arrival and service variability:
//
//	W_q ≈ C(c, λ/μ) / (cμ − λ) · (C_a² + C_s²)/2
//
// where ca2 and cs2 are the squared coefficients of variation of the
// inter-arrival and service times (Allen, Probability, Statistics, and
// Queueing Theory with Computer Science Applications, 2nd ed., Academic
// Press, 1990). It equals MMcWait when both are 1 and
// the Pollaczek–Khinchine mean for c = 1, ca2 = 1. It is +Inf when λ ≥ cμ.
func AllenCunneen(c int, lambda, mu, ca2, cs2 float64) float64 {
	w := MMcWait(c, lambda, mu)
	if w == 0 || math.IsInf(w, 1) {
		return w
	}
	return w * (ca2 + cs2) / 2
}
