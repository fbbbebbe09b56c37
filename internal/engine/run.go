package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/offload-sim/offload/internal/capacity"
	"github.com/offload-sim/offload/internal/discipline"
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/observe"
	"github.com/offload-sim/offload/internal/pq"
	"github.com/offload-sim/offload/internal/workload"
)

// transit is a dispatched task that has not reached its tier yet. arrive
// sets every field one by one (see there why): a new field is set there too.
type transit struct {
	id                   int
	arrival, size, delay float64
	reach                float64
	tier                 int32 // physical tier
	vtier                int32 // the tier as its device sees it (the scenario's index)
	dev                  int32
	measured             bool
	hasPred              bool
	// idle: the chosen tier had an idle server in the dispatcher's view at
	// the decision (b < c), so the task was expected not to wait; the mape
	// experiment splits its shadows' errors by it (claim 3's evidence). Set
	// for a measured task of a run with shadows only (predictShadows), the
	// one case that reads it; false otherwise.
	idle        bool
	predWait    float64
	data, reply float64 // bits
	class       int32   // its class (Config.Classes; 0 without)
}

// tierState is a physical tier's dynamic state. Every tier of the scenario
// is one physical tier, except a local tier with several devices: each
// device has its own copy.
type tierState struct {
	// What a task's reach touches comes first, so that it spans as few
	// cache lines as it can: with many tiers, a task's tier is rarely in
	// the nearest cache, and each line of it is a miss.
	free fcfs.Servers // each server's next free time (Kiefer–Wolfowitz vector)
	// The tasks present, waiting or in service: read from free and the
	// start times of the tasks that wait (kw, a tier of few servers), or
	// kept as their finish times (fin, as of the tier's last drain). See
	// present.
	waits fcfs.Waits
	// kw: n, the tasks present at the tier's last count, holds for reads
	// before until, the next departure then (+Inf when none is present).
	// A task that reaches the tier is added to n (its finish, if it starts
	// at once, may be the next departure); after until that only adds to
	// a count already stale, which the next read does again.
	n     int
	until float64
	last  float64 // kw: the latest finish of a task given to the tier: none is present from then on
	speed float64
	// The Little's-law sums of TierResult for this physical tier, added
	// into the result when the window closes: kept here, next to the
	// tier's other hot fields, rather than through the result on every
	// task. A tier of one copy gets exactly its sums. areaN holds the
	// residual at the window's start until then (stopMeasuring).
	sojourn float64
	reached int
	areaN   float64
	scen    int // the scenario tier it is (a copy) of
	servers int
	owner   int32 // the device whose local copy it is; −1: shared by every device
	kw      bool
	idle    bool // a run with idle views: the tier had an idle server at the last decision or reach (track.go)

	fin      finishes
	transit  []int32   // slots of tasks travelling to the tier, in the order they reach it (kept for a clairvoyant policy only; reachedBy)
	watchers []viewRef // the views that show it: one per device that sees it (board models)
	board    boardEntry
	hist     observe.History
	tl       *capacity.Timeline // its capacity over time; nil: its speed, always
	buffer   int                // the most tasks present; 0: no limit
	ev       *discipline.Tier   // an event-driven discipline's state; nil: FCFS (discipline.go)
}

// viewRef is tier i of device d's view.
type viewRef struct{ dev, tier int }

// device is one dispatcher: its arrivals, its policy, its view.
type device struct {
	// What every decision reads comes first, in the first four of the
	// value's eight cache lines (it is 512 bytes, so that in sim.devs each
	// device starts on a line; TestDeviceLayout): with many devices, a
	// device is cold when its turn comes, and each line is a miss.
	pol  dispatch.Policy
	src  *workload.Source
	phys []int // view tier → physical tier
	// count: the device's fresh view is counted at each of its
	// decisions, for a policy or shadows that read it (countsView); a
	// dispatch.Blind policy without shadows reads none of it, and its Busy
	// and Queued are left unset. sample: a dispatch.Sampler policy without
	// shadows reads the few tiers it samples through View.Reader, each
	// counted when read.
	count, sample bool
	// tracks: the device's view follows the tiers that change
	// (View.Changed): a counted fresh view of a tracked run, or a
	// board's view, which changes at postings and own sends only.
	tracks bool
	// idle: the device's view is an idle view (View.Idle), which follows
	// the tiers that go idle or fill (track.go).
	idle      bool
	index     int // the device's index in sim.devs
	observers []dispatch.Observer
	shadows   []dispatch.Predictor
	// feedback is the policy's, if it learns from completions (feedback.go).
	feedback dispatch.Feedback
	view     dispatch.View
	// seen is phys as pointers to the tiers' states, which the fresh
	// view reads at every decision: no bounds check and no index
	// arithmetic per tier.
	seen []*tierState
	rng  *rand.Rand // the observation draws of this device
	// Tracked views (track.go): the change log's entries this device has
	// applied to its view, its own changes since its last decision, and
	// the marks that list a tier once in View.Changed.
	cursor    int
	pend      []int32
	mark      []uint32
	epoch     uint32
	sentSince []int             // own sends per view tier since that tier's observation (board models)
	sendLog   []observe.History // Delayed with CountOwn: own sends per view tier, as a running count
	sent      []int             // own sends per view tier, ever
	_         [24]byte          // to 512 bytes
}

