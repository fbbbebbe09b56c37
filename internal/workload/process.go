package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Process is an arrival process with its state: Arrival returns the first
// arrival after t (the previous arrival, or 0 at the start), drawing from
// r, or false when stop is closed while it is being placed. A Source holds
// one per device, so that a process with memory (an MMPP's phase) keeps
// it across arrivals.
type Process interface {
	Arrival(t float64, r *rand.Rand, stop <-chan struct{}) (float64, bool)
}

// ProcessKind names an arrival process family (docs/design.md §1.3).
type ProcessKind uint8

// The arrival processes. Poisson is the zero value: a Spec that says
// nothing about its process is today's Poisson schedule, drawn by
// Schedule.Next exactly as before.
const (
	Poisson ProcessKind = iota
	Renewal
	MMPP
	Diurnal
)

var processNames = [...]string{Poisson: "poisson", Renewal: "renewal", MMPP: "mmpp", Diurnal: "diurnal"}

// String returns the scenario spelling of k.
func (k ProcessKind) String() string {
	if int(k) < len(processNames) {
		return processNames[k]
	}
	return fmt.Sprintf("ProcessKind(%d)", k)
}

// ProcessSpec is an arrival process's law, stateless, relative to the
// Schedule it is started with: the schedule's Rate is the process's mean
// rate and its bursts compose with the process (see Start). Everything
// rate-like is relative, so that dividing the schedule's rate among
// devices divides the whole process.
type ProcessSpec struct {
	Kind ProcessKind
	// Law is the renewal process's inter-arrival law, of mean 1 in units
	// of the integrated rate (an inter-arrival of Law/Rate seconds
	// without bursts).
	Law Law
	// Rates are the MMPP's phase rates relative to the schedule's rate:
	// π₀·Rates[0] + π₁·Rates[1] = 1 for the stationary phase law π.
	Rates [2]float64
	// Sojourn are the MMPP's mean sojourn times in each phase, in
	// (operational) seconds.
	Sojourn [2]float64
	// Amplitude (in [0, 1)) and Period (s) shape the diurnal rate
	// Rate·(1 + Amplitude·sin(2πt/Period)).
	Amplitude, Period float64
}

// NewMMPP is the two-state MMPP of phase rates r0, r1 (tasks/s, ≥ 0, not
// both 0) and mean sojourn times m0, m1 (s, > 0), with its stationary rate
// π₀r₀ + π₁r₁ (π_i = m_i/(m₀+m₁)), which is the Schedule rate to start it
// with.
func NewMMPP(r0, r1, m0, m1 float64) (ProcessSpec, float64, error) {
	ok := func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
	if !(r0 >= 0 && r1 >= 0 && r0+r1 > 0) || !ok(r0) || !ok(r1) {
		return ProcessSpec{}, 0, fmt.Errorf("mmpp rates %v, %v: need finite rates ≥ 0, not both 0", r0, r1)
	}
	if !(m0 > 0 && m1 > 0) || !ok(m0) || !ok(m1) {
		return ProcessSpec{}, 0, fmt.Errorf("mmpp sojourn %v, %v: need finite times > 0", m0, m1)
	}
	mean := (m0*r0 + m1*r1) / (m0 + m1)
	return ProcessSpec{Kind: MMPP, Rates: [2]float64{r0 / mean, r1 / mean}, Sojourn: [2]float64{m0, m1}}, mean, nil
}

// NewDiurnal is the sinusoidal rate of relative amplitude a ∈ [0, 1) and
// period p > 0 s.
func NewDiurnal(a, p float64) (ProcessSpec, error) {
	if !(a >= 0 && a < 1) || !(p > 0) || math.IsInf(p, 0) {
		return ProcessSpec{}, fmt.Errorf("diurnal amplitude %v, period %v: need amplitude in [0, 1) and a finite period > 0", a, p)
	}
	return ProcessSpec{Kind: Diurnal, Amplitude: a, Period: p}, nil
}

// NewRenewal is the renewal process of inter-arrival law l.
func NewRenewal(l Law) ProcessSpec { return ProcessSpec{Kind: Renewal, Law: l} }

// Start returns a fresh process (its state at time 0) over schedule s.
// Bursts compose as follows. Poisson and diurnal are non-homogeneous
// Poisson processes, and the burst factors multiply their rate. Renewal
// and MMPP run in operational time: a burst of factor f makes their clock
// run f times as fast, so an inter-arrival (or a phase's sojourn) that
// would take x seconds takes x/f during the burst. For Poisson the two
// readings coincide.
func (p ProcessSpec) Start(s Schedule) Process {
	switch p.Kind {
	case Renewal:
		return &renewal{sched: s, law: p.Law}
	case MMPP:
		m := &mmpp{op: Schedule{Rate: 1, Bursts: s.Bursts}, phase: -1, sojourn: p.Sojourn}
		m.rates = [2]float64{s.Rate * p.Rates[0], s.Rate * p.Rates[1]}
		return m
	case Diurnal:
		return &diurnal{sched: s, amp: p.Amplitude, period: p.Period, omega: 2 * math.Pi / p.Period}
	}
	return &s
}

