// Package observe is what a dispatcher sees of the tiers (docs/design.md
// §1.9): the observation models and their configuration (Config), and the
// pieces the simulator builds views from, which hold no simulator state:
// a tier's count as a step function of time over a recent horizon
// (History, for the delayed model), the lognormal noise on an observed
// count (Noisy), and how far back a delayed look may go (Horizon).
package observe

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/workload"
)

// Model says how a dispatcher's view of the tiers relates to their true
// state.
type Model uint8

// The observation models.
const (
	// Fresh: the true (q, b) of every tier at the decision instant.
	Fresh Model = iota
	// Periodic: a board holding every tier's state as of the last refresh
	// at Phase + k·Period, all tiers at once, shared by every device.
	Periodic
	// Individual: each tier reposts its own state on the board at its own
	// exponential epochs of mean Period, so ages differ across tiers.
	Individual
	// Delayed: each tier's state as it was Delay ago, the delay drawn per
	// observation (per tier and decision).
	Delayed
)

var modelNames = [...]string{Fresh: "fresh", Periodic: "periodic", Individual: "individual", Delayed: "delayed"}

// String is the scenario spelling of the model.
func (m Model) String() string {
	if int(m) < len(modelNames) {
		return modelNames[m]
	}
	return fmt.Sprintf("ObservationModel(%d)", m)
}

// Parse reads a model as a scenario spells it.
func Parse(s string) (Model, error) {
	for m, n := range modelNames {
		if n == s {
			return Model(m), nil
		}
	}
	return 0, fmt.Errorf("unknown observation model %q (allowed: fresh, periodic, individual, delayed)", s)
}

// Config configures what a dispatcher sees. The zero value is Fresh
// without noise: the true state, as the engine had before observation
// models existed, byte for byte.
type Config struct {
	Model  Model
	Period float64       // s: Periodic's refresh period, Individual's mean repost gap
	Phase  float64       // s: Periodic's first refresh, in [0, Period)
	Delay  workload.Dist // Delayed: the age of each observation
	// CountOwn adds to a tier's observed count the tasks this dispatcher
	// sent it since the observation was taken (a dispatcher knows what it
	// sent; what other devices sent is invisible to it).
	CountOwn bool
	// Noise is the coefficient of variation of a lognormal factor of mean 1
	// multiplying each observed count (rounded, ≥ 0); 0: exact counts.
	Noise float64
}

// FastFresh reports whether views can be kept current incrementally: the
// true state, noiseless, is what every device sees.
func (o *Config) FastFresh() bool { return o.Model == Fresh && o.Noise == 0 }

// Board reports a board model: views change when the board is posted (and
// on own sends), so they cost O(tiers) per refresh, not per decision.
func (o *Config) Board() bool { return o.Model == Periodic || o.Model == Individual }

// PerDecision reports a model whose view is drawn at every decision.
func (o *Config) PerDecision() bool { return !o.FastFresh() && !o.Board() }

// change is one step of a tier's history of tasks present, for Delayed.
type change struct {
	t float64
	n int
}

// History keeps a tier's changes of n over the last horizon seconds (and
// the one before, the state then), so that the state at any recent time can
// be read back. Changes are added in time order.
type History struct {
	ch    []change
	start int // ch[:start] has been pruned
}

// NewHistory is the history of a count of 0 from time 0.
func NewHistory() History { return History{ch: []change{{0, 0}}} }

// Add records that the count became n at t, keeping what a look back of
// horizon seconds from t may read.
func (h *History) Add(t float64, n int, horizon float64) {
	h.ch = append(h.ch, change{t, n})
	// Keep the last change at or before t − horizon: the state then.
	for h.start+1 < len(h.ch) && h.ch[h.start+1].t <= t-horizon {
		h.start++
	}
	if h.start > 1024 && h.start > len(h.ch)/2 { // amortised compaction
		h.ch = append(h.ch[:0], h.ch[h.start:]...)
		h.start = 0
	}
}

// At is the count at time t (the first retained state if t is older than
// the horizon).
func (h *History) At(t float64) int {
	lo, hi := h.start, len(h.ch) // find the last change with time ≤ t
	for lo < hi {
		m := (lo + hi) / 2
		if h.ch[m].t <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == h.start {
		return h.ch[h.start].n
	}
	return h.ch[lo-1].n
}

// Noisy multiplies n by a lognormal factor of mean 1 drawn from noise,
// rounded to an integer ≥ 0; a noise that is not random leaves n as it is.
func Noisy(n int, noise workload.Dist, r *rand.Rand) int {
	if !noise.Random() || n == 0 {
		return n
	}
	return max(0, int(math.Round(float64(n)*noise.Sample(r))))
}

// Horizon is how far back Delayed may look: a quantile beyond which
// delays d are vanishingly rare (an older look reads the oldest kept
// state).
func Horizon(d workload.Dist) float64 {
	if !d.Random() {
		return d.Mean()
	}
	return d.Quantile(1 - 1e-9)
}