// sim is one run's state. It lives for one call of Run.
type sim struct {
	cfg       *Config
	devs      []device
	cur       *device       // the device deciding now
	task      workload.Task // the task being decided
	tiers     []tierState   // physical tiers
	events    pq.Events
	slots     []transit
	freeSlots []int32
	nShadows  int
	shPred    []float64 // shadow predictions, slot-major
	res       *Result
	rec       TaskRecord
	obs       Observation
	fresh     bool // obs.FastFresh(): views are the true counts, read at each decision
	delayed   bool // Delayed: every change of a tier goes into its history
	listen    bool // cfg.OnTask or a device's Feedback wants each task's record
	ownBoard  bool // a board model counting own sends
	oracle    bool // a device's policy is clairvoyant: keep each tier's transit list
	drawView  bool // obs.PerDecision()
	// track: counted views are kept current by the tiers that change
	// rather than counted whole at each decision (track.go).
	track    bool
	follows  bool          // some device's view tracks its changes (device.tracks)
	due      pq.Keys       // the tiers by their next departure
	clog     []int32       // the change log: physical tiers, in the order they changed
	clogBase int           // the log position of clog[0]
	clogMax  int           // the log's length past which it is emptied with several devices
	next     pq.Keys       // several devices: by their next arrival
	idles    bool          // the run keeps idle views (track.go)
	busy     pq.Times      // idle views: the filled tiers, by when they may free a server
	obsRand  *rand.Rand    // the board's draws (Individual epochs, noise at posting)
	noise    workload.Dist // the lognormal factor of Observation.Noise
	horizon  float64       // Delayed: how far back a look may go

	now       float64
	scratchF  []float64
	measuring bool
	t0        float64 // start of the measured window
	pending   int     // measured tasks still in transit
	held      int32   // the slot of a task arrive dispatched with a delay and did not schedule; −1 none
	started   bool    // duration mode: the window has opened

	// fb holds the completions waiting for their instant (feedback.go).
	fb feedback
	// dyn: capacities, timeouts and retries (dynamic.go); nil without.
	dyn *dynamics
	// patient: some task may run out of patience (classes.go).
	patient bool
}

// Device is one dispatcher of a run (docs/design.md §1.9): its policy, its
// workload streams (its own arrivals, sizes and delays), the generator of
// its observation draws (Delayed ages, noise; nil when none are drawn), and
// the predictors run in shadow on its decisions.
type Device struct {
	Policy  dispatch.Policy
	Streams workload.Streams
	Observe *rand.Rand
	Shadows []dispatch.Predictor
	// Feedback, if set, is told of each of the device's tasks' completion
	// at its instant (usually the policy itself, when it implements
	// dispatch.Feedback and wants to be told); nil: no completion events.
	Feedback dispatch.Feedback
	// Tape, if set, replays the device's tasks from a recording of its
	// streams (NewTapes) instead of drawing them from Streams: the same
	// tasks, drawn once for all the policies of a replicate.
	Tape *workload.Tape
}

// Run simulates one run of cfg under policy p with the given workload
// streams: one device, with cfg.Shadows in shadow. The policy's own
// randomness, if any, was given to it at construction. Run returns an error
// for an invalid config or a policy that names a tier that does not exist.
func Run(cfg *Config, p dispatch.Policy, st workload.Streams) (*Result, error) {
	fb := dispatch.CapabilitiesOf(p).Feedback
	return RunDevices(cfg, []Device{{Policy: p, Streams: st, Shadows: cfg.Shadows, Feedback: fb}}, nil)
}

// RunDevices simulates one run with one dispatcher per device, sharing the
// non-local tiers (each device has its own copy of the local ones). board
// draws what the shared board needs (Individual's repost epochs, noise at
// posting); nil when the observation model draws nothing there. Every device
// must have the same number of shadows.
func RunDevices(cfg *Config, devs []Device, board *rand.Rand) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("engine config: %w", err)
	}
	if len(devs) == 0 {
		return nil, fmt.Errorf("engine: no device")
	}
	for d := range devs {
		if len(devs[d].Shadows) != len(devs[0].Shadows) {
			return nil, fmt.Errorf("engine: device %d has %d shadows, device 0 %d", d, len(devs[d].Shadows), len(devs[0].Shadows))
		}
	}
	s, err := newSim(cfg, devs, board)
	if err != nil {
		return nil, err
	}
	if err := s.loop(); err != nil {
		return nil, err
	}
	if s.dyn != nil && s.dyn.err != nil {
		return nil, s.dyn.err
	}
	return s.res, nil
}