// renewal is a renewal process in operational time: each inter-arrival is
// one draw of a unit-mean law, walked through the schedule's integrated
// rate like the Poisson process's Exp(1). It starts fresh at 0 (an
// ordinary, not an equilibrium, renewal process): its first arrival is a
// full inter-arrival after 0, which a warmup absorbs.
type renewal struct {
	sched Schedule
	law   Law
}

func (p *renewal) Arrival(t float64, r *rand.Rand, stop <-chan struct{}) (float64, bool) {
	return p.sched.walk(t, p.law.Sample(r), stop)
}

// mmpp is a two-state Markov-modulated Poisson process in operational
// time: op is the schedule at unit rate, whose integrated rate is the
// operational clock. The phase (−1 until the first arrival draws it from
// the stationary law) and the operational time left in it are the state.
// Phase changes are memoryless, so the arrival clock is simply redrawn at
// each: exact, with a variable number of draws.
type mmpp struct {
	op      Schedule
	rates   [2]float64 // tasks per operational second
	sojourn [2]float64 // mean, operational s
	phase   int
	left    float64
}

func (m *mmpp) Arrival(t float64, r *rand.Rand, stop <-chan struct{}) (float64, bool) {
	if m.phase < 0 {
		m.phase = 1
		if r.Float64()*(m.sojourn[0]+m.sojourn[1]) < m.sojourn[0] {
			m.phase = 0
		}
		m.left = m.sojourn[m.phase] * r.ExpFloat64()
	}
	du := 0.0 // operational time to the arrival
	for step := 1; ; step++ {
		if step%pollSteps == 0 && stopped(stop) {
			return math.Inf(1), false
		}
		if d := r.ExpFloat64() / m.rates[m.phase]; d < m.left {
			m.left -= d
			du += d
			break
		}
		du += m.left
		m.phase ^= 1
		m.left = m.sojourn[m.phase] * r.ExpFloat64()
	}
	return m.op.walk(t, du, stop)
}

// diurnal is the non-homogeneous Poisson process of rate
// Rate·F(t)·(1 + amp·sin(ωt)), F the bursts' product. It is sampled by
// inversion, like Schedule: one Exp(1) draw per arrival, walked through the
// burst pieces, and within a piece the integrated sinusoid solved for the
// arrival by safeguarded Newton to the last bit. Inversion rather than
// thinning (Lewis & Shedler 1979) because it draws one number per arrival:
// the arrival stream then stays in step with Poisson's for the same seed,
// and the draws per arrival do not depend on the amplitude.
type diurnal struct {
	sched              Schedule
	amp, period, omega float64
}

func (p *diurnal) Arrival(t float64, r *rand.Rand, stop <-chan struct{}) (float64, bool) {
	e := r.ExpFloat64()
	for step := 1; ; step++ {
		if step%pollSteps == 0 && stopped(stop) {
			return math.Inf(1), false
		}
		rate, next := p.sched.At(t)
		if math.IsInf(next, 1) {
			return t + p.solve(t, e/rate), true
		}
		if next <= t {
			next = math.Nextafter(t, math.Inf(1))
		}
		y := e / rate
		g := p.integral(t, next-t)
		if g > y {
			return t + p.solve(t, y), true
		}
		e -= rate * g
		t = next
	}
}

// integral is ∫_a^{a+d} (1 + amp·sin(ωs)) ds = d + (amp/ω)(cos ωa − cos ω(a+d)),
// written as d + (2·amp/ω)·sin(ω(a + d/2))·sin(ωd/2) so that a short d keeps
// its digits, with a reduced modulo the period first.
func (p *diurnal) integral(a, d float64) float64 {
	phi := p.omega * math.Mod(a, p.period)
	return d + 2*p.amp/p.omega*math.Sin(phi+p.omega*d/2)*math.Sin(p.omega*d/2)
}

