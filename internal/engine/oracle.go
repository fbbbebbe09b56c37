package engine

// oracle is the clairvoyant face of a sim, handed to policies that implement
// dispatch.Clairvoyant through View.Oracle.
type oracle sim

// TaskSize is the size of the task being decided.
func (o *oracle) TaskSize() float64 { return o.task.Size }

// Completion is the exact completion time at tier i of the task being decided,
// were it dispatched there now. FCFS serves tasks in the order they reach the
// tier, so only tasks reaching it no later than this one (t + D_i) delay it:
// they are replayed, in reach order, on a copy of the servers' free times.
// Tasks already dispatched that would reach it later are overtaken and do not
// count; neither do tasks not yet dispatched, which is why this greedy rule is
// a reference, not an optimum.
func (o *oracle) Completion(i int) float64 {
	s := (*sim)(o)
	ts := &s.tiers[s.cur.phys[i]]
	reach := s.now + s.task.Delays[i]
	ahead := s.scratchI[:0]
	for _, sl := range ts.transit {
		if s.slots[sl].reach <= reach {
			ahead = insertByReach(s.slots, ahead, sl)
		}
	}
	s.scratchI = ahead
	speed := ts.speed
	done, scratch := ts.free.Completion(s.scratchF, func(yield func(reach, service float64) bool) {
		for _, sl := range ahead {
			x := &s.slots[sl]
			if !yield(x.reach, x.size/speed) {
				return
			}
		}
	}, reach, s.task.Size/speed)
	s.scratchF = scratch
	return done
}

// insertByReach inserts sl into ahead, kept sorted by (reach, id): the order
// in which the engine's events would deliver them.
func insertByReach(slots []transit, ahead []int32, sl int32) []int32 {
	ahead = append(ahead, sl)
	x := &slots[sl]
	j := len(ahead) - 1
	for j > 0 {
		p := &slots[ahead[j-1]]
		if p.reach < x.reach || (p.reach == x.reach && p.id < x.id) {
			break
		}
		ahead[j] = ahead[j-1]
		j--
	}
	ahead[j] = sl
	return ahead
}