func newSim(cfg *Config, devs []Device, board *rand.Rand) (*sim, error) {
	s := &sim{cfg: cfg, obs: cfg.Observe, obsRand: board, nShadows: len(devs[0].Shadows)}
	s.setObservation()
	// If no device counts its view (countsView), and nothing else reads a
	// tier between the window's two ends (a board, a drawn view), every
	// tier reads its count from its workload vector (kw), whatever its
	// size: the scan of its servers that makes a large tier keep a heap of
	// finishes instead is then never run, and the heap's push and pop for
	// every task are saved.
	caps := make([]dispatch.Capabilities, len(devs)) // read once: a wrapper states its inner policy's
	unread := s.fresh
	for d := range devs {
		caps[d] = dispatch.CapabilitiesOf(devs[d].Policy)
		if caps[d].Clairvoyant && cfg.EventDriven() {
			return nil, fmt.Errorf("engine: a clairvoyant policy replays FCFS queues: it cannot run with a ps, srpt or priority tier")
		}
	}
	s.idles = s.idleViews(caps, devs)
	for d := range devs {
		unread = unread && !s.countsView(&caps[d], devs[d].Shadows) && !s.samples(&caps[d], devs[d].Shadows)
	}
	s.devs = make([]device, len(devs))
	maxC := s.addTiers(unread)
	if err := s.addDevices(devs, caps); err != nil {
		return nil, err
	}
	s.scratchF = make([]float64, 0, maxC)
	if err := s.scheduleBoard(devs); err != nil {
		return nil, err
	}
	s.listen = cfg.OnTask != nil
	for d := range s.devs {
		s.listen = s.listen || s.devs[d].feedback != nil
	}
	s.res = newResult(cfg, s.tiers, s.nShadows)
	s.setTrack(len(cfg.Tiers) >= trackTiers)
	s.setIdle()
	s.initDynamics()
	s.patient = cfg.patient()
	return s, nil
}

// setObservation derives the run's flags and laws from its observation
// model.
func (s *sim) setObservation() {
	s.fresh, s.drawView = s.obs.FastFresh(), s.obs.PerDecision()
	s.delayed = s.obs.Model == Delayed
	s.ownBoard = s.obs.Board() && s.obs.CountOwn
	if s.obs.Noise > 0 {
		s.noise, _ = workload.LognormalDelay(1, s.obs.Noise)
	}
	if s.delayed {
		s.horizon = observe.Horizon(s.obs.Delay)
	}
}

// addTiers builds the physical tiers: the scenario's order, a local tier's
// copies (one per device) next to each other; and each device's map from
// its view's tiers to them. unread: no view reads a tier's count (see
// newSim). It returns the most servers of a tier.
func (s *sim) addTiers(unread bool) int {
	cfg, k := s.cfg, len(s.devs)
	maxC := 0
	for i := range cfg.Tiers {
		copies := 1
		if k > 1 && cfg.Tiers[i].Kind == dispatch.Local {
			copies = k
		}
		for c := range copies {
			owner := int32(-1)
			if copies > 1 {
				owner = int32(c)
			}
			s.addTier(i, owner, unread)
		}
		maxC = max(maxC, cfg.Tiers[i].Servers)
	}
	return maxC
}

// addTier appends a physical tier, a copy of scenario tier i owned by
// device owner (−1: shared by every device), and maps the views that show
// it to it.
func (s *sim) addTier(i int, owner int32, unread bool) {
	t := &s.cfg.Tiers[i]
	p := len(s.tiers)
	s.tiers = append(s.tiers, tierState{free: fcfs.New(t.Servers), fin: newFinishes(), scen: i, owner: owner,
		servers: t.Servers, speed: t.Speed,
		kw: !s.delayed && (t.Servers <= kwServers || unread)})
	ts := &s.tiers[p]
	ts.setDiscipline(s.cfg, t)
	if s.delayed {
		ts.hist = observe.NewHistory()
	}
	for d := range s.devs {
		if owner >= 0 && int(owner) != d {
			continue
		}
		if !s.fresh { // a board's postings set the views that show the tier
			ts.watchers = append(ts.watchers, viewRef{d, i})
		}
		if s.devs[d].phys == nil {
			s.devs[d].phys = make([]int, len(s.cfg.Tiers))
		}
		s.devs[d].phys[i] = p
	}
}

// addDevices sets up each device's view, source and listeners, once the
// physical tiers are complete (their elements stay put from then on);
// caps[d] is device d's policy's capabilities.
func (s *sim) addDevices(devs []Device, caps []dispatch.Capabilities) error {
	spec := deviceSpec(s.cfg, len(devs))
	// Every device's view shows the same tiers: one slice for all, which
	// policies only read (a device's memory is then its states alone).
	tiers := make([]dispatch.Tier, len(s.cfg.Tiers))
	for i := range s.cfg.Tiers {
		tiers[i] = s.cfg.Tiers[i].Tier
	}
	for d := range devs {
		dv := &s.devs[d]
		dv.seen = make([]*tierState, len(tiers))
		for i, p := range dv.phys {
			dv.seen[i] = &s.tiers[p]
		}
		dv.pol, dv.shadows, dv.rng = devs[d].Policy, devs[d].Shadows, devs[d].Observe
		c := &caps[d]
		dv.count, dv.sample, dv.index = s.countsView(c, dv.shadows), s.samples(c, dv.shadows), d
		dv.idle = s.idles && c.Idle && len(dv.shadows) == 0
		dv.feedback = devs[d].Feedback
		if tp := devs[d].Tape; tp != nil {
			if !reflect.DeepEqual(tp.Spec(), spec) {
				return fmt.Errorf("engine: device %d's tape records another workload than this run's", d)
			}
			dv.src = tp.Source()
		} else {
			dv.src = workload.NewSource(spec, devs[d].Streams, s.cfg.Cancel)
		}
		s.setView(dv, tiers, c.Clairvoyant)
		s.addObservers(dv, c.Observer)
	}
	return nil
}

