package engine

import (
	"fmt"
	"math"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/workload"
)

// transit is a dispatched task that has not reached its tier yet.
type transit struct {
	id                   int
	arrival, size, delay float64
	reach                float64
	tier                 int32
	pos                  int32 // index in its tier's transit list
	measured             bool
	hasPred              bool
	predWait             float64
}

// tierState is a tier's dynamic state.
type tierState struct {
	free    fcfs.Servers // each server's next free time (Kiefer–Wolfowitz vector)
	n       int          // tasks present: waiting or in service
	transit []int32      // slots of tasks travelling to the tier
	last    float64      // time of the last change of n, for the time-average of n
}

// sim is one run's state. It lives for one call of Run.
type sim struct {
	cfg       *Config
	pol       dispatch.Policy
	observers []dispatch.Observer
	src       *workload.Source
	task      workload.Task // the task being decided
	view      dispatch.View
	tiers     []tierState
	events    eventHeap
	slots     []transit
	freeSlots []int32
	shPred    []float64 // shadow predictions, slot-major
	res       *Result
	rec       TaskRecord

	now       float64
	curSize   float64
	scratchF  []float64
	scratchI  []int32
	measuring bool
	t0        float64 // start of the measured window
	pending   int     // measured tasks still in transit
}

// Run simulates one run of cfg under policy p with the given workload
// streams. The policy's own randomness, if any, was given to it at
// construction. Run returns an error for an invalid config or a policy that
// names a tier that does not exist.
func Run(cfg *Config, p dispatch.Policy, st workload.Streams) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("engine config: %w", err)
	}
	s := newSim(cfg, p, st)
	if err := s.loop(); err != nil {
		return nil, err
	}
	return s.res, nil
}

func newSim(cfg *Config, p dispatch.Policy, st workload.Streams) *sim {
	nt := len(cfg.Tiers)
	s := &sim{cfg: cfg, pol: p, src: workload.NewSource(cfg.Workload(), st, cfg.Cancel), tiers: make([]tierState, nt)}
	s.task.Delays = make([]float64, nt)
	s.view.Tiers = make([]dispatch.Tier, nt)
	s.view.States = make([]dispatch.State, nt)
	maxC := 0
	for i := range cfg.Tiers {
		s.view.Tiers[i] = cfg.Tiers[i].Tier
		s.tiers[i].free = fcfs.New(cfg.Tiers[i].Servers)
		maxC = max(maxC, cfg.Tiers[i].Servers)
	}
	s.scratchF = make([]float64, 0, maxC)
	if o, ok := p.(dispatch.Observer); ok {
		s.observers = append(s.observers, o)
	}
	for _, sh := range cfg.Shadows {
		if o, ok := sh.(dispatch.Observer); ok {
			s.observers = append(s.observers, o)
		}
	}
	if _, ok := p.(dispatch.Clairvoyant); ok {
		s.view.Oracle = (*oracle)(s)
	}
	s.res = newResult(cfg)
	return s
}

// loop runs events and arrivals in time order until every measured task has
// reached its tier: its latency is then known, and later events cannot change
// it (FCFS).
func (s *sim) loop() error {
	cfg := s.cfg
	byTasks := cfg.Tasks > 0
	end := math.Inf(1) // duration mode: arrivals stop at end
	if !byTasks {
		end = cfg.WarmupTime + cfg.Duration
	}
	if (byTasks && cfg.Warmup == 0) || (!byTasks && cfg.WarmupTime == 0) {
		s.startMeasuring(0)
	}
	started := s.measuring
	total := cfg.Warmup + cfg.Tasks
	next := s.src.Peek()
	if s.src.Stopped() {
		return ErrCanceled
	}
	for k := 0; ; {
		arriving := next < end && (!byTasks || k < total)
		// Every measured latency is known once the last measured task has
		// reached its tier; only the time-average of tasks present (duration
		// mode) still needs the events up to the end of the window.
		if !arriving && s.pending == 0 && (!s.measuring || s.events.len() == 0) {
			break
		}
		fromHeap := s.events.len() > 0 && (!arriving || s.events.ev[0].t <= next)
		if !fromHeap && !arriving {
			break
		}
		if !byTasks { // the duration-mode window opens and closes on the clock
			t := next
			if fromHeap {
				t = s.events.ev[0].t
			}
			if !started && t >= cfg.WarmupTime {
				s.startMeasuring(cfg.WarmupTime)
				started = true
			}
			if s.measuring && t >= end {
				s.stopMeasuring(end)
			}
		}
		if fromHeap {
			s.event(s.events.pop())
			continue
		}
		if k&255 == 0 && cfg.Cancel != nil { // often enough that an oracle over 10⁵ servers stops within a second
			select {
			case <-cfg.Cancel:
				return ErrCanceled
			default:
			}
		}
		if err := s.arrive(k, next, s.measuring); err != nil {
			return err
		}
		k++
		if byTasks && k == cfg.Warmup {
			s.startMeasuring(next)
		}
		if byTasks && k == total {
			s.stopMeasuring(next)
		}
		next = s.src.Peek()
		if s.src.Stopped() {
			return ErrCanceled
		}
		if !(next < math.MaxFloat64) && (!byTasks && next < end || byTasks && k < total) {
			return fmt.Errorf("task %d: the clock left the finite range (next arrival at %v s): the arrival rate, burst factors or run length are too extreme", k, next)
		}
	}
	if s.measuring { // duration mode: the last events came before the end
		s.stopMeasuring(end)
	}
	return nil
}

