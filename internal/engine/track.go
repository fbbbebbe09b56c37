package engine

import (
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/pq"
)

// Tracked views (docs/performance.md, "Cost against the pool size"). A
// fresh view counted at each decision (device.count) reads every tier:
// O(n) a decision, whatever the policy does with it. With many tiers the
// engine instead keeps every tier's count current and each view's States
// up to date by the tiers that changed, and tells the policy which those
// are (View.Changed), so that a policy that keeps its keys per tier (jsq,
// jsq-s, the hybrid) does O(changes) work a decision:
//
//   - a tier changes when a task reaches it (reach) and when one leaves
//     it. Departures are not events; each tier's next one is its key in
//     the due heap (an indexed min-heap over the physical tiers), and a
//     decision at t first recounts the tiers due by t (settle): one
//     recount per departure at most, O(log n) each;
//   - each change is appended to the change log, a list of physical
//     tiers; a device's decision applies the entries since its previous
//     one to its view (follow), each tier once, and lists them in
//     View.Changed with the tiers whose InTransit it changed itself
//     (pend). The log is emptied once every device has read it (one
//     device) or when it grows past twice the tiers (several: a device
//     that has not read it all then sets its whole view, an O(n) that
//     costs what the entries would).
//
// Below trackTiers tiers a decision counts every tier, as before: the
// count of a few tiers costs less than keeping the heap and the log.
// Measured under jsq-s, jiq and the hybrid (20 tasks/s a tier of 4
// servers), the two cost the same between 24 and 32 tiers; counting is
// ahead by a tenth at 16 and behind by a quarter at 64.

// trackTiers is the fewest scenario tiers for which counted views are
// tracked rather than counted at every decision.
const trackTiers = 24

// kept is tier ts's count as last brought up to date: exact at a decision
// once settle has run.
func kept(ts *tierState) int {
	if ts.kw {
		return ts.n
	}
	return ts.fin.len()
}

// nextChange is when tier ts's kept count next changes without a reach:
// its next departure.
func nextChange(ts *tierState) float64 {
	if ts.kw {
		return ts.until
	}
	return ts.fin.next()
}

// settle recounts, at a decision at t, every tier with a departure due
// by t, logging those whose count changed.
func (s *sim) settle(t float64) {
	for {
		p, at := s.due.Top()
		if !(at <= t) {
			return
		}
		ts := &s.tiers[p]
		before := kept(ts)
		s.count(ts, t) // a small tier's count from its vector, a large one's heap drained
		s.due.Set(p, nextChange(ts))
		if kept(ts) != before {
			s.clog = append(s.clog, int32(p))
		}
	}
}

// touched logs tier p, which a task just reached, and moves its key to its
// next departure if the task made that earlier. A later one (a heap tier
// that drained) leaves the key early, which costs a recount that finds
// nothing changed, not a departure missed.
func (s *sim) touched(p int, ts *tierState) {
	s.clog = append(s.clog, int32(p))
	if t := nextChange(ts); t < s.due.Key(p) {
		s.due.Set(p, t)
	}
}

// pended notes that device dv's view tier i changed by its own doing (a
// task of its in transit there, or arrived; its own send on a board) or a
// board's posting, for its next decision. Past a list of twice its tiers
// it stops: the decision then sets every tier as changed.
func (s *sim) pended(dv *device, i int32) {
	if dv.tracks && len(dv.pend) <= 2*len(dv.seen) {
		dv.pend = append(dv.pend, i)
	}
}

// followBoard lists in View.Changed the tiers of device dv's board view
// that changed since its previous decision: the postings and its own
// sends, which set its view as they come (refresh, sentOwn), and its own
// tasks' InTransit.
func (s *sim) followBoard(dv *device) {
	v := &dv.view
	v.Changed = v.Changed[:0]
	dv.nextEpoch()
	v.Tracked = dv.cursor >= 0 && len(dv.pend) <= 2*len(dv.seen)
	if v.Tracked {
		for _, i := range dv.pend {
			s.mark(dv, int(i))
		}
	}
	dv.pend = dv.pend[:0]
	dv.cursor = 0
}

// nextEpoch starts a decision's marks: a tier is marked in it when its
// mark equals the epoch, so a wrapped epoch clears every mark first.
func (dv *device) nextEpoch() {
	if dv.epoch++; dv.epoch == 0 {
		clear(dv.mark)
		dv.epoch = 1
	}
}

// follow brings device dv's view up to date at a decision, after settle:
// the tiers the log holds since its previous decision and its own
// changes, listed in View.Changed; or every tier when the log no longer
// holds them (or at its first decision), with Tracked false.
func (s *sim) follow(dv *device) {
	v := &dv.view
	v.Changed = v.Changed[:0]
	dv.nextEpoch()
	end := s.clogBase + len(s.clog)
	if dv.cursor < s.clogBase || len(dv.pend) > 2*len(dv.seen) { // the log or its own list no longer holds every change
		states := v.States[:len(dv.seen)]
		for i, ts := range dv.seen {
			setCounts(&states[i], kept(ts), ts.servers)
		}
		v.Tracked = false
	} else {
		for _, p := range s.clog[dv.cursor-s.clogBase:] {
			ts := &s.tiers[p]
			if ts.owner >= 0 && int(ts.owner) != dv.index { // another device's local copy
				continue
			}
			i := ts.scen
			setCounts(&v.States[i], kept(ts), ts.servers)
			s.mark(dv, i)
		}
		for _, i := range dv.pend {
			s.mark(dv, int(i))
		}
		v.Tracked = true
	}
	dv.pend = dv.pend[:0]
	dv.cursor = end
	if len(s.devs) == 1 || len(s.clog) > s.clogMax {
		s.clogBase = end
		s.clog = s.clog[:0]
	}
}