// setView allocates device dv's view of tiers and what it keeps of its own
// sends, and gives it the reader or the oracle (clairvoyant) its policy
// reads.
func (s *sim) setView(dv *device, tiers []dispatch.Tier, clairvoyant bool) {
	nt := len(tiers)
	dv.view.Tiers = tiers
	dv.view.States = make([]dispatch.State, nt)
	if dv.sample {
		dv.view.Reader = (*reader)(s)
	}
	if dv.idle {
		dv.view.Idle = make([]bool, nt)
	}
	if !s.fresh { // FastFresh is false: the views carry their observation times
		dv.view.Observed = make([]float64, nt)
		// what a dispatcher knows it sent, for the observations that are not fresh (sentOwn)
		dv.sentSince, dv.sent = make([]int, nt), make([]int, nt)
	}
	if s.delayed && s.obs.CountOwn {
		dv.sendLog = make([]observe.History, nt)
		for i := range dv.sendLog {
			dv.sendLog[i] = observe.NewHistory()
		}
	}
	if clairvoyant {
		dv.view.Oracle = (*oracle)(s) // it replays FCFS: newSim refuses it with an event-driven tier
		s.oracle = true
	}
}

// addObservers lists device dv's policy's observer (o, nil if none) and
// its shadows that keep online estimates, to be told of each of its
// dispatches.
func (s *sim) addObservers(dv *device, o dispatch.Observer) {
	if o != nil {
		dv.observers = append(dv.observers, o)
	}
	for _, sh := range dv.shadows {
		if o, ok := sh.(dispatch.Observer); ok {
			dv.observers = append(dv.observers, o)
		}
	}
}

// scheduleBoard checks that the observation model has the generators it
// draws from and schedules the board's first postings.
func (s *sim) scheduleBoard(devs []Device) error {
	switch s.obs.Model {
	case Periodic:
		if !(s.obs.Period > 0) {
			return fmt.Errorf("engine: periodic observation with period %v", s.obs.Period)
		}
		s.events.Push(s.obs.Phase, 0, -1, evRefresh)
	case Individual:
		if !(s.obs.Period > 0) || s.obsRand == nil {
			return fmt.Errorf("engine: individual observation needs a period > 0 and a board generator")
		}
		for p := range s.tiers {
			s.events.Push(s.obsRand.ExpFloat64()*s.obs.Period, 0, int32(p), evRefresh)
		}
	case Delayed:
		if s.obs.Delay.Random() && devs[0].Observe == nil {
			return fmt.Errorf("engine: delayed observation with random delays needs each device's generator")
		}
	}
	if s.noise.Random() && ((s.obs.Model == Fresh || s.obs.Model == Delayed) && devs[0].Observe == nil ||
		(s.obs.Model == Periodic || s.obs.Model == Individual) && s.obsRand == nil) {
		return fmt.Errorf("engine: observation noise needs its generator")
	}
	return nil
}

// setTrack makes the counted views of the run tracked (track.go) when on
// is true and some device counts its view.
//
// A board's views (periodic, individual) change only where the board
// posts a tier and where a device counts its own send: with as many
// tiers, they follow those changes, at no cost a decision but the list.
func (s *sim) setTrack(on bool) {
	s.track = on && slices.ContainsFunc(s.devs, func(dv device) bool { return dv.count })
	board := on && s.obs.Board()
	s.follows = s.track || board
	if !s.follows {
		return
	}
	if s.track {
		s.due = pq.NewKeys(len(s.tiers))
		s.clogBase, s.clogMax = 0, max(64, 2*len(s.tiers))
	}
	for d := range s.devs {
		dv := &s.devs[d]
		dv.tracks = dv.count || board
		dv.cursor = -1 // a first decision sets the whole view
		dv.mark = make([]uint32, len(dv.seen))
	}
}

// countsView reports whether the fresh view of a device whose policy has
// capabilities c and which runs shadows is counted at each of its
// decisions (device.count): under fresh observation, unless its policy is
// blind, a sampler or reads an idle view (in a run that keeps them) and it
// has no shadows to read the view.
func (s *sim) countsView(c *dispatch.Capabilities, shadows []dispatch.Predictor) bool {
	return s.fresh && !((c.Blind || s.samples(c, shadows) || s.idles && c.Idle) && len(shadows) == 0)
}

// samples reports whether such a device's policy reads its fresh view
// through View.Reader, a few tiers a decision (device.sample): a sampler
// without shadows (which read States).
func (s *sim) samples(c *dispatch.Capabilities, shadows []dispatch.Predictor) bool {
	return s.fresh && c.Sampler && !c.Blind && len(shadows) == 0
}

