package estimators

import (
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/dispatch"
)

// Mode selects the blend weight β of an Estimator: the hybrid method and its
// two ablations (docs/design.md §3).
type Mode uint8

const (
	// ModeHybrid uses β = min(1, q/c) (policy "hybrid").
	ModeHybrid Mode = iota
	// ModeModel uses β ≡ 0: Ŵ = W^model (policy "model-only").
	ModeModel
	// ModeQueue uses β ≡ 1: Ŵ = W^queue (policy "queue-only").
	ModeQueue
	// ModeAge is this project's extension (policy "hybrid-age", not the
	// paper's): the hybrid's β discounted by the observation's age,
	// β = min(1, q/c)·exp(−age/τ) with τ the tier's relaxation time (see
	// RelaxationTime): a stale backlog says little about the queue now,
	// so the estimate leans back on the model (docs/design.md §2.12).
	ModeAge
)

// Config parameterises an Estimator (docs/design.md §2 defaults in brackets).
type Config struct {
	Window           float64 // w, s, of the arrival-rate window [10]
	Buckets          int     // time buckets per window; 0 means DefaultBuckets
	RhoMax           float64 // cap ρ_max on ρ̂ in the model component, in (0, 1) [0.99]
	Mode             Mode    // β rule
	PenaltyThreshold float64 // θ ∈ [0, 1) [0.9]
	PenaltyK         float64 // k ≥ 0; 0 switches the penalty off [1]
	Ca2              Ca2Mode // C_a² of the model component [poisson]
}

// Components is everything an Estimator derives for one tier at one instant.
type Components struct {
	LambdaHat float64 // λ̂, tasks/s sent to the tier in the window
	Rho       float64 // ρ̂ = λ̂/(cμ), uncapped
	Beta      float64 // blend weight β actually used (per Mode)
	Model     float64 // W^model, s
	Queue     float64 // W^queue, s
	Wait      float64 // Ŵ = (1−β)W^model + βW^queue, s
}

// memoSize entries per tier remember λ̂, ρ̂ and W^model for recent window
// counts. The count moves by one task at a time, so a small direct-mapped
// table indexed by it hits almost always once the window is full (the span
// is then the constant w).
const memoSize = 16

// memoEntry is what a window count and span give: λ̂ = count/span, ρ̂ =
// λ̂/(cμ) and W^model at λ̂ and C_a², each a function of its key alone, so
// that a hit returns exactly what computing them would (and saves two
// divisions and the model on every decision for every tier).
type memoEntry struct {
	count     int     // key: the window count
	span, ca2 float64 // and span (NaN when empty) and C_a²
	lam, rho  float64
	wait      float64 // ModelWaitCa2 at lam
}

type tierEst struct {
	c      int
	mu     float64
	cmu    float64 // cμ
	fixed  float64 // 1/μ + D̄, the part of the routing score that never changes
	cs2    float64
	window RateWindow
	ca2    Ca2Window // online C_a² (Ca2Online only)
	memo   [memoSize]memoEntry
}

// Estimator is the per-policy state of the hybrid estimator: one RateWindow
// per tier, fed by Observe, and the formulas of this package applied to a
// dispatch.View. Querying it advances the windows to v.Now, so it has state
// and is not safe for concurrent use.
type Estimator struct {
	cfg   Config
	tiers []tierEst
	// follow, when set (Follow), keeps the tiers whose window count
	// changed since Changed last gave them.
	follow *expiry
}

// plain reports the paper's settings, C_a² of Poisson arrivals and β from
// the backlog alone (every mode but ModeAge), for which Scores takes
// scores rather than eval.
func (e *Estimator) plain() bool { return e.cfg.Ca2 == Ca2Poisson && e.cfg.Mode != ModeAge }

