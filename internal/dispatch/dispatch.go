// Package dispatch is the small vocabulary shared by the simulator, the
// policies and the HTTP testbed: tier descriptions, the read-only view a
// policy sees at a decision instant, and the Policy interface.
//
// It has no dependencies inside the module, so that the engine and the testbed
// can both drive the same policies without importing each other.
package dispatch

import (
	"fmt"
	"math"
)

// Kind is a tier's role in the continuum.
type Kind uint8

// The tier kinds of docs/design.md §1.
const (
	Local Kind = iota
	Edge
	Cloud
)

var kindNames = [...]string{Local: "local", Edge: "edge", Cloud: "cloud"}

// String returns the kind's scenario spelling.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// ParseKind reads a kind as spelled in a scenario file.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if n == s {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown tier kind %q (allowed: local, edge, cloud)", s)
}

// Tier is what a dispatcher knows of a tier's configuration. It does not
// change during a run.
type Tier struct {
	Name      string
	Kind      Kind
	Servers   int     // c: identical servers behind one FCFS queue
	Speed     float64 // s: work units per second of one server
	Mu        float64 // μ = s / E[size]: service rate of one server, tasks/s
	MeanDelay float64 // D̄: configured mean communication delay, s
	Cs2       float64 // squared coefficient of variation of service times at this tier
	// The tier's energy model (docs/design.md §1.11), all 0 when the
	// scenario has none: one server's power when idle and at full load
	// (W), and the device's cost per bit of sending a task's data there
	// and of receiving its reply (J/bit).
	IdlePower, MaxPower float64
	TxEnergy, RxEnergy  float64
}

// State is a tier's observable state at a decision instant. A task still
// inside its communication delay is counted in InTransit only.
type State struct {
	Queued    int // q: tasks waiting, not in service
	Busy      int // b: servers busy
	InTransit int // tasks dispatched to the tier that have not reached it yet
}

// Present returns q + b, the tasks at the tier.
func (s State) Present() int { return s.Queued + s.Busy }

// View is the read-only picture of the system handed to a policy. The caller
// owns it and may reuse it between decisions; a policy must not keep it.
type View struct {
	Now float64 // decision instant, s (simulated or wall-clock since start)
	// Task is the id of the task being decided: its arrival index in the
	// run (from 0, warmup included), the id its Completion carries.
	Task   int
	Tiers  []Tier
	States []State // States[i] describes Tiers[i]: as observed (docs/design.md §1.9)
	// Observed[i] is when the state in States[i] was observed, s: nil
	// for a fresh view (observed now). A board's view changes only when the
	// board does, so its cost is per refresh, not per decision; Age derives
	// the age.
	Observed []float64
	// Data is the bits the task being decided sends to the tier it goes to
	// (0 when the scenario gives tasks no data): a device knows the bytes it
	// uploads, though not the work they cost (docs/design.md §1.5).
	Data float64
	// Oracle is non-nil only for a policy that implements Clairvoyant.
	Oracle Oracle

	// Changed lists the tiers whose entry of States may differ from what
	// it was at the previous decision made through this view, when
	// Tracked is true (each tier at most once, in no particular order).
	// When Tracked is false, any entry may have changed: the first
	// decision, or a caller that does not follow the changes. A policy
	// that keeps something computed from States (a score per tier, an
	// order) need recompute it only for these tiers: the simulator
	// follows the changes under fresh views, so that such a policy's
	// decision does not cost a pass over every tier (docs/performance.md,
	// "Cost against the pool size").
	Changed []int
	Tracked bool

	// Retry is set when the task being decided is sent again, after an
	// attempt that timed out or that a down tier refused; nil for a task's
	// first attempt. The failed tier is left out of that decision: the
	// view shows it Unavailable (its States entry, what Reader gives for
	// it, an Oracle completion at +Inf), so that a rule on the view passes
	// it over unchanged. A policy that reads none of these may still
	// choose Retry.Failed: a simulator then sends the task to the next
	// tier in index order.
	Retry *Retry

	// Reader, if set, gives the tiers' states on demand, and States holds
	// only their InTransit counts: a caller sets it for a Sampler policy,
	// which reads the few tiers it samples through State and never reads
	// States.
	Reader Reader

	// Idle, if set, says which tiers have an idle server (Busy < Servers
	// and Queued == 0, what IsIdle reads): Idle[i] for tier i. A caller
	// sets it for an IdleReader policy, and States then holds only the
	// InTransit counts; Changed and Tracked speak of Idle's entries (the
	// tiers that went idle or stopped being idle). A simulator keeps it
	// as the tiers tell it that they go idle or fill, as a
	// join-idle-queue dispatcher's idle list is kept, rather than counting
	// every tier.
	Idle []bool
}

// IsIdle reports whether tier i has an idle server in the view: Idle[i]
// when Idle is set, else Busy < Servers and Queued == 0 from States.
func (v *View) IsIdle(i int) bool {
	if v.Idle != nil {
		return v.Idle[i]
	}
	st := &v.States[i]
	return st.Busy < v.Tiers[i].Servers && st.Queued == 0
}