// nextArrival is the device whose next arrival comes first (the lowest
// index at a tie, so that the order is deterministic) and its time. Past
// heapDevices devices they are kept in a heap by their next arrival
// (next), so that the choice costs O(log k) of k devices, not a pass over
// them; below, the pass costs less.
func (s *sim) nextArrival() (int, float64) {
	if len(s.devs) > heapDevices {
		return s.next.Top()
	}
	best, t := 0, s.devs[0].src.Peek()
	for d := 1; d < len(s.devs); d++ {
		if u := s.devs[d].src.Peek(); u < t {
			best, t = d, u
		}
	}
	return best, t
}

// heapDevices is the most devices whose next arrival is found by a pass
// over them rather than a heap.
const heapDevices = 16

// advanced puts device d, which just drew a task, back in the heap of
// next arrivals at its new one.
func (s *sim) advanced(d int) {
	if len(s.devs) > heapDevices {
		s.next.Set(d, s.devs[d].src.Peek())
	}
}

// stopped reports whether a device's source gave up drawing (Cancel
// closed): any device's at the start (d < 0), and after that the one that
// drew last, the only one whose source moved.
func (s *sim) stopped(d int) bool {
	if d >= 0 {
		return s.devs[d].src.Stopped()
	}
	for d := range s.devs {
		if s.devs[d].src.Stopped() {
			return true
		}
	}
	return false
}

// span is how a run's arrivals end: after total tasks (byTasks), or at end,
// the window's close (duration mode).
type span struct {
	byTasks bool
	end     float64 // duration mode: arrivals stop at end; +Inf by tasks
	total   int     // by tasks: Warmup + Tasks
}

// more reports whether arrivals go on with the k-th task, due at next.
func (w *span) more(k int, next float64) bool { return next < w.end && (!w.byTasks || k < w.total) }

// loop runs events and arrivals in time order until every measured task has
// reached its tier: its latency is then known, and later events cannot change
// it (FCFS).
func (s *sim) loop() error {
	w := s.begin()
	dev, next := s.nextArrival()
	if s.stopped(-1) {
		return ErrCanceled
	}
	// Arrivals, each after the events that come before it (at equal times
	// the event first). Departures are not visited: each tier brings its
	// count up to the time it is read (present). more: arrivals are not
	// over, tested once a step for the loop and the held task alike.
	k := 0
	for more := w.more(k, next); more; {
		if err := s.step(&w, k, dev, next); err != nil {
			return err
		}
		k++
		if s.stopped(dev) {
			return ErrCanceled
		}
		if len(s.devs) == 1 { // the usual run, inline
			next = s.devs[0].src.Peek()
		} else {
			dev, next = s.nextArrival()
		}
		if !(next < math.MaxFloat64) && (!w.byTasks && next < w.end || w.byTasks && k < w.total) {
			return fmt.Errorf("task %d: the clock left the finite range (next arrival at %v s): the arrival rate, burst factors or run length are too extreme", k, next)
		}
		more = w.more(k, next)
		if s.held >= 0 {
			s.place(&w, more, next)
		}
	}
	s.finish(&w)
	return nil
}

// begin opens the measured window if there is no warmup, and readies the
// heap of next arrivals of many devices.
func (s *sim) begin() span {
	cfg := s.cfg
	w := span{byTasks: cfg.Tasks > 0, end: math.Inf(1), total: cfg.Warmup + cfg.Tasks}
	if !w.byTasks {
		w.end = cfg.WarmupTime + cfg.Duration
	}
	if (w.byTasks && cfg.Warmup == 0) || (!w.byTasks && cfg.WarmupTime == 0) {
		s.startMeasuring(0)
	}
	s.started, s.held = s.measuring, -1
	if len(s.devs) > heapDevices {
		s.next = pq.NewKeys(len(s.devs))
		for d := range s.devs {
			s.next.Set(d, s.devs[d].src.Peek())
		}
	}
	return w
}

// step runs the events due by next, then the k-th arrival, device dev's,
// at next.
func (s *sim) step(w *span, k, dev int, next float64) error {
	for s.events.Len() > 0 && s.events.Next() <= next {
		s.popEvent(w.byTasks, w.end)
	}
	if !w.byTasks {
		s.clock(next, w.end)
	}
	if k&255 == 0 && s.cfg.Cancel != nil { // often enough that an oracle over 10⁵ servers stops within a second
		select {
		case <-s.cfg.Cancel:
			return ErrCanceled
		default:
		}
	}
	if err := s.arrive(k, dev, next, s.measuring); err != nil {
		return err
	}
	if w.byTasks && k+1 == s.cfg.Warmup {
		s.startMeasuring(next)
	}
	if w.byTasks && k+1 == w.total {
		s.stopMeasuring(next)
	}
	s.advanced(dev)
	return nil
}

// place lets the task arrive just dispatched with a delay (held) reach its
// tier. If its reach is what the next step would take anyway — arrivals
// not over (more), the reach no later than the next arrival and strictly
// before every pending event (at a tie those, scheduled earlier, come
// first) — it reaches now, without a trip through the event heap; else it
// is scheduled as before (the same relative order of sequence numbers).
// The same steps in the same order, for a push and a pop less on most
// tasks.
func (s *sim) place(w *span, more bool, next float64) {
	h := s.held
	s.held = -1
	x := &s.slots[h]
	if more && x.reach <= next && (s.events.Len() == 0 || x.reach < s.events.Next()) {
		if !w.byTasks {
			s.clock(x.reach, w.end)
		}
		s.reach(h) // never counted in transit: no view is read in between
		return
	}
	dv := &s.devs[x.dev]
	dv.view.States[x.vtier].InTransit++
	if s.follows {
		s.pended(dv, x.vtier)
	}
	s.events.Push(x.reach, h, x.tier, evReach)
}

