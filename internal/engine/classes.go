package engine

import (
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/workload"
)

// Class is one class of tasks (docs/model.md §1.13): the share of the
// tasks in it, its priority at a priority tier (the lower served first),
// its size law (the zero Dist: Config.Size), its deadline (s from arrival;
// 0: none) and its patience law (the zero Dist: Config.Patience).
type Class struct {
	Name     string
	Share    float64
	Priority int
	Size     workload.Dist
	Deadline float64
	Patience workload.Dist
}

func (c *Config) validateClasses() []error {
	var errs []error
	sum := 0.0
	for k, cl := range c.Classes {
		if !(cl.Share > 0 && cl.Share <= 1) || !(cl.Deadline >= 0) {
			errs = append(errs, fmt.Errorf("class %d (%s): share %v, deadline %v: need a share in (0, 1] and a deadline ≥ 0", k, cl.Name, cl.Share, cl.Deadline))
		}
		sum += cl.Share
	}
	if len(c.Classes) > 0 && math.Abs(sum-1) > 1e-9 {
		errs = append(errs, fmt.Errorf("classes' shares sum to %v: need 1", sum))
	}
	return errs
}

// patient reports whether some task may run out of patience.
func (c *Config) patient() bool {
	if c.Patience.Mean() > 0 {
		return true
	}
	for k := range c.Classes {
		if c.Classes[k].Patience.Mean() > 0 {
			return true
		}
	}
	return false
}

// patienceLaw is the patience law of class k, nil when it has none.
func (c *Config) patienceLaw(k int32) *workload.Dist {
	if len(c.Classes) > 0 {
		if p := &c.Classes[k].Patience; p.Mean() > 0 {
			return p
		}
	}
	if c.Patience.Mean() > 0 {
		return &c.Patience
	}
	return nil
}

// abandons reports whether the task in slot, reaching FCFS tier ts, would
// wait longer than its patience, and if so ends it: it stays in the queue
// until its patience runs out (its place counted, no server taken), then
// leaves. An FCFS task's start is known at its reach, so the test is
// exact: the tasks before it that abandon took no server either. A
// deadline no later than the patience's end comes first, as at an
// event-driven tier: the attempt times out (reachDynamic) and no longer
// abandons.
func (s *sim) abandons(slot int32, ts *tierState) bool {
	x := &s.slots[slot]
	law := s.cfg.patienceLaw(x.class)
	if law == nil {
		return false
	}
	if ts.tl.DownAt(x.reach) {
		return false // refused as down (reachDynamic)
	}
	wait := max(x.reach, ts.free.Free()) - x.reach
	if wait <= 0 {
		return false
	}
	a := &s.dyn.side[slot]
	p := s.devs[x.dev].src.Patience(a.seq, law)
	if wait <= p || x.reach+p >= a.sent+s.dyn.timeout {
		return false
	}
	s.keep(ts, x.reach, x.reach+p)
	if s.track {
		s.touched(int(x.tier), ts)
	}
	if s.measuring && x.reach >= s.t0 {
		ts.reached++
		ts.sojourn += p
	}
	s.abandoned(slot)
	return true
}

// abandoned ends the task in slot, whose patience ran out in its tier's
// queue before its deadline. Its dispatcher cannot see the queue: with a
// timeout it learns of the attempt's end at its deadline, as a timeout,
// and tells a policy that learns from outcomes then; without one it never
// does, as with a task lost with its tier. The task is not sent again.
func (s *sim) abandoned(slot int32) {
	if s.orphanEnds(slot) {
		return
	}
	a := &s.dyn.side[slot]
	s.tellFailed(&s.slots[slot], a, a.sent+s.dyn.timeout)
	s.end(slot, &s.res.Out.Abandoned)
}