// solve returns the d ≥ 0 with integral(a, d) = y. The integrand lies in
// [1−amp, 1+amp], which brackets d in [y/(1+amp), y/(1−amp)]; Newton steps
// that leave the bracket are replaced by bisection.
func (p *diurnal) solve(a, y float64) float64 {
	if p.amp == 0 || y == 0 {
		return y
	}
	lo, hi := y/(1+p.amp), y/(1-p.amp)
	phi := p.omega * math.Mod(a, p.period)
	x := y
	for range 200 {
		f := p.integral(a, x) - y
		switch {
		case f > 0:
			hi = x
		case f < 0:
			lo = x
		default:
			return x
		}
		xn := x - f/(1+p.amp*math.Sin(phi+p.omega*x))
		if !(xn > lo && xn < hi) {
			xn = lo + (hi-lo)/2
		}
		if xn == x || math.Abs(xn-x) <= 1e-16*x || xn == lo || xn == hi {
			return xn
		}
		x = xn
	}
	return x
}

// LawKind names a renewal inter-arrival law.
type LawKind uint8

// The inter-arrival laws of a renewal process.
const (
	GammaLaw LawKind = iota
	LognormalLaw
	WeibullLaw
)

var lawNames = [...]string{GammaLaw: "gamma", LognormalLaw: "lognormal", WeibullLaw: "weibull"}

// String returns the scenario spelling of k.
func (k LawKind) String() string {
	if int(k) < len(lawNames) {
		return lawNames[k]
	}
	return fmt.Sprintf("LawKind(%d)", k)
}

// LawNames lists the renewal laws in the order messages give them.
func LawNames() []string { return lawNames[:] }

// Law is a positive law of mean 1 and coefficient of variation CV: gamma
// (shape 1/cv², scale cv²), lognormal (σ² = ln(1+cv²), μ = −σ²/2) or
// Weibull (shape k solving Γ(1+2/k)/Γ(1+1/k)² = 1 + cv², scale
// 1/Γ(1+1/k)). The mean is fixed so that the process's rate is the
// schedule's.
type Law struct {
	kind         LawKind
	cv           float64
	shape, scale float64 // gamma, weibull
	mu, sigma    float64 // lognormal
}

// NewLaw builds the unit-mean law of this family and coefficient of
// variation cv > 0.
func NewLaw(kind string, cv float64) (Law, error) {
	if !(cv > 0) || math.IsInf(cv, 0) {
		return Law{}, fmt.Errorf("renewal cv %v: must be finite and > 0", cv)
	}
	switch kind {
	case "gamma":
		k := 1 / (cv * cv)
		return Law{kind: GammaLaw, cv: cv, shape: k, scale: 1 / k}, nil
	case "lognormal":
		s2 := math.Log1p(cv * cv)
		return Law{kind: LognormalLaw, cv: cv, mu: -s2 / 2, sigma: math.Sqrt(s2)}, nil
	case "weibull":
		k := weibullShape(cv * cv)
		lg, _ := math.Lgamma(1 + 1/k)
		return Law{kind: WeibullLaw, cv: cv, shape: k, scale: math.Exp(-lg)}, nil
	}
	return Law{}, fmt.Errorf("unknown renewal law %q (allowed: gamma, lognormal, weibull)", kind)
}

// Kind is the law's family.
func (l Law) Kind() LawKind { return l.kind }

// CV is the law's coefficient of variation.
func (l Law) CV() float64 { return l.cv }

// Shape is the gamma or Weibull shape (0 for the lognormal).
func (l Law) Shape() float64 { return l.shape }

// Sample draws one value.
func (l Law) Sample(r *rand.Rand) float64 {
	switch l.kind {
	case GammaLaw:
		return l.scale * gammaUnit(r, l.shape)
	case LognormalLaw:
		return math.Exp(l.mu + l.sigma*r.NormFloat64())
	}
	return l.scale * math.Pow(r.ExpFloat64(), 1/l.shape)
}

// weibullCs2 is a Weibull's squared coefficient of variation at shape k,
// Γ(1+2/k)/Γ(1+1/k)² − 1, through logs so that it neither overflows at
// small k nor cancels at large k.
func weibullCs2(k float64) float64 {
	a, _ := math.Lgamma(1 + 2/k)
	b, _ := math.Lgamma(1 + 1/k)
	return math.Expm1(a - 2*b)
}

// weibullShape inverts weibullCs2, which decreases in k, by bisection on
// log k to the last bit.
func weibullShape(cs2 float64) float64 {
	lo, hi := math.Log(1e-3), math.Log(1e6)
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if weibullCs2(math.Exp(mid)) > cs2 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2)
}

// gammaUnit draws a Gamma(k, 1) by Marsaglia and Tsang's method (2000),
// boosting k < 1 by Gamma(k) = Gamma(k+1)·U^(1/k).
func gammaUnit(r *rand.Rand, k float64) float64 {
	if k < 1 {
		return gammaUnit(r, k+1) * math.Exp(math.Log(1-r.Float64())/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := 1 - r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