// Retry describes a task sent again.
type Retry struct {
	Failed  int // the tier of the attempt that failed
	Attempt int // 1 for the first retry
}

// LeftOutQueue is the queue a view shows at a tier left out of a
// decision (Unavailable): long enough that any rule on the counts ranks
// the tier last, small enough that sums of counts do not overflow.
const LeftOutQueue = 1 << 30

// Unavailable is state st as a view shows a tier left out of a decision:
// every one of its servers busy and LeftOutQueue tasks waiting; the tasks
// in transit as they are.
func Unavailable(st State, servers int) State {
	return State{Queued: LeftOutQueue, Busy: servers, InTransit: st.InTransit}
}

// LeftOut is a retry's Reader and Oracle with tier Failed (of Servers
// servers) left out, as Retry says: Unavailable, and a completion at
// +Inf; every other tier as the caller's own Reader and Oracle give it
// (either may be nil if the policy reads none).
type LeftOut struct {
	Failed, Servers int
	Reader          Reader
	Oracle          Oracle
}

// State implements Reader.
func (l *LeftOut) State(i int) State {
	st := l.Reader.State(i)
	if i == l.Failed {
		st = Unavailable(st, l.Servers)
	}
	return st
}

// TaskSize implements Oracle.
func (l *LeftOut) TaskSize() float64 { return l.Oracle.TaskSize() }

// Completion implements Oracle: never, at the tier left out.
func (l *LeftOut) Completion(i int) float64 {
	if i == l.Failed {
		return math.Inf(1)
	}
	return l.Oracle.Completion(i)
}

// Reader gives a tier's state at the decision, on demand.
type Reader interface {
	State(i int) State
}

// State is tier i's state as the view shows it: from Reader when one is
// set, else States[i]. A Sampler policy reads the view through it alone.
func (v *View) State(i int) State {
	if v.Reader != nil {
		return v.Reader.State(i)
	}
	return v.States[i]
}

// Age is how old the observation of tier i is, s (0 for a fresh view).
func (v *View) Age(i int) float64 {
	if v.Observed == nil {
		return 0
	}
	return v.Now - v.Observed[i]
}

// Oracle gives a clairvoyant policy what others may not see.
type Oracle interface {
	// TaskSize is the work of the task being decided.
	TaskSize() float64
	// Completion is the time at which the task being decided would complete
	// at tier i if dispatched there now, given every task already dispatched
	// (FCFS in order of reaching the tier, realised delays and sizes).
	Completion(i int) float64
}

// Decision is a policy's answer: the tier index, and optionally the policy's
// own unpenalised prediction of the task's waiting time there (docs/design.md §4 MAPE).
type Decision struct {
	Tier     int
	PredWait float64 // predicted waiting time in the tier's queue, s
	HasPred  bool    // false for policies without an estimator
}

// Policy decides where each task runs.
type Policy interface {
	Decide(v *View) Decision
}

// PolicyFunc adapts a function to Policy, for tests.
type PolicyFunc func(v *View) Decision

// Decide calls f(v).
func (f PolicyFunc) Decide(v *View) Decision { return f(v) }

// Observer is implemented by policies and predictors that keep online
// estimates: they are told of every dispatch (their own or a router's), after
// the decision and any prediction for it have been made.
type Observer interface {
	Dispatched(now float64, tier int)
}

// Predictor predicts the waiting time a task would have at a tier, without
// routing penalties. The mape experiment runs predictors in shadow.
type Predictor interface {
	PredictWait(v *View, tier int) float64
}

// Clairvoyant marks a policy that must be given View.Oracle.
type Clairvoyant interface {
	Clairvoyant()
}

// Blind marks a policy whose decisions never read the counts in
// View.States (Busy, Queued, InTransit): a split by a random draw, a fixed
// tier, a rule on the task's size, the oracle's completion times. A
// simulator may leave those counts as they were at an earlier decision
// rather than read every tier for nothing at each one; the view's other
// fields, and the length of States, are set as for any policy. A wrapper
// keeps it by stating its inner policy's Capabilities (Wrap).
type Blind interface {
	Blind()
}

// Sampler marks a policy whose decisions read the states of a few tiers
// (a sample of bounded size, whatever the tier count) through View.State,
// and never View.States nor View.Changed: power-of-d, and any rule that
// looks at d tiers. A simulator may then leave States' counts unset and
// set Reader, so that a decision costs what its sample does, not a read
// of every tier. The rest of the view is set as for any policy.
type Sampler interface {
	Sampler()
}

// IdleReader marks a policy whose decisions read of the tiers' states only
// which tiers have an idle server (View.IsIdle), and of the rest of the
// view what any policy may: join-idle-queue. A simulator may then set
// View.Idle and leave States' counts unset, so that a decision costs
// what the tiers that went idle or filled since the previous one do, not
// a count of every tier.
type IdleReader interface {
	IdleReader()
}

