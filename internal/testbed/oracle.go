package testbed

import (
	"cmp"
	"math"
	"slices"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
)

// shadow is the client's replay of each tier's FCFS queue on nominal times,
// for clairvoyant policies (View.Oracle). It is the simulator's own rule
// (engine's oracle) fed with the client's bookkeeping: the size of every task
// sent and its model reach time. It does not see the real server's timer
// jitter, which is why the emulated oracle is a reference, not a bound.
type shadow struct {
	tiers   []dispatch.Tier
	down    []bool         // per tier: marked down (the client's slice, read under its lock)
	free    []fcfs.Servers // per tier: each server's next free time, model s
	transit [][]inTransit  // per tier: tasks inside their delay
	now     float64
	size    float64
	delay   []float64
	scratch []float64
	ahead   []inTransit
}

type inTransit struct{ reach, size float64 }

var _ dispatch.Oracle = (*shadow)(nil)

func newShadow(tiers []dispatch.Tier) *shadow {
	s := &shadow{tiers: tiers, free: make([]fcfs.Servers, len(tiers)), transit: make([][]inTransit, len(tiers))}
	for i, t := range tiers {
		s.free[i] = fcfs.New(t.Servers)
	}
	return s
}

// set describes the task being decided.
func (s *shadow) set(now, size float64, delay []float64) { s.now, s.size, s.delay = now, size, delay }

// TaskSize implements dispatch.Oracle.
func (s *shadow) TaskSize() float64 { return s.size }

// Completion implements dispatch.Oracle: tasks reaching tier i no later than
// this one would are replayed in reach order on a copy of the servers' free
// times.
func (s *shadow) Completion(i int) float64 {
	if s.down != nil && s.down[i] {
		return math.Inf(1) // a tier that is down completes nothing (Health)
	}
	reach := s.now + s.delay[i]
	s.ahead = s.ahead[:0]
	for _, x := range s.transit[i] {
		if x.reach <= reach {
			s.ahead = append(s.ahead, x)
		}
	}
	slices.SortStableFunc(s.ahead, func(a, b inTransit) int { return cmp.Compare(a.reach, b.reach) })
	speed := s.tiers[i].Speed
	done, scratch := s.free[i].Completion(s.scratch, func(yield func(reach, service float64) bool) {
		for _, x := range s.ahead {
			if !yield(x.reach, x.size/speed) {
				return
			}
		}
	}, reach, s.size/speed)
	s.scratch = scratch
	return done
}

// dispatched notes a task entering its delay towards tier i.
func (s *shadow) dispatched(i int, reach, size float64) {
	s.transit[i] = append(s.transit[i], inTransit{reach, size})
}

// reached moves a task from the delay into tier i's queue.
func (s *shadow) reached(i int, reach, size float64) {
	tr := s.transit[i]
	if j := slices.Index(tr, inTransit{reach, size}); j >= 0 {
		s.transit[i] = slices.Delete(tr, j, j+1)
	}
	s.free[i].Serve(reach, size/s.tiers[i].Speed)
}