func (s *sim) startMeasuring(t float64) {
	s.measuring = true
	s.t0 = t
	for i := range s.tiers {
		s.tiers[i].last = t
	}
}

func (s *sim) stopMeasuring(t float64) {
	for i := range s.tiers {
		s.touch(i, t)
	}
	s.measuring = false
	s.res.Span = t - s.t0
}

// touch accumulates the time-integral of tasks present at tier i up to t.
func (s *sim) touch(i int, t float64) {
	ts := &s.tiers[i]
	if s.measuring {
		s.res.Tier[i].AreaN += float64(ts.n) * (t - ts.last)
	}
	ts.last = t
}

// arrive draws task k's size and delays, asks the policy, and dispatches it.
func (s *sim) arrive(k int, t float64, measured bool) error {
	cfg := s.cfg
	s.now, s.view.Now = t, t
	s.src.Next(&s.task)
	s.curSize = s.task.Size
	dec := s.pol.Decide(&s.view)
	i := dec.Tier
	if i < 0 || i >= len(cfg.Tiers) {
		return fmt.Errorf("policy chose tier %d, but there are %d tiers", i, len(cfg.Tiers))
	}
	slot := s.newSlot()
	x := &s.slots[slot]
	*x = transit{id: k, arrival: t, size: s.curSize, delay: s.task.Delays[i], reach: t + s.task.Delays[i],
		tier: int32(i), measured: measured, hasPred: dec.HasPred, predWait: dec.PredWait}
	if measured {
		s.pending++
		for j, sh := range cfg.Shadows {
			s.shPred[int(slot)*len(cfg.Shadows)+j] = sh.PredictWait(&s.view, i)
		}
	}
	for _, o := range s.observers {
		o.Dispatched(t, i)
	}
	if x.delay <= 0 {
		s.reach(slot)
		return nil
	}
	ts := &s.tiers[i]
	x.pos = int32(len(ts.transit))
	ts.transit = append(ts.transit, slot)
	s.view.States[i].InTransit++
	s.events.push(event{t: x.reach, slot: slot, tier: int32(i), kind: evReach})
	return nil
}

func (s *sim) newSlot() int32 {
	if n := len(s.freeSlots); n > 0 {
		sl := s.freeSlots[n-1]
		s.freeSlots = s.freeSlots[:n-1]
		return sl
	}
	s.slots = append(s.slots, transit{})
	for range s.cfg.Shadows {
		s.shPred = append(s.shPred, 0)
	}
	return int32(len(s.slots) - 1)
}

func (s *sim) event(e event) {
	if e.kind == evReach {
		x := &s.slots[e.slot]
		ts := &s.tiers[x.tier]
		// Remove from the tier's transit list by swapping in the last one.
		last := ts.transit[len(ts.transit)-1]
		ts.transit[x.pos] = last
		s.slots[last].pos = x.pos
		ts.transit = ts.transit[:len(ts.transit)-1]
		s.view.States[x.tier].InTransit--
		s.reach(e.slot)
		return
	}
	i := int(e.tier)
	s.touch(i, e.t)
	s.tiers[i].n--
	s.setState(i)
}

// reach puts the task in slot into its tier's FCFS queue at its reach time.
func (s *sim) reach(slot int32) {
	x := &s.slots[slot]
	i := int(x.tier)
	ts := &s.tiers[i]
	tc := &s.cfg.Tiers[i]
	service := x.size / tc.Speed
	start, finish := ts.free.Serve(x.reach, service)
	s.touch(i, x.reach)
	ts.n++
	s.setState(i)
	s.events.push(event{t: finish, tier: int32(i), kind: evDepart})

	rec := &s.rec // reused: a local would escape through OnTask
	*rec = TaskRecord{ID: x.id, Arrival: x.arrival, Size: x.size, Tier: i, Delay: x.delay,
		Wait: start - x.reach, Service: service, Latency: finish - x.arrival, Measured: x.measured}
	if x.measured {
		s.pending--
		s.res.record(s.cfg, rec, x, s.shPred[int(slot)*len(s.cfg.Shadows):][:len(s.cfg.Shadows)])
	}
	if s.measuring && x.reach >= s.t0 {
		s.res.Tier[i].Reached++
		s.res.Tier[i].SumSojourn += rec.Wait + rec.Service
	}
	if s.cfg.OnTask != nil {
		s.cfg.OnTask(rec)
	}
	s.freeSlots = append(s.freeSlots, slot)
}

func (s *sim) setState(i int) {
	c := s.cfg.Tiers[i].Servers
	n := s.tiers[i].n
	s.view.States[i].Busy = min(n, c)
	s.view.States[i].Queued = max(0, n-c)
}