// PredictedLatency turns a predicted wait at tier t into a predicted latency:
// wait + 1/μ + D̄ (docs/design.md §2 decision rule).
func PredictedLatency(t *Tier, wait float64) float64 {
	return wait + 1/t.Mu + t.MeanDelay
}

// Feedback is implemented by policies that learn from outcomes (an external
// program's done messages): the simulator tells them of each task's
// completion at its completion instant, before any later decision, and the
// emulation when its answer arrives. The caller owns c and reuses it; a
// policy must not keep it. Only a device whose policy implements Feedback
// pays for the completion events.
type Feedback interface {
	Done(c *Completion)
}

// Completion is one attempt's outcome, for Feedback. Times are seconds.
// Every attempt a policy decided is told once when it ends, whatever its
// Outcome (a drop at a full buffer too), so that a balancer's own counts
// of outstanding requests return to zero; a Moved one is told at its
// decision besides; an abandoned one (its patience ran out in the queue)
// as TimedOut at its deadline. The exceptions are an attempt lost with
// its tier, or abandoned, when the scenario has no timeout: nothing
// reaches its dispatcher, as with a request that hangs, and a balancer
// counts it outstanding.
type Completion struct {
	Task    int     // the task's id, as View.Task gave it at its decision
	Tier    int     // the tier it ran at (the device's index)
	Now     float64 // the instant the dispatcher learns of it: arrival + latency
	Latency float64 // delay + wait + service; for a failure, from its send to Now
	Delay   float64 // communication delay
	Wait    float64 // waiting in the tier's queue
	Service float64 // service time
	Outcome Outcome // Completed, the zero value, unless the attempt failed
	From    int     // Moved: the tier the policy had chosen
}

// Outcome is how an attempt ended, as its dispatcher learns of it.
type Outcome uint8

const (
	// Completed: the task's answer came back.
	Completed Outcome = iota
	// Failed: an error came back from a tier that was down (after its
	// round trip); Wait and Service are 0.
	Failed
	// TimedOut: the dispatcher gave up on the attempt at its timeout;
	// Wait and Service are 0 (it does not know them).
	TimedOut
	// Moved is no end: the attempt the policy sent to From went to Tier
	// instead (a retry's fallback, the policy having chosen the tier that
	// failed) and is outstanding there. Only the tiers and Now are set.
	Moved
)

// String names the outcome as the external protocol writes it.
func (o Outcome) String() string {
	switch o {
	case Completed:
		return "completed"
	case Failed:
		return "failed"
	case TimedOut:
		return "timeout"
	case Moved:
		return "moved"
	}
	return "unknown"
}

// Capabilities is what a policy can do beyond Decide: the optional
// abilities above, as one value. A caller reads it once, before a run
// (CapabilitiesOf), rather than asserting interfaces on the policy at
// every use; a zero field is an ability the policy lacks.
type Capabilities struct {
	Observer    Observer // told of every dispatch; nil: none
	Feedback    Feedback // told of every completion; nil: none
	Clairvoyant bool     // must be given View.Oracle
	Blind       bool     // reads no count of View.States
	Sampler     bool     // reads a few tiers through View.State only
	Idle        bool     // reads only which tiers are idle (View.IsIdle)
}

// Capable is a policy that states its capabilities itself: a wrapper,
// whose own methods are not its inner policy's. CapabilitiesOf then
// believes it rather than the interfaces the wrapper's type implements.
type Capable interface {
	Capabilities() Capabilities
}

// CapabilitiesOf is p's capabilities: as it states them if it is Capable,
// else the interfaces of this package it implements.
func CapabilitiesOf(p Policy) Capabilities {
	if c, ok := p.(Capable); ok {
		return c.Capabilities()
	}
	var c Capabilities
	c.Observer, _ = p.(Observer)
	c.Feedback, _ = p.(Feedback)
	_, c.Clairvoyant = p.(Clairvoyant)
	_, c.Blind = p.(Blind)
	_, c.Sampler = p.(Sampler)
	_, c.Idle = p.(IdleReader)
	return c
}

// Wrap returns a policy that decides by decide and has inner's
// capabilities: its observer, its feedback, its oracle, its blindness. A
// decide that calls inner.Decide (to time it, to log it) then changes
// nothing else of what a caller does with inner. A wrapper that does more
// (observes on its own, reads the view) implements Capable itself and
// states what it changes.
func Wrap(inner Policy, decide func(v *View) Decision) Policy {
	return &wrapped{decide: decide, caps: CapabilitiesOf(inner)}
}

// wrapped is Wrap's policy.
type wrapped struct {
	decide func(v *View) Decision
	caps   Capabilities
}

// Decide calls the wrapper's decide.
func (w *wrapped) Decide(v *View) Decision { return w.decide(v) }

// Capabilities implements Capable: the inner policy's.
func (w *wrapped) Capabilities() Capabilities { return w.caps }
