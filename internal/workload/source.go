package workload

// Spec is what a run's workload is made of: the arrival schedule, the size
// law, and each tier's delay law (the zero Dist is no delay).
type Spec struct {
	Arrivals Schedule
	// Process is the arrival process over Arrivals; its zero value is
	// Poisson, drawn by Arrivals itself.
	Process ProcessSpec
	Size    Dist
	Delays  []Dist
	// Data and Reply are the laws of a task's input data (sent to its tier)
	// and of its reply (sent back), bits; the zero laws are none. Data is
	// drawn before Reply, on the data stream.
	Data, Reply DataLaw
	// Bandwidth is each tier's link bandwidth, bit/s, one per tier or nil;
	// 0 is none: the data's transfer time Data/B is added to the tier's
	// delay.
	Bandwidth []float64
	// Trace, if set, replaces Arrivals and Size: its rows are replayed in
	// order (delays are still drawn).
	Trace *Trace
}

// drawsData reports a spec whose tasks carry data or a reply.
func (sp *Spec) drawsData() bool { return !sp.Data.None() || !sp.Reply.None() }

// Task is one task as the workload draws it. Every policy of a replicate
// sees the same tasks: the draw does not depend on any decision.
type Task struct {
	Arrival float64   // s
	Size    float64   // work units
	Delays  []float64 // s, one per tier: the delay the task would have to reach it (propagation + data/bandwidth)
	Data    float64   // bits sent to the tier (0 when the scenario has none)
	Reply   float64   // bits of the reply sent back (0 when none)
}

// Source draws a run's tasks in arrival order from the workload streams.
// The simulator and the HTTP testbed both draw from it, so that an emulated
// replicate is the simulated one, task for task.
type Source struct {
	spec    Spec
	proc    Process
	st      Streams
	next    float64
	stop    <-chan struct{}
	stopped bool
	n       int // trace replay: the next row
	// hasData is spec.drawsData(), asked once rather than at every task,
	// where even with the laws' pointer receivers it costs a few ns.
	hasData bool

	// A reader of a Tape replays it from task pos; past the tape's
	// limit it reads own.
	tape *Tape
	pos  int
	own  *Source
}

// NewSource starts the task sequence of one replicate at time 0. If stop
// is closed, drawing gives up: Peek returns +Inf and Stopped true, so that
// a run ends promptly on an interrupt even when one arrival takes long to
// place (a burst period much shorter than the inter-arrival time).
func NewSource(spec Spec, st Streams, stop <-chan struct{}) *Source {
	s := &Source{spec: spec, st: st, stop: stop, hasData: spec.drawsData()}
	if spec.Process.Kind == Poisson {
		s.proc = &s.spec.Arrivals
	} else {
		s.proc = spec.Process.Start(spec.Arrivals)
	}
	s.advance(0)
	return s
}

// Stopped reports whether drawing gave up because stop was closed.
func (s *Source) Stopped() bool { return s.stopped }

func (s *Source) advance(t float64) {
	if s.spec.Trace != nil {
		s.next = s.spec.Trace.arrival(s.n)
		return
	}
	var ok bool
	if s.next, ok = s.proc.Arrival(t, s.st.Arrivals, s.stop); !ok {
		s.stopped = true
	}
}

// Peek is the arrival time of the next task.
func (s *Source) Peek() float64 { return s.next }

// Next draws the next task into t (reusing t.Delays, which it sizes to the
// tier count) and moves on to the following arrival. It allocates nothing
// once t.Delays has its size.
func (s *Source) Next(t *Task) {
	if s.tape != nil {
		s.replay(t)
		return
	}
	t.Arrival = s.next
	if tr := s.spec.Trace; tr != nil {
		t.Size = tr.size(s.n, s.st.Sizes)
		s.n++
	} else {
		t.Size = s.spec.Size.Sample(s.st.Sizes)
	}
	if cap(t.Delays) < len(s.spec.Delays) {
		t.Delays = make([]float64, len(s.spec.Delays))
	}
	t.Delays = t.Delays[:len(s.spec.Delays)]
	for i := range s.spec.Delays {
		d := &s.spec.Delays[i]
		if d.Random() {
			t.Delays[i] = d.Sample(s.st.Delays)
		} else {
			t.Delays[i] = d.Mean()
		}
	}
	s.data(t)
	s.advance(s.next)
}

// data draws t's data and reply (after its size and delays, on the data
// stream of their own, so that no other stream moves) and adds the data's
// transfer time to each tier's delay. Without data it touches nothing.
func (s *Source) data(t *Task) {
	t.Data, t.Reply = 0, 0
	if !s.hasData {
		return
	}
	t.Data = s.spec.Data.Draw(t.Size, s.st.Data)
	t.Reply = s.spec.Reply.Draw(t.Size, s.st.Data)
	for i, b := range s.spec.Bandwidth {
		t.Delays[i] += TransferTime(t.Data, b)
	}
}