// NewEstimator checks cfg and the tiers and returns an estimator with empty
// windows.
func NewEstimator(tiers []dispatch.Tier, cfg Config) (*Estimator, error) {
	if cfg.Buckets == 0 {
		cfg.Buckets = DefaultBuckets
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if len(tiers) == 0 {
		return nil, fmt.Errorf("estimator: no tiers")
	}
	e := &Estimator{cfg: cfg, tiers: make([]tierEst, len(tiers))}
	for i := range tiers {
		if err := e.initTier(i, &tiers[i]); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func (cfg *Config) validate() error {
	switch {
	case !(cfg.Window > 0) || math.IsInf(cfg.Window, 1):
		return fmt.Errorf("estimator window %g s: must be positive and finite", cfg.Window)
	case cfg.Buckets < 1:
		return fmt.Errorf("estimator buckets %d: must be at least 1", cfg.Buckets)
	case !(cfg.RhoMax > 0 && cfg.RhoMax < 1):
		return fmt.Errorf("estimator rho_max %g: must be in (0, 1)", cfg.RhoMax)
	case !(cfg.PenaltyThreshold >= 0 && cfg.PenaltyThreshold < 1):
		return fmt.Errorf("estimator penalty threshold %g: must be in [0, 1)", cfg.PenaltyThreshold)
	case !(cfg.PenaltyK >= 0) || math.IsInf(cfg.PenaltyK, 1):
		return fmt.Errorf("estimator penalty k %g: must be finite and ≥ 0", cfg.PenaltyK)
	case cfg.Ca2 > Ca2Online:
		return fmt.Errorf("estimator ca2 mode %d: unknown", cfg.Ca2)
	case cfg.Mode > ModeAge:
		return fmt.Errorf("estimator mode %d: unknown", cfg.Mode)
	}
	return nil
}

func (e *Estimator) initTier(i int, t *dispatch.Tier) error {
	if err := ValidateTier(t); err != nil {
		return fmt.Errorf("estimator tier %d: %w", i, err)
	}
	w, err := NewRateWindow(e.cfg.Window, e.cfg.Buckets)
	if err != nil {
		return err
	}
	te := &e.tiers[i]
	*te = tierEst{c: t.Servers, mu: t.Mu, cmu: float64(t.Servers) * t.Mu,
		fixed: 1/t.Mu + t.MeanDelay, cs2: t.Cs2, window: w}
	if e.cfg.Ca2 == Ca2Online {
		te.ca2 = NewCa2Window(e.cfg.Window)
	}
	for j := range te.memo {
		te.memo[j].span = math.NaN()
	}
	return nil
}

// ValidateTier reports whether t has what the estimators need: at least one
// server, a positive finite service rate, a finite C_s² ≥ 0 and a finite mean
// delay ≥ 0.
func ValidateTier(t *dispatch.Tier) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case t.Servers < 1:
		return fmt.Errorf("tier %q: servers %d, need at least 1", t.Name, t.Servers)
	case !(t.Mu > 0) || !finite(t.Mu):
		return fmt.Errorf("tier %q: service rate %g, need a positive finite value", t.Name, t.Mu)
	case !(t.Cs2 >= 0) || !finite(t.Cs2):
		return fmt.Errorf("tier %q: cs2 %g, need a finite value ≥ 0", t.Name, t.Cs2)
	case !(t.MeanDelay >= 0) || !finite(t.MeanDelay):
		return fmt.Errorf("tier %q: mean delay %g, need a finite value ≥ 0", t.Name, t.MeanDelay)
	}
	return nil
}

// Tiers returns the number of tiers the estimator was built for.
func (e *Estimator) Tiers() int { return len(e.tiers) }

// Mode returns the estimator's β rule.
func (e *Estimator) Mode() Mode { return e.cfg.Mode }

// Ca2 returns the estimator's C_a² mode.
func (e *Estimator) Ca2() Ca2Mode { return e.cfg.Ca2 }

// Observe records that a task was dispatched to tier at time now. Call it
// after deciding, so that a decision never counts its own task.
func (e *Estimator) Observe(now float64, tier int) {
	t := &e.tiers[tier]
	// RateWindow.Add's two steps, each inlined here: Add itself is just
	// over the inliner's budget, and this saves a call on every dispatch.
	t.window.advance(now)
	t.window.count()
	if e.cfg.Ca2 == Ca2Online {
		t.ca2.Add(now)
	}
	if f := e.follow; f != nil {
		f.observe(now, tier)
	}
}

// Plain reports whether a tier's routing score (Scores) is a function of
// its window count, the window's span and the tier's Queued and Busy
// alone: under the paper's settings (Poisson C_a², β from the backlog:
// hybrid, model-only, queue-only). ModeAge's β decays with the view's age
// and the online C_a² with time, so their scores change at every decision.
func (e *Estimator) Plain() bool { return e.plain() }

// Span is the rate windows' span at now, max(min(w, now), 1 s): the same
// for every tier. It changes with every decision during the window's
// first w seconds (λ̂ then divides by the time elapsed) and is the
// constant w after.
func (e *Estimator) Span(now float64) float64 { return max(min(e.cfg.Window, now), 1) }

// Follow makes the estimator keep, from now on, which tiers' window
// counts change (by a dispatch or as a bucket leaves the window), for
// Changed: O(1) a dispatch, and no pass over the tiers as time moves on.
// It starts from the windows as they are at now, every tier's buckets
// (O(tiers·buckets), once); Followed reports whether it was called.
func (e *Estimator) Follow(now float64) {
	if e.follow != nil {
		return
	}
	f := newExpiry(e.cfg.Window, e.cfg.Buckets, len(e.tiers))
	f.advance(now)
	for i := range e.tiers {
		w := &e.tiers[i].window
		w.advance(now)
		if w.cur != f.cur { // the same clock, on the same time
			panic("estimators: a rate window and the expiry clock disagree on the newest bucket")
		}
		for at, c := range w.counts { // a window's slot is its bucket's slot in the clock's ring
			if c > 0 {
				f.lists[at] = append(f.lists[at], int32(i))
				f.held++
			}
		}
		if w.counts[w.at] > 0 {
			f.last[i] = f.cur
		}
	}
	e.follow = f
}

// Followed reports whether Follow was called.
func (e *Estimator) Followed() bool { return e.follow != nil }

// Changed is the tiers whose window count may differ at now from what it
// was at the previous call (or since Follow): each tier dispatched to, and
// each that had a dispatch in a bucket that has left the window (a tier may
// appear more than once). The slice is valid until the next call of
// Changed or Observe. The other tiers' counts, and so their scores under
// Plain for an unchanged span and state, are what they were.
func (e *Estimator) Changed(now float64) []int32 {
	f := e.follow
	f.advance(now)
	out := f.out
	f.out = f.out[:0]
	return out
}

// ScoreTier is tier i's routing score and unpenalised Ŵ under Plain
// settings, as Scores gives them, bit for bit: the arithmetic of scores,
// for one tier.
func (e *Estimator) ScoreTier(v *dispatch.View, i int) (score, wait float64) {
	t := &e.tiers[i]
	st := &v.States[i]
	return e.scoreOne(t, v.Now, t.window.span(v.Now), st.Queued, st.Busy)
}

// Components computes λ̂, ρ̂, β, W^model, W^queue and Ŵ for one tier from
// the view's time and the tier's state.
func (e *Estimator) Components(v *dispatch.View, tier int) Components {
	var score, wait [1]float64
	var c [1]Components
	e.eval(v, tier, tier+1, score[:], wait[:], c[:])
	return c[0]
}

// Wait is the unpenalised estimate Ŵ for tier, s: the prediction reported
// for MAPE.
func (e *Estimator) Wait(v *dispatch.View, tier int) float64 {
	var score, wait [1]float64
	e.eval(v, tier, tier+1, score[:], wait[:], nil)
	return wait[0]
}

// Scores puts into score[i] the routing key of docs/design.md §3 for every
// tier i,
//
//	score = Penalty(Ŵ, ρ̂, θ, k) + 1/μ + D̄
//
// and into wait[i] the unpenalised Ŵ it was built from. Both need at least
// Tiers() elements.
func (e *Estimator) Scores(v *dispatch.View, score, wait []float64) {
	if e.plain() {
		e.scores(v.Now, v.States, score, wait)
		return
	}
	e.eval(v, 0, len(e.tiers), score, wait, nil)
}

// scores is eval for Scores under the plain settings (plain),
// with what those never use left out: no age, no online C_a² (so the
// memo's C_a² is always PoissonCa2 and not compared), no components, and
// Ŵ by the backlog directly, so that an empty queue, the usual case, costs
// neither W^queue's division nor Blend's and Hybrid's tests: q = 0 is
// W^model, q ≥ c is W^queue = (q+1)/(cμ), and in between the blend of the
// two, the operations of Blend, QueueWait and Hybrid in their order (the
// blend itself by Hybrid's own function, blend, so that a compiler fusing
// multiply-adds fuses the same product in both). The results are eval's,
// bit for bit (TestScoresAgreeWithComponents, also run with GOAMD64=v3 by
// CI). ScoreTier runs the same arithmetic (scoreOne) for one tier.
func (e *Estimator) scores(now float64, states []dispatch.State, score, wait []float64) {
	tiers := e.tiers
	states, score, wait = states[:len(tiers)], score[:len(tiers)], wait[:len(tiers)]
	span := tiers[0].window.span(now) // every window has length cfg.Window: the same span
	for i := range tiers {
		score[i], wait[i] = e.scoreOne(&tiers[i], now, span, states[i].Queued, states[i].Busy)
	}
}

// scoreOne is scores' arithmetic for tier t, with q tasks queued and b
// busy servers in the view, the windows' span at now being span.
func (e *Estimator) scoreOne(t *tierEst, now, span float64, q, b int) (score, wait float64) {
	mode := e.cfg.Mode
	t.window.advance(now)
	count := t.window.total
	m := &t.memo[count&(memoSize-1)]
	if m.count != count || m.span != span { // an unused entry's span is NaN: never equal
		e.remember(t, m, count, span, PoissonCa2)
	}
	var wt float64
	switch {
	case mode == ModeModel || mode == ModeHybrid && q <= 0:
		wt = m.wait
	case mode == ModeQueue:
		wt = QueueWait(q, b, t.c, t.mu)
	case q >= t.c: // β = 1
		wt = float64(q+1) / t.cmu
	default: // 0 < β < 1, and W^queue has q > 0
		beta := float64(q) / float64(t.c)
		wt = blend(beta, m.wait, float64(q+1)/t.cmu)
	}
	return Penalty(wt, m.rho, e.cfg.PenaltyThreshold, e.cfg.PenaltyK) + t.fixed, wt
}

// eval is the estimator's arithmetic for tiers lo to hi − 1 in one pass:
// tier i's routing score into score[i−lo], its Ŵ into wait[i−lo] and, if
// comps is not nil, every component into comps[i−lo]. A decision scores
// every tier: one call for all of them rather than a chain of three calls
// a tier (its score, its parts, its rate). Scores, Wait and Components all
// run it, so that they agree bit for bit.
func (e *Estimator) eval(v *dispatch.View, lo, hi int, score, wait []float64, comps []Components) {
	now := v.Now
	for tier := lo; tier < hi; tier++ {
		t := &e.tiers[tier]
		s := v.States[tier]
		ca2 := PoissonCa2
		if e.cfg.Ca2 == Ca2Online {
			ca2 = t.ca2.Ca2(now)
		}
		// λ̂, ρ̂ and W^model come from the tier's memo, keyed by the
		// window's count and span: those determine λ̂ and so the rest. The
		// key is compared with == (!= here) on purpose: the memo must
		// return exactly what the formulas would.
		w := &t.window
		w.advance(now)
		count, span := w.total, w.span(now)
		m := &t.memo[count&(memoSize-1)]
		if m.count != count || m.span != span || m.ca2 != ca2 {
			e.remember(t, m, count, span, ca2)
		}
		lam, rho, model := m.lam, m.rho, m.wait
		beta := e.beta(s.Queued, t.c)
		if e.cfg.Mode == ModeAge && beta > 0 {
			if age := v.Age(tier); age > 0 {
				beta *= math.Exp(-age / RelaxationTime(t.c, lam, t.mu, e.cfg.RhoMax))
			}
		}
		queue := QueueWait(s.Queued, s.Busy, t.c, t.mu)
		wt := Hybrid(beta, model, queue)
		j := tier - lo
		score[j] = Penalty(wt, rho, e.cfg.PenaltyThreshold, e.cfg.PenaltyK) + t.fixed
		wait[j] = wt
		if comps != nil {
			comps[j] = Components{LambdaHat: lam, Rho: rho, Beta: beta, Model: model, Queue: queue, Wait: wt}
		}
	}
}

func (e *Estimator) beta(q, c int) float64 {
	switch e.cfg.Mode {
	case ModeModel:
		return 0
	case ModeQueue:
		return 1
	}
	return Blend(q, c)
}

// remember fills memo entry m of tier t for a window of count arrivals
// over span at ca2: λ̂ (RateWindow.Rate's arithmetic), ρ̂ = λ̂/(cμ) and
// W^model at λ̂ and ca2.
func (e *Estimator) remember(t *tierEst, m *memoEntry, count int, span, ca2 float64) {
	lam := rateOf(count, span)
	rho := lam / t.cmu
	model := ModelWaitCa2(t.c, lam, t.mu, ca2, t.cs2, e.cfg.RhoMax)
	*m = memoEntry{count: count, span: span, ca2: ca2, lam: lam, rho: rho, wait: model}
}