// finish runs what remains once arrivals are over: the run ends with the
// last event, or earlier: every measured latency is known once the last
// measured task has reached its tier, and only the time-average of tasks
// present (duration mode) needs the events up to the window's end.
func (s *sim) finish(w *span) {
	for s.events.Len() > 0 && (s.pending > 0 || s.measuring) {
		s.popEvent(w.byTasks, w.end)
	}
	if s.measuring { // duration mode: the last events came before the end
		s.stopMeasuring(w.end)
	}
}

// popEvent takes the earliest event off the heap and runs it.
func (s *sim) popEvent(byTasks bool, end float64) {
	if !byTasks { // the duration-mode window opens and closes on the clock
		s.clock(s.events.Next(), end)
	}
	// Into e and by pointer, not by value: see pq.Events.Push.
	var e event
	s.events.Pop(&e)
	s.event(&e)
}

// clock opens the duration-mode window at WarmupTime and closes it at end,
// as the loop's next step comes at t.
func (s *sim) clock(t, end float64) {
	if !s.started && t >= s.cfg.WarmupTime {
		s.startMeasuring(s.cfg.WarmupTime)
		s.started = true
	}
	if s.measuring && t >= end {
		s.stopMeasuring(end)
	}
}

func (s *sim) startMeasuring(t float64) {
	s.measuring = true
	s.t0 = t
	for i := range s.tiers {
		ts := &s.tiers[i]
		ts.areaN = s.residual(ts, t) // R(t₀) (see residual)
	}
}

func (s *sim) stopMeasuring(t float64) {
	for i := range s.tiers {
		ts := &s.tiers[i]
		ts.areaN += ts.sojourn - s.residual(ts, t) // + Σ sojourns − R(T)
		tr := &s.res.Tier[ts.scen]
		tr.AreaN += ts.areaN
		tr.Reached += ts.reached
		tr.SumSojourn += ts.sojourn
	}
	s.measuring = false
	s.res.Span = t - s.t0
}

// arrive draws device dev's next task, asks its policy, and dispatches it.
func (s *sim) arrive(k, dev int, t float64, measured bool) error {
	cfg := s.cfg
	dv := &s.devs[dev]
	s.cur = dv
	s.now, dv.view.Now, dv.view.Task = t, t, k
	dv.src.Next(&s.task)
	dv.view.Data = s.task.Data
	s.prepare(dv, t)
	dec := dv.pol.Decide(&dv.view)
	i := dec.Tier
	if uint(i) >= uint(len(dv.phys)) { // one test for both ends; phys has a tier per scenario tier
		return fmt.Errorf("policy chose tier %d, but there are %d tiers", i, len(cfg.Tiers))
	}
	p := dv.phys[i]
	slot := s.newSlot()
	x := &s.slots[slot]
	// Field by field into the slot, every field: a composite literal is
	// built on the stack first and then copied in 16-byte moves, which
	// stall on the narrower stores just made (store-to-load forwarding
	// fails).
	x.id, x.arrival, x.size = k, t, s.task.Size
	x.delay = dv.src.Delay(&s.task, i) // drawn now, for the chosen tier alone (the keyed stream)
	x.reach = t + x.delay
	x.tier, x.vtier, x.dev = int32(p), int32(i), int32(dev)
	x.measured, x.hasPred, x.predWait = measured, dec.HasPred, dec.PredWait
	x.idle = false // predictShadows sets it: only the shadows' errors read it (tally's RecordShadows)
	x.data, x.reply = s.task.Data, s.task.Reply
	x.class = int32(s.task.Class)
	if s.dyn != nil {
		s.sent(slot, t, s.task.Seq, measured)
		if measured && s.res.Class != nil {
			s.res.Class[x.class].Arrived++
		}
	}
	if measured {
		s.pending++
		if len(dv.shadows) > 0 {
			s.predictShadows(dv, slot, i)
		}
	}
	for _, o := range dv.observers {
		o.Dispatched(t, i)
	}
	if !s.fresh { // what a dispatcher knows it sent, for its observations
		s.sentOwn(dv, i, p, t)
	}
	if x.delay <= 0 {
		s.reach(slot)
		return nil
	}
	if s.oracle { // only a clairvoyant policy reads the tasks in transit
		s.sendOracle(dv, slot, i, p)
	} else {
		// The loop pushes it (and counts it in transit), or lets it reach
		// at once, before any view is read again.
		s.held = slot
	}
	return nil
}

