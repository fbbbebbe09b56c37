// Package workload holds the random quantities of a run that do not depend on
// the policy: task-size distributions and communication delays. Every sampler
// takes its *rand.Rand as an argument, so that the workload streams stay
// separate from a policy's own randomness (common random numbers, docs/design.md §4).
package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Kind names a distribution family.
type Kind uint8

// The distribution families of docs/design.md §5.
const (
	Deterministic Kind = iota
	Exponential
	Pareto
	Lognormal
	BoundedPareto
	Empirical
)

var kindNames = [...]string{Deterministic: "deterministic", Exponential: "exponential", Pareto: "pareto", Lognormal: "lognormal", BoundedPareto: "bounded-pareto", Empirical: "empirical"}

// String returns the scenario spelling of k.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Dist is a positive distribution with a given mean. Its zero value is the
// constant 0 (no delay). Build it with New, NewBoundedPareto, NewEmpirical,
// Const or LognormalDelay.
type Dist struct {
	kind  Kind
	mean  float64
	alpha float64 // pareto shape
	cv    float64 // lognormal coefficient of variation
	// Derived parameters, computed once so that Sample does no set-up work.
	xm, invAlpha float64 // pareto scale (bounded pareto: low) and 1/α
	hi           float64 // bounded pareto upper bound
	mu, sigma    float64 // lognormal log-mean and log-sd
	emp          *empirical
}

// New builds a distribution of the given family and mean. alpha is read for
// pareto (it must exceed 2: at α ≤ 2 the variance is infinite), cv for
// lognormal (cv 0 is the constant mean).
func New(kind string, mean, alpha, cv float64) (Dist, error) {
	if !(mean > 0) || math.IsInf(mean, 0) {
		return Dist{}, fmt.Errorf("mean %v: must be finite and > 0", mean)
	}
	switch kind {
	case "deterministic":
		return Const(mean), nil
	case "exponential":
		return Dist{kind: Exponential, mean: mean}, nil
	case "pareto":
		if !(alpha > 2) || math.IsInf(alpha, 0) {
			return Dist{}, fmt.Errorf("pareto alpha %v: must be finite and > 2 (alpha ≤ 2 has infinite variance)", alpha)
		}
		// E[X] = α·x_m/(α−1) for a Pareto(x_m, α); solve for x_m.
		return Dist{kind: Pareto, mean: mean, alpha: alpha, xm: mean * (alpha - 1) / alpha, invAlpha: 1 / alpha}, nil
	case "lognormal":
		return LognormalDelay(mean, cv)
	}
	return Dist{}, fmt.Errorf("unknown distribution %q (allowed: pareto, exponential, deterministic, lognormal)", kind)
}

// Const is the distribution that always gives v.
func Const(v float64) Dist { return Dist{kind: Deterministic, mean: v} }

// LognormalDelay is the lognormal with this mean and coefficient of variation:
// σ² = ln(1 + cv²), μ = ln(mean) − σ²/2. A cv of 0 (or a mean of 0) is the
// constant mean.
func LognormalDelay(mean, cv float64) (Dist, error) {
	if !(mean >= 0) || math.IsInf(mean, 0) || !(cv >= 0) || math.IsInf(cv, 0) {
		return Dist{}, fmt.Errorf("lognormal mean %v, cv %v: need mean ≥ 0 and cv ≥ 0, finite", mean, cv)
	}
	if cv == 0 || mean == 0 {
		return Const(mean), nil
	}
	s2 := math.Log1p(cv * cv)
	return Dist{kind: Lognormal, mean: mean, cv: cv, mu: math.Log(mean) - s2/2, sigma: math.Sqrt(s2)}, nil
}

// Kind is the distribution family.
func (d Dist) Kind() Kind { return d.kind }

// Mean is E[X].
func (d Dist) Mean() float64 { return d.mean }

// Random reports whether Sample draws from its generator. A constant never
// does, so the stream of the other quantities does not depend on it.
func (d Dist) Random() bool { return d.kind != Deterministic }

// Sample draws one value. It allocates nothing: gonum's distuv.Pareto.Rand
// would build a rand.Rand per call, which this hot path cannot afford. Its
// receiver is a pointer because a Dist is 88 bytes, which a value receiver
// would copy at each of a task's draws.
func (d *Dist) Sample(r *rand.Rand) float64 {
	switch d.kind {
	case Exponential:
		return d.mean * r.ExpFloat64()
	case Pareto:
		// Inversion: X = x_m · U^(−1/α) with U uniform on (0, 1].
		return d.xm * math.Pow(1-r.Float64(), -d.invAlpha)
	case Lognormal:
		return math.Exp(d.mu + d.sigma*r.NormFloat64())
	case BoundedPareto:
		return d.bpQuantile(r.Float64())
	case Empirical:
		return d.emp.x[r.IntN(len(d.emp.x))]
	}
	return d.mean
}