// mark lists view tier i in device dv's View.Changed, once a decision.
func (s *sim) mark(dv *device, i int) {
	if dv.mark[i] != dv.epoch {
		dv.mark[i] = dv.epoch
		dv.view.Changed = append(dv.view.Changed, i)
	}
}

// reader is the sim as the dispatch.Reader of a Sampler policy's view: a
// tier's state counted when the policy reads it, for the deciding device.
type reader sim

// State implements dispatch.Reader.
func (r *reader) State(i int) dispatch.State {
	s := (*sim)(r)
	dv := s.cur
	ts := dv.seen[i]
	st := dv.view.States[i] // its InTransit, kept for every device
	setCounts(&st, s.present(ts, s.now), ts.servers)
	return st
}

// Idle views (View.Idle). A policy that reads of the tiers only which
// are idle (dispatch.IdleReader: jiq) is told of a tier when it goes idle
// or fills, as a join-idle-queue dispatcher is told by its servers,
// rather than of every count that changes: an FCFS tier has an idle
// server at t exactly when its earliest free server is free by then
// (Free() ≤ t: with fewer tasks present than servers, none waits), so
//
//   - a reach that leaves every server busy past it fills the tier (busied);
//   - a filled tier waits in the busy heap, by its earliest free time
//     when it filled. A later reach only delays that time (Free never
//     decreases), so the key is left as it is: at a decision at t, each
//     tier whose key is due (freed) is idle if its Free() is by t, and
//     goes back with its Free() otherwise. The heap holds the filled
//     tiers alone and is touched when a tier fills or frees, not at
//     every departure as the due heap is;
//   - either change is logged in clog as a count change is, and a
//     device's decision applies the entries since its previous one to
//     its View.Idle (followIdle), as follow does to States.
//
// A run keeps idle views when every device that would count its view is
// such a policy without shadows, under fresh noiseless views of an FCFS
// run without dynamics (whose reaches go through reachSlow), whatever its
// tiers: unlike a counted view, which costs less counted whole below
// trackTiers tiers, an idle view costs what a count of three tiers does
// and less from ten (jiq, 20 tasks/s a tier of 4 servers).

// idleViews reports whether the run keeps idle views (see above), given
// each device's capabilities.
func (s *sim) idleViews(caps []dispatch.Capabilities, devs []Device) bool {
	if !s.fresh || s.cfg.Dynamic() {
		return false
	}
	some := false
	for d := range caps {
		switch c := &caps[d]; {
		case c.Idle && len(devs[d].Shadows) == 0:
			some = true
		case s.countsView(c, devs[d].Shadows):
			return false
		}
	}
	return some
}

// setIdle readies a run that keeps idle views: every tier idle, each idle
// view to be set whole at its first decision.
func (s *sim) setIdle() {
	if !s.idles {
		return
	}
	s.busy = make(pq.Times, 0, len(s.tiers))
	s.clogBase, s.clogMax = 0, max(64, 2*len(s.tiers))
	for p := range s.tiers {
		s.tiers[p].idle = true
	}
	for d := range s.devs {
		if dv := &s.devs[d]; dv.idle {
			dv.cursor = -1
			dv.mark = make([]uint32, len(dv.seen))
		}
	}
}

// busied notes a task's reach at t of tier p: the tier fills if every
// server is busy past t.
func (s *sim) busied(p int, ts *tierState, t float64) {
	if f := ts.free.Free(); ts.idle && f > t {
		ts.idle = false
		s.busy.Push(f, p)
		s.clog = append(s.clog, int32(p))
	}
}

// freed marks idle, at a decision at t, every filled tier with a server
// free by t.
func (s *sim) freed(t float64) {
	for len(s.busy) > 0 && s.busy[0].At <= t {
		p := s.busy[0].ID
		ts := &s.tiers[p]
		if f := ts.free.Free(); f > t { // reached since it filled: free later
			s.busy.Down(pq.Entry{At: f, ID: p})
			continue
		}
		ts.idle = true
		last := len(s.busy) - 1
		x := s.busy[last]
		s.busy = s.busy[:last]
		if last > 0 {
			s.busy.Down(x)
		}
		s.clog = append(s.clog, p)
	}
}

// followIdle brings device dv's idle view up to date at a decision, after
// freed, as follow does a counted view: the tiers logged since its
// previous decision, listed in View.Changed; or every tier when the log
// no longer holds them (or at its first decision), with Tracked false.
func (s *sim) followIdle(dv *device) {
	v := &dv.view
	v.Changed = v.Changed[:0]
	dv.nextEpoch()
	end := s.clogBase + len(s.clog)
	if dv.cursor < s.clogBase {
		for i, ts := range dv.seen {
			v.Idle[i] = ts.idle
		}
		v.Tracked = false
	} else {
		for _, p := range s.clog[dv.cursor-s.clogBase:] {
			ts := &s.tiers[p]
			if ts.owner >= 0 && int(ts.owner) != dv.index { // another device's local copy
				continue
			}
			v.Idle[ts.scen] = ts.idle
			s.mark(dv, ts.scen)
		}
		v.Tracked = true
	}
	dv.cursor = end
	if len(s.devs) == 1 || len(s.clog) > s.clogMax {
		s.clogBase = end
		s.clog = s.clog[:0]
	}
}