// prepare sets device dv's view for its decision at t, as its observation
// model and its policy's reading ask.
func (s *sim) prepare(dv *device, t float64) {
	if s.track { // every tier's count brought up to t, for tracked and sampled views alike
		s.settle(t)
	}
	if s.idles {
		s.freed(t)
	}
	switch {
	case dv.idle:
		s.followIdle(dv)
	case dv.count && s.track:
		s.follow(dv)
	case dv.count:
		// The true counts, read now for this device's view alone: cheaper
		// than keeping every device's view current at every change of a
		// tier (two per task), and the same numbers at the decision. A
		// fresh view that nothing reads is not counted (dv.count).
		states := dv.view.States[:len(dv.seen)]
		for i, ts := range dv.seen {
			setCounts(&states[i], s.present(ts, t), ts.servers)
		}
	case s.drawView:
		s.observe(dv, t)
	case dv.tracks: // a board's views change at its postings and own sends only
		s.followBoard(dv)
	}
}

// predictShadows asks device dv's shadows for their predicted wait at
// tier i for the measured task in slot, and notes whether the tier had an
// idle server in the view. It and the two functions after it are arrive's
// parts that only some runs need, out of line, so that a run without them
// carries none of their code on its per-task path (reach's and loop's
// likewise).
func (s *sim) predictShadows(dv *device, slot int32, i int) {
	x := &s.slots[slot]
	x.idle = dv.view.States[i].Busy < s.tiers[x.tier].servers // the tier's c, from the hot state rather than the view's Tier
	for j, sh := range dv.shadows {
		s.shPred[int(slot)*s.nShadows+j] = sh.PredictWait(&dv.view, i)
	}
}

// sentOwn counts device dv's send to its view tier i (physical tier p) at
// t, for the observation models that are not fresh: what a dispatcher
// knows it sent.
func (s *sim) sentOwn(dv *device, i, p int, t float64) {
	dv.sentSince[i]++
	dv.sent[i]++
	if s.ownBoard { // its own send, on its own view of the board
		s.show(dv, i, s.tiers[p].board.n+dv.sentSince[i])
		if s.follows {
			s.pended(dv, int32(i))
		}
	}
	if dv.sendLog != nil {
		dv.sendLog[i].Add(t, dv.sent[i], s.horizon)
	}
}

// sendOracle puts the task in slot, sent by device dv to its view tier i
// (physical tier p) with a delay, into the tier's transit list, which only
// a clairvoyant policy reads, and schedules its reach.
func (s *sim) sendOracle(dv *device, slot int32, i, p int) {
	x := &s.slots[slot]
	ts := &s.tiers[p]
	at := s.reachedBy(ts, x.reach) // by hand, not slices.Insert, which costs more for the usual list of one or two
	ts.transit = append(ts.transit, 0)
	copy(ts.transit[at+1:], ts.transit[at:])
	ts.transit[at] = slot
	dv.view.States[i].InTransit++
	if s.follows {
		s.pended(dv, int32(i))
	}
	s.events.Push(x.reach, slot, int32(p), evReach)
}

func (s *sim) newSlot() int32 {
	if n := len(s.freeSlots); n > 0 {
		sl := s.freeSlots[n-1]
		s.freeSlots = s.freeSlots[:n-1]
		return sl
	}
	s.slots = append(s.slots, transit{})
	for range s.nShadows {
		s.shPred = append(s.shPred, 0)
	}
	return int32(len(s.slots) - 1)
}

func (s *sim) event(e *event) {
	switch e.Kind {
	case evReach:
		x := &s.slots[e.Slot]
		if s.oracle {
			ts := &s.tiers[x.tier]
			if ts.transit[0] != e.Slot { // events come in (reach, push) order, which the list keeps (reachedBy)
				panic("engine: a task reached its tier out of its transit list's order")
			}
			ts.transit = ts.transit[:copy(ts.transit, ts.transit[1:])]
		}
		dv := &s.devs[x.dev]
		dv.view.States[x.vtier].InTransit--
		if s.follows {
			s.pended(dv, x.vtier)
		}
		s.reach(e.Slot)
	case evRefresh:
		s.refresh(e)
	case evDone:
		s.done(e)
	case evRetry:
		s.retry(e)
	case evExpire:
		s.expire(e)
	case evDepart:
		s.leave(e)
	}
}

// reach puts the task in slot into its tier's FCFS queue at its reach time.
func (s *sim) reach(slot int32) {
	if s.dyn != nil {
		s.reachSlow(slot)
		return
	}
	x := &s.slots[slot]
	p := int(x.tier)
	ts := &s.tiers[p]
	if !ts.kw {
		// A heap tier takes off the departures due before it takes the
		// task in: Delayed's history needs the changes in time order (its
		// tiers are all heap tiers), and a tier that no view reads (a
		// blind policy's) would otherwise keep the finish of every task it
		// was ever given. A read would take off the same ones (it drains
		// to its own time, no earlier than this reach), so the counts are
		// the same; and AreaN needs no change at all (residual).
		s.drain(ts, x.reach)
	}
	service := x.size / ts.speed
	start, finish := ts.free.Serve(x.reach, service)
	if ts.kw {
		ts.admit(x.reach, start, finish)
	} else {
		s.keep(ts, x.reach, finish)
	}
	if s.track {
		s.touched(p, ts)
	} else if s.idles {
		s.busied(p, ts, x.reach)
	}

	wait, latency := start-x.reach, finish-x.arrival
	if x.measured {
		s.pending--
		s.res.Record(ts.scen, x.class, x.size, x.data, x.reply, x.hasPred, x.predWait, wait, latency)
		if s.nShadows > 0 {
			s.res.RecordShadows(ts.scen, x.idle, wait, latency, s.shPred[int(slot)*s.nShadows:][:s.nShadows])
		}
	}
	if s.measuring && x.reach >= s.t0 {
		ts.reached++
		ts.sojourn += wait + service
	}
	if s.listen { // the record is built only for a listener
		s.tell(x, ts.scen, wait, service, latency, latency)
	}
	s.freeSlots = append(s.freeSlots, slot)
}

