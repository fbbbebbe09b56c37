// Package capacity is a tier's speed over time (docs/model.md §1.12):
// fixed episodes and random slow-downs and failures, and the Timeline
// that turns them into pieces of constant rate, which the simulator and
// the testbed's servers follow alike. It imports only the workload's
// laws, prints nothing and keeps no global state.
package capacity

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/workload"
)

// Episode is a span [Start, End) of simulated time during which a tier
// runs at Speed times its speed, or serves nothing when Down.
type Episode struct {
	Start, End float64 // s
	Speed      float64 // multiplier of the tier's speed, > 0; ignored when Down
	Down       bool
}

// Recurring is a tier's random episodes: the first starts a Gap after 0,
// each next one a Gap after the previous one ends, and each lasts a
// Length; slow-downs run at Speed, failures are down.
type Recurring struct {
	Gap, Length workload.Dist // s
	Speed       float64       // slow-downs: multiplier of the tier's speed, > 0
}

// Capacity is a tier's speed over time: fixed episodes, in time order and
// disjoint, and random slow-downs and failures. Where a down span and a
// slow-down overlap the tier is down; overlapping slow-downs multiply. The
// zero value: the tier's speed, always.
type Capacity struct {
	Episodes            []Episode
	Slowdowns, Failures *Recurring
}

// Dynamic reports whether the capacity ever differs from the tier's speed.
func (c *Capacity) Dynamic() bool {
	return len(c.Episodes) > 0 || c.Slowdowns != nil || c.Failures != nil
}

// Check returns the problems of the tiers' capacities, tier i's caps[i]:
// episodes out of order or overlapping, laws without a positive mean,
// speeds out of range, and a span during which every tier is down by its
// fixed episodes (a plan that can serve nothing then).
func Check(caps []*Capacity) []error {
	var errs []error
	law := func(i int, what string, r *Recurring, speed bool) {
		if r == nil {
			return
		}
		if !(r.Gap.Mean() > 0) || !(r.Length.Mean() > 0) {
			errs = append(errs, fmt.Errorf("tier %d %s: gap mean %v, length mean %v: need > 0", i, what, r.Gap.Mean(), r.Length.Mean()))
		}
		if speed && !(r.Speed > 0 && !math.IsInf(r.Speed, 1)) {
			errs = append(errs, fmt.Errorf("tier %d %s: speed %v: need a finite number > 0", i, what, r.Speed))
		}
	}
	for i, cp := range caps {
		for k, e := range cp.Episodes {
			if !(e.Start >= 0) || !(e.End > e.Start) || (!e.Down && !(e.Speed > 0 && !math.IsInf(e.Speed, 1))) {
				errs = append(errs, fmt.Errorf("tier %d episode %d: %+v: need 0 ≤ start < end, speed > 0 unless down", i, k, e))
			}
			if k > 0 && e.Start < cp.Episodes[k-1].End {
				errs = append(errs, fmt.Errorf("tier %d episode %d starts at %v, before episode %d ends (%v): need disjoint episodes in time order", i, k, e.Start, k-1, cp.Episodes[k-1].End))
			}
		}
		law(i, keySlowdowns, cp.Slowdowns, true)
		law(i, keyFailures, cp.Failures, false)
	}
	eps := make([][]Episode, len(caps))
	for i, cp := range caps {
		eps[i] = cp.Episodes
	}
	if a, b, all := CommonDown(eps, func(e Episode) (float64, float64, bool) { return e.Start, e.End, e.Down }); all {
		errs = append(errs, fmt.Errorf("%w in [%v, %v): no task could be served then", errAllDown, a, b))
	}
	return errs
}

// CommonDown is the first span in which every one of tiers is down by its
// fixed episodes, if there are tiers and such a span; span reads an
// episode's start, end and whether it is down. The scenario's check and
// Validate share it, so that the two agree on what "all down" means.
func CommonDown[E any](tiers [][]E, span func(E) (start, end float64, down bool)) (float64, float64, bool) {
	type iv struct{ a, b float64 }
	cur := []iv{{0, math.Inf(1)}}
	for _, eps := range tiers {
		var next []iv
		for _, e := range eps {
			start, end, down := span(e)
			if !down {
				continue
			}
			for _, c := range cur {
				if a, b := max(c.a, start), min(c.b, end); a < b {
					next = append(next, iv{a, b})
				}
			}
		}
		if cur = next; len(cur) == 0 {
			return 0, 0, false
		}
	}
	return cur[0].a, cur[0].b, len(tiers) > 0
}

// errAllDown is returned for tiers that are all down at once by their fixed episodes.
var errAllDown = errors.New("every tier is down at once")

// The keys of a tier's random episodes, as errors name them.
const (
	keySlowdowns = "slowdowns"
	keyFailures  = "failures"
)

// piece is one source's current or next interval of a timeline.
type piece struct {
	start, end, speed float64
	down              bool
}

// episodeSource yields one kind of episode in time order: a fixed list,
// or random ones drawn from their own generator.
type episodeSource struct {
	fixed []Episode
	i     int
	law   *Recurring
	down  bool
	rng   *rand.Rand
	cur   piece
}

func (e *episodeSource) next() {
	if e.law == nil {
		if e.i < len(e.fixed) {
			f := e.fixed[e.i]
			e.cur = piece{f.Start, f.End, f.Speed, f.Down}
			e.i++
		} else {
			e.cur = piece{math.Inf(1), math.Inf(1), 1, false}
		}
		return
	}
	// The gap first, then the length: two draws an episode, whatever the
	// laws, so that one law's change leaves the other's draws in place.
	gap := e.law.Gap.Sample(e.rng)
	length := e.law.Length.Sample(e.rng)
	start := e.cur.end + gap
	e.cur = piece{start, start + length, e.law.Speed, e.down}
}
