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
// Beyond recursionServers servers it sums Poisson ratios instead
// (invErlangBLarge), in O(√c) steps at most and about as accurately: within
// 2.3·10⁻¹³ of a 256-bit sum where the recursion is within 9.4·10⁻¹⁴, up to
// 20,000 servers (TestErlangBLargeAgainstExact).
//
// a ≤ 0 gives 0 (and 1 when c ≤ 0); a NaN gives NaN.
func ErlangB(c int, a float64) float64 {
	if c <= 0 {
		return 1
	}
	if a <= 0 {
		return 0
	}
	if c > recursionServers {
		return 1 / invErlangBLarge(c, a)
	}
	return 1 / invErlangB(c, a)
}

// recursionServers is the most servers for which ErlangB runs the
// recursion, one dependent multiply-add a server, on every memo miss of an
// Estimator: linear in the servers, where the sums beyond it take about
// √c terms at most (BenchmarkErlangB; docs/performance.md). Up to it, which
// covers every shipped scenario (16 servers at most), the results are the
// recursion's to the bit.
const recursionServers = 256

// invErlangBLarge is 1/B(c, a) for c ≥ 1, a > 0, without a step per
// server. With N Poisson of mean a, B = P(N = c)/P(N ≤ c), so
//
//	1/B = Σ_{j=0}^{c} Π_{i<j} (c−i)/a                       (a ≥ c)
//	1/B = 1/P(N = c) − Σ_{n≥1} Π_{i=1}^{n} a/(c+i)            (a < c)
//
// The first is the recursion's sum, from its other end; the second is
// 1/P(N = c) less the ratios P(N = c+n)/P(N = c) of the tail P(N > c). In
// both, each term is the last times a ratio r < 1 that falls from term to
// term, so the rest of the sum after a term t is below t·r/(1−r): the sum
// stops when that is below 2⁻⁵³ of it (at most an ulp). The terms fall at
// least as fast as exp(−n²/(2c)) as well as rⁿ, so a sum takes at most
// about 9√c terms, fewer at light load (a ≤ c/2: under 60). Every term is
// positive, and the subtraction loses a bit at most: P(N > c) ≤ ½ ≤
// P(N ≤ c) where a < c, so the tail is at most half of 1/P(N = c).
//
// ln P(N = c) = E − (ln c! − c·ln c + c), E = c·ln(a/c) − (a − c): the
// terms c·ln c that cancel in −a + c·ln a − ln c! are taken out by hand
// (stirling), so that E's rounding is that of numbers no larger than a few
// times E, not of c·ln c. Near a = c, E is c·(ln(1+d) − d) with d =
// (a − c)/c, by its series (log1pmx), where ln(a/c) − (a − c)/c would
// cancel; from a = c/2 down, c·ln(a/c) directly, where d's rounding,
// amplified by about 1/ρ in ln(1+d), would cost up to ten times more. The
// exponential turns E's few roundings into the relative error of 1/B, so
// the error grows with |ln B| as the recursion's does not, but stays
// within 10 roundings of it (TestErlangBLargeAgainstExact).
func invErlangBLarge(c int, a float64) float64 {
	const eps = 0x1p-53
	cf := float64(c)
	if a != a { // NaN, which no loop below would end on
		return a
	}
	if a >= cf {
		sum, t := 1.0, 1.0
		for j := range c {
			r := float64(c-j) / a
			t *= r
			sum += t
			if t*r <= (1-r)*eps*sum {
				break
			}
		}
		return sum
	}
	var e float64
	if a < cf/2 {
		e = cf*math.Log(a/cf) - (a - cf)
	} else {
		e = cf * log1pmx((a-cf)/cf)
	}
	inv := math.Exp(-(e - stirling(cf)))
	if math.IsInf(inv, 1) { // B < 1/MaxFloat64: 0, as by the recursion
		return inv
	}
	tail, t := 0.0, 1.0
	for i := 1; ; i++ {
		r := a / (cf + float64(i))
		t *= r
		tail += t
		if t*r <= (1-r)*eps*tail {
			break
		}
	}
	return inv - tail
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

// stirling is ln c! − (c·ln c − c), c ≥ 256, by Stirling's series to the
// c⁻⁵ term: the next, 1/(1680c⁷), is below 10⁻²⁰.
func stirling(c float64) float64 {
	ic := 1 / c
	ic2 := ic * ic
	return 0.5*math.Log(2*math.Pi*c) + ic*(1.0/12-ic2*(1.0/360-ic2*(1.0/1260)))
}

// log1pmx is ln(1+x) − x for x > −1, to a few ulps also where the two
// nearly cancel (small x): there by its series −x²/2 + x³/3 − …, whose
// terms fall by |x| ≤ 1/4 or more each.
func log1pmx(x float64) float64 {
	if !(math.Abs(x) <= 0.25) { // and a NaN, which the series would not end on
		return math.Log1p(x) - x
	}
	sum, p := 0.0, -x
	for k := 2; ; k++ {
		p *= -x
		term := p / float64(k)
		sum -= term
		if math.Abs(term) <= 0x1p-54*math.Abs(sum) {
			return sum
		}
	}
}