// admit takes into kw tier ts's kept count a task that reached it at reach
// and starts and finishes at start and finish: one more present, and, if
// it starts now, a departure at its finish. A task that waits adds no
// earlier departure: it starts when the task before it on its server
// leaves, a departure until already counts, and finishes later. If a task
// left since the count (until ≤ reach), the count was stale already, and
// the next read, no earlier than the reach, counts again.
func (ts *tierState) admit(reach, start, finish float64) {
	ts.n++
	if start > reach {
		// The starts due by the reach leave the ring first, as a read
		// now would take them: so that it holds only the tasks that
		// wait, even in a run whose views read no tier (dv.count).
		ts.waits.Queued(reach)
		ts.waits.Add(start)
	} else {
		ts.until = min(ts.until, finish)
	}
	// Times are ≥ 0, whose bits order as their values do: a maximum without a branch.
	ts.last = math.Float64frombits(max(math.Float64bits(ts.last), math.Float64bits(finish)))
}

// keep adds a task that reached heap tier ts at reach and finishes at
// finish: its finish time, and under Delayed the change to the tier's
// history.
func (s *sim) keep(ts *tierState, reach, finish float64) {
	ts.fin.Push(finish)
	if s.delayed {
		s.remember(ts, reach)
	}
}

// tell builds the record of the task x, which ran at scenario tier scen,
// for its listeners: cfg.OnTask and its device's feedback, which is told
// the latency of its last attempt (a retried task's is shorter).
func (s *sim) tell(x *transit, scen int, wait, service, latency, attempt float64) {
	fb := s.devs[x.dev].feedback != nil
	rec := &s.rec // reused: a local would escape through OnTask
	*rec = TaskRecord{ID: x.id, Device: int(x.dev), Arrival: x.arrival, Size: x.size, Tier: scen, Delay: x.delay,
		Wait: wait, Service: service, Latency: latency, Data: x.data, Reply: x.reply, Measured: x.measured}
	if s.cfg.OnTask != nil {
		s.cfg.OnTask(rec)
	}
	if fb {
		s.scheduleDone(x.dev, rec, x.vtier, attempt)
	}
}

// refresh posts tiers on the board: all of them (Periodic), or one
// (Individual), and schedules the next posting.
func (s *sim) refresh(e *event) {
	post := func(p int) {
		ts := &s.tiers[p]
		ts.board = boardEntry{n: observe.Noisy(s.present(ts, e.T), s.noise, s.obsRand), at: e.T}
		for _, w := range ts.watchers { // a board's views change here only
			dv := &s.devs[w.dev]
			dv.sentSince[w.tier] = 0
			dv.view.Observed[w.tier] = e.T
			s.show(dv, w.tier, ts.board.n)
			if s.follows {
				s.pended(dv, int32(w.tier))
			}
		}
	}
	if e.Tier < 0 {
		for p := range s.tiers {
			post(p)
		}
		// phase + k·T, multiplied rather than summed, so that postings stay
		// on the grid however long the run.
		k := math.Round((e.T-s.obs.Phase)/s.obs.Period) + 1
		s.events.Push(s.obs.Phase+k*s.obs.Period, 0, -1, evRefresh)
		return
	}
	post(int(e.Tier))
	s.events.Push(e.T+s.obsRand.ExpFloat64()*s.obs.Period, 0, e.Tier, evRefresh)
}

// show sets tier i of device dv's view to n tasks present.
func (s *sim) show(dv *device, i, n int) {
	setCounts(&dv.view.States[i], n, dv.seen[i].servers)
}

// setCounts sets st to n tasks present at a tier of c servers.
func setCounts(st *dispatch.State, n, c int) {
	st.Busy, st.Queued = min(n, c), max(0, n-c)
}

// observe fills device dv's view with what it sees of every tier at t, for
// the models whose view is drawn per decision (fresh with noise, delayed).
func (s *sim) observe(dv *device, t float64) {
	for i, ts := range dv.seen {
		var n int
		var age float64
		switch s.obs.Model {
		case Fresh:
			n = observe.Noisy(s.present(ts, t), s.noise, dv.rng)
		case Delayed:
			s.drain(ts, t) // its history up to t
			age = s.obs.Delay.Mean()
			if s.obs.Delay.Random() {
				age = s.obs.Delay.Sample(dv.rng)
			}
			n = observe.Noisy(ts.hist.At(t-age), s.noise, dv.rng)
			if s.obs.CountOwn {
				n += dv.sent[i] - dv.sendLog[i].At(t-age)
			}
		}
		s.show(dv, i, n)
		dv.view.Observed[i] = t - age
	}
}
