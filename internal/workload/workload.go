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
)

var kindNames = [...]string{Deterministic: "deterministic", Exponential: "exponential", Pareto: "pareto", Lognormal: "lognormal"}

// String returns the scenario spelling of k.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Dist is a positive distribution with a given mean. Its zero value is the
// constant 0 (no delay). Build it with New, Const or LognormalDelay.
type Dist struct {
	kind  Kind
	mean  float64
	alpha float64 // pareto shape
	cv    float64 // lognormal coefficient of variation
	// Derived parameters, computed once so that Sample does no set-up work.
	xm, invAlpha float64 // pareto scale and 1/α
	mu, sigma    float64 // lognormal log-mean and log-sd
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
// would build a rand.Rand per call, which this hot path cannot afford.
func (d Dist) Sample(r *rand.Rand) float64 {
	switch d.kind {
	case Exponential:
		return d.mean * r.ExpFloat64()
	case Pareto:
		// Inversion: X = x_m · U^(−1/α) with U uniform on (0, 1].
		return d.xm * math.Pow(1-r.Float64(), -d.invAlpha)
	case Lognormal:
		return math.Exp(d.mu + d.sigma*r.NormFloat64())
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
	}
	return 0
}

// Streams are the workload's random streams, kept apart from each other and
// from a policy's own generator so that every policy sees the same arrival
// times, sizes and delays for one replicate (common random numbers).
type Streams struct {
	Arrivals, Sizes, Delays *rand.Rand
}

// The stream ids of a replicate: 1–3 are the workload's, PolicyStream is a
// policy's own coin flips, ObserveStream a device's observation draws,
// BoardStream the shared board's. Device d > 0 of a run with several uses
// the same ids plus d·DeviceStride, so device 0 has exactly the streams of
// a run with one device; adding a stream never shifts the existing ones.
const (
	ArrivalStream = 1
	SizeStream    = 2
	DelayStream   = 3
	PolicyStream  = 4
	ObserveStream = 5
	BoardStream   = 6
	DeviceStride  = 8
)

// DeviceStreams are device d's workload streams in replicate rep: those of
// NewStreams for device 0.
func DeviceStreams(seed uint64, rep, d int) Streams {
	off := uint64(d) * DeviceStride
	return Streams{Arrivals: Stream(seed, rep, ArrivalStream+off), Sizes: Stream(seed, rep, SizeStream+off), Delays: Stream(seed, rep, DelayStream+off)}
}

// NewStreams derives the three workload streams of replicate rep from a
// master seed: PCG's two seed words carry (seed, stream id ⊕ replicate).
func NewStreams(seed uint64, rep int) Streams {
	return Streams{Arrivals: Stream(seed, rep, ArrivalStream), Sizes: Stream(seed, rep, SizeStream), Delays: Stream(seed, rep, DelayStream)}
}

// Stream is the generator of stream id of replicate rep.
func Stream(seed uint64, rep int, id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, StreamID(rep, id)))
}

// StreamID packs a replicate number and a stream id into PCG's second seed
// word.
func StreamID(rep int, id uint64) uint64 { return uint64(rep)<<16 | id }