// Quantile is the p-quantile, p in (0, 1).
func (d Dist) Quantile(p float64) float64 {
	switch d.kind {
	case Exponential:
		return -d.mean * math.Log1p(-p)
	case Pareto:
		return d.xm * math.Pow(1-p, -d.invAlpha)
	case Lognormal:
		return math.Exp(d.mu + d.sigma*math.Sqrt2*math.Erfinv(2*p-1))
	case BoundedPareto:
		return d.bpQuantile(p)
	case Empirical:
		return d.empQuantile(p)
	}
	return d.mean
}

// Cs2 is the squared coefficient of variation Var[X]/E[X]²: 0 deterministic,
// 1 exponential, cv² lognormal, 1/(α(α−2)) Pareto. A service time size/speed
// has the same Cs2 as the size.
func (d Dist) Cs2() float64 {
	switch d.kind {
	case Exponential:
		return 1
	case Pareto:
		return 1 / (d.alpha * (d.alpha - 2))
	case Lognormal:
		return d.cv * d.cv
	case BoundedPareto:
		return d.bpCs2()
	case Empirical:
		return d.empCs2()
	}
	return 0
}

// Streams are the workload's random streams, kept apart from each other and
// from a policy's own generator so that every policy sees the same arrival
// times, sizes and delays for one replicate (common random numbers).
type Streams struct {
	Arrivals, Sizes *rand.Rand
	// Delays is counter-based (Keyed): a task's delay to a tier is drawn
	// only when read, and is the same whoever reads it.
	Delays Keyed
	// Data draws the tasks' data and reply sizes (DataLaw); only a
	// scenario with a random data law reads it.
	Data *rand.Rand
}

// The stream ids of a replicate: 1–3 are the workload's, PolicyStream is a
// policy's own coin flips, ObserveStream a device's observation draws,
// BoardStream the shared board's, DataStream the tasks' data and reply
// sizes (workload: data, docs/design.md §1.5). Device d > 0 of a run with several uses
// the same ids plus d·DeviceStride, so device 0 has exactly the streams of
// a run with one device; adding a stream never shifts the existing ones.
const (
	ArrivalStream = 1
	SizeStream    = 2
	DelayStream   = 3
	PolicyStream  = 4
	ObserveStream = 5
	BoardStream   = 6
	DataStream    = 7
	DeviceStride  = 8
)

// DeviceStreams are device d's workload streams in replicate rep: those of
// NewStreams for device 0.
func DeviceStreams(seed uint64, rep, d int) Streams {
	off := uint64(d) * DeviceStride
	return Streams{Arrivals: Stream(seed, rep, ArrivalStream+off), Sizes: Stream(seed, rep, SizeStream+off), Delays: NewKeyed(seed, rep, DelayStream+off),
		Data: Stream(seed, rep, DataStream+off)}
}

// NewStreams derives the three workload streams of replicate rep from a
// master seed: PCG's two seed words carry (seed, stream id ⊕ replicate).
func NewStreams(seed uint64, rep int) Streams {
	return DeviceStreams(seed, rep, 0)
}

// Stream is the generator of stream id of replicate rep.
func Stream(seed uint64, rep int, id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, StreamID(rep, id)))
}

// StreamID packs a replicate number and a stream id into PCG's second seed
// word.
func StreamID(rep int, id uint64) uint64 { return uint64(rep)<<16 | id }

// Alpha is the Pareto shape (0 for the other families).
func (d Dist) Alpha() float64 { return d.alpha }

// CDF is P(X ≤ x).
func (d Dist) CDF(x float64) float64 {
	switch d.kind {
	case Exponential:
		if x <= 0 {
			return 0
		}
		return -math.Expm1(-x / d.mean)
	case Pareto:
		if x <= d.xm {
			return 0
		}
		return 1 - math.Pow(d.xm/x, d.alpha)
	case Lognormal:
		if x <= 0 {
			return 0
		}
		return normCDF((math.Log(x) - d.mu) / d.sigma)
	case BoundedPareto:
		return d.bpCDF(x)
	case Empirical:
		return d.empCDF(x)
	}
	if x < d.mean {
		return 0
	}
	return 1
}

// Moment is E[X^k] for k = 0, 1, 2.
func (d Dist) Moment(k int) float64 { return d.upper(k, math.Inf(-1)) }

// PartialMoment is E[X^k; a < X ≤ b] for k = 0 (a probability), 1 or 2
// (a ≤ b; b may be +Inf). Each family's is closed form (docs/design.md
// §3.7): Pareto E[X^k]·((x_m/a)^(α−k) − (x_m/b)^(α−k)) above x_m;
// exponential through e^(−y)·Σ y^j/j!; lognormal
// e^(kμ + k²σ²/2)·Φ((ln x − μ − kσ²)/σ). It subtracts lower-tail values
// below the median and upper-tail values above it, so that neither a short
// first interval nor a far tail loses its digits to cancellation.
func (d Dist) PartialMoment(k int, a, b float64) float64 {
	if !(b > a) {
		return 0
	}
	med := d.Quantile(0.5)
	switch {
	case b <= med:
		return math.Max(0, d.lower(k, b)-d.lower(k, a))
	case a >= med:
		return math.Max(0, d.upper(k, a)-d.upper(k, b))
	}
	return math.Max(0, d.Moment(k)-d.lower(k, a)-d.upper(k, b))
}

