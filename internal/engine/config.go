package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// TierConfig is one tier: what a dispatcher knows of it, plus its delay
// distribution, which only the engine samples.
type TierConfig struct {
	dispatch.Tier
	Delay workload.Dist // communication delay, s; the zero Dist is no delay
}

// Config describes one run. Exactly one of Tasks and Duration is positive.
type Config struct {
	Tiers    []TierConfig
	Arrivals Schedule
	Size     workload.Dist // task size, work units
	// Large is the size above which a task counts as large (DESIGN §4).
	Large float64

	// Tasks mode: Warmup tasks arrive unmeasured, then Tasks measured ones.
	Tasks, Warmup int
	// Duration mode: arrivals in [0, WarmupTime) are unmeasured, those in
	// [WarmupTime, WarmupTime+Duration) measured; then arrivals stop.
	Duration, WarmupTime float64

	// Shadows predict the waiting time at the chosen tier without routing
	// (the mape experiment); each is also told of every dispatch if it is a
	// dispatch.Observer.
	Shadows []dispatch.Predictor

	// Cancel, if set, is polled every few thousand arrivals: once it is
	// closed, Run stops and returns ErrCanceled, so that a long run ends
	// promptly on an interrupt.
	Cancel <-chan struct{}

	// OnTask, if set, receives every task's record when its latency is known
	// (at the moment it joins its tier). The record is reused: copy it to keep it.
	OnTask func(*TaskRecord)
}

// ErrCanceled is returned by Run when Config.Cancel is closed.
var ErrCanceled = errors.New("run canceled")

// Streams are the workload's random streams, kept apart from each other and
// from the policy's own generator so that every policy sees the same arrival
// times, sizes and delays for one replicate (common random numbers).
type Streams struct {
	Arrivals, Sizes, Delays *rand.Rand
}

// NewStreams derives the three workload streams of replicate rep from a
// master seed: PCG's two seed words carry (seed, stream id ⊕ replicate).
func NewStreams(seed uint64, rep int) Streams {
	mk := func(id uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, StreamID(rep, id))) }
	return Streams{Arrivals: mk(1), Sizes: mk(2), Delays: mk(3)}
}

// StreamID packs a replicate number and a stream id into PCG's second seed
// word. Ids 1–3 are the workload's; others are free for policies.
func StreamID(rep int, id uint64) uint64 { return uint64(rep)<<16 | id }

// TaskRecord is one task's story, for traces. Times are seconds.
type TaskRecord struct {
	ID       int
	Arrival  float64
	Size     float64
	Tier     int
	Delay    float64
	Wait     float64
	Service  float64
	Latency  float64
	Measured bool
}

func (c *Config) validate() error {
	var errs []error
	if len(c.Tiers) == 0 {
		errs = append(errs, errors.New("no tiers"))
	}
	for i, t := range c.Tiers {
		if t.Servers < 1 || !(t.Speed > 0) || !(t.Mu > 0) {
			errs = append(errs, fmt.Errorf("tier %d (%s): servers %d, speed %v, mu %v: need ≥ 1, > 0, > 0", i, t.Name, t.Servers, t.Speed, t.Mu))
		}
	}
	if !(c.Arrivals.Rate > 0) {
		errs = append(errs, fmt.Errorf("arrival rate %v: must be > 0", c.Arrivals.Rate))
	}
	for i, b := range c.Arrivals.Bursts {
		if !(b.Factor > 0) || !(b.Length > 0) || b.Every < 0 || (b.Every > 0 && b.Length > b.Every) {
			errs = append(errs, fmt.Errorf("burst %d: %+v: need factor > 0, 0 < length ≤ every (or every 0)", i, b))
		}
	}
	switch {
	case c.Tasks > 0 && c.Duration > 0:
		errs = append(errs, errors.New("both tasks and duration set"))
	case c.Tasks <= 0 && !(c.Duration > 0):
		errs = append(errs, errors.New("neither tasks nor duration set"))
	}
	if c.Warmup < 0 || c.WarmupTime < 0 {
		errs = append(errs, fmt.Errorf("warmup %d / warmup_time %v: must be ≥ 0", c.Warmup, c.WarmupTime))
	}
	if !(c.Size.Mean() > 0) {
		errs = append(errs, errors.New("size distribution has no positive mean"))
	}
	return errors.Join(errs...)
}
