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
// a reference, not an optimum. An attempt whose timeout comes before its
// reach under cancel_on_timeout never joins, and does not count either
// (one cancelled in the queue, later, still does: the replay knows no
// timeouts).
func (o *oracle) Completion(i int) float64 {
	s := (*sim)(o)
	ts := &s.tiers[s.cur.phys[i]]
	reach := s.now + s.cur.src.Delay(&s.task, i)
	ahead := ts.transit[:s.reachedBy(ts, reach)]
	speed := ts.speed
	cancel := s.dyn != nil && s.dyn.cancel
	done, scratch := ts.free.Completion(s.scratchF, func(yield func(reach, service float64) bool) {
		for _, sl := range ahead {
			x := &s.slots[sl]
			if cancel && s.dyn.side[sl].sent+s.dyn.timeout <= x.reach {
				continue // it times out in transit and never joins (expire)
			}
			if !yield(x.reach, x.size/speed) {
				return
			}
		}
	}, reach, s.task.Size/speed)
	s.scratchF = scratch
	return done
}

// reachedBy is how many of tier ts's tasks in transit reach it no later
// than t. Its list is kept in the order the events deliver them, by reach
// and, at equal reaches, by dispatch (the later after): so they are a
// prefix of it, in the order the replay needs, with no scan or sort of the
// list at each decision.
// A dispatched task is put where reachedBy says for its own reach, after
// every task that reaches no later than it does. The count is searched
// from the list's end: the tasks dispatched before mostly reach before
// (when the tier's delays are alike), so few are passed over, which costs
// the usual list of one or two tasks less than a binary search would.
func (s *sim) reachedBy(ts *tierState, t float64) int {
	n := len(ts.transit)
	for n > 0 && s.slots[ts.transit[n-1]].reach > t {
		n--
	}
	return n
}