// lower is E[X^k; X ≤ x].
func (d Dist) lower(k int, x float64) float64 {
	if math.IsInf(x, 1) {
		return d.Moment(k)
	}
	switch d.kind {
	case Exponential:
		if x <= 0 {
			return 0
		}
		y := x / d.mean
		e := math.Exp(-y)
		switch k {
		case 0:
			return -math.Expm1(-y)
		case 1: // m·(1 − e^(−y)(1 + y))
			return d.mean * lowerGamma(1, y, e)
		}
		return d.mean * d.mean * 2 * lowerGamma(2, y, e) // m²·(2 − e^(−y)(y² + 2y + 2))
	case Pareto:
		if x <= d.xm {
			return 0
		}
		return d.Moment(k) * -math.Expm1((d.alpha-float64(k))*math.Log(d.xm/x))
	case Lognormal:
		if x <= 0 {
			return 0
		}
		kf := float64(k)
		return math.Exp(kf*d.mu+kf*kf*d.sigma*d.sigma/2) * normCDF((math.Log(x)-d.mu-kf*d.sigma*d.sigma)/d.sigma)
	case BoundedPareto:
		return d.bpLower(k, x)
	case Empirical:
		return d.empLower(k, x)
	}
	if x < d.mean {
		return 0
	}
	return math.Pow(d.mean, float64(k))
}

// upper is E[X^k; X > x].
func (d Dist) upper(k int, x float64) float64 {
	if math.IsInf(x, 1) {
		return 0
	}
	kf := float64(k)
	switch d.kind {
	case Exponential:
		y := math.Max(x, 0) / d.mean
		e := math.Exp(-y)
		switch k {
		case 0:
			return e
		case 1:
			return d.mean * e * (1 + y)
		}
		return d.mean * d.mean * e * (y*y + 2*y + 2)
	case Pareto:
		// E[X^k] = α·x_m^k/(α − k) for k < α.
		m := d.alpha * math.Pow(d.xm, kf) / (d.alpha - kf)
		if x <= d.xm {
			return m
		}
		return m * math.Pow(d.xm/x, d.alpha-kf)
	case Lognormal:
		m := math.Exp(kf*d.mu + kf*kf*d.sigma*d.sigma/2)
		if x <= 0 {
			return m
		}
		return m * normCDF(-(math.Log(x)-d.mu-kf*d.sigma*d.sigma)/d.sigma)
	case BoundedPareto:
		return d.bpUpper(k, x)
	case Empirical:
		return d.empUpper(k, x)
	}
	if x < d.mean {
		return math.Pow(d.mean, kf)
	}
	return 0
}

// lowerGamma is the regularised lower incomplete gamma P(k+1, y) for
// k = 1, 2, with e = e^(−y): 1 − e^(−y)·Σ_{j≤k} y^j/j!. Below y = 1 the
// series Σ_{j>k} y^j/j! avoids the cancellation of 1 − (nearly 1).
func lowerGamma(k int, y, e float64) float64 {
	if y >= 1 {
		s, t := 1.0, 1.0
		for j := 1; j <= k; j++ {
			t *= y / float64(j)
			s += t
		}
		return 1 - e*s
	}
	t := 1.0
	for j := 1; j <= k; j++ {
		t *= y / float64(j)
	}
	var s float64
	for j := k + 1; j < k+40; j++ {
		t *= y / float64(j)
		s += t
		if t < 1e-18*s {
			break
		}
	}
	return e * s
}

// WorkQuantile is the size x below which a fraction w ∈ (0, 1) of the work
// lies: E[X; X ≤ x] = w·E[X]. Pareto and lognormal invert in closed form,
// x_m·(1 − w)^(−1/(α−1)) and exp(μ + σ² + σΦ⁻¹(w)); the exponential by
// bisection on 1 − e^(−y)(1 + y) = w, to the last bit. A constant has all
// its work at its value.
func (d Dist) WorkQuantile(w float64) float64 {
	switch d.kind {
	case BoundedPareto:
		return d.bpWorkQuantile(w)
	case Empirical:
		return d.empWorkQuantile(w)
	case Pareto:
		return d.xm * math.Pow(1-w, -1/(d.alpha-1))
	case Lognormal:
		return math.Exp(d.mu + d.sigma*d.sigma + d.sigma*math.Sqrt2*math.Erfinv(2*w-1))
	case Exponential:
		lo, hi := 0.0, 1.0
		for lowerGamma(1, hi, math.Exp(-hi)) < w {
			hi *= 2
		}
		for range 200 {
			mid := (lo + hi) / 2
			if mid == lo || mid == hi {
				break
			}
			if lowerGamma(1, mid, math.Exp(-mid)) < w {
				lo = mid
			} else {
				hi = mid
			}
		}
		return d.mean * (lo + hi) / 2
	}
	return d.mean
}

// normCDF is the standard normal distribution function, through erfc so
// that its far tails keep their relative precision.
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
