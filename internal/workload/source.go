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
	// Classes, if any, split the tasks: each task's class is drawn by
	// share (classes.go), its size from its class's law.
	Classes []Class
}

// drawsData reports a spec whose tasks carry data or a reply.
func (sp *Spec) drawsData() bool { return !sp.Data.None() || !sp.Reply.None() }

// Task is one task as the workload draws it. Every policy of a replicate
// sees the same tasks: the draw does not depend on any decision. Its delay
// to each tier is not drawn with it: Source.Delay draws the delay to a
// tier when something reads it, from the counter-based delay stream, so
// that it is the same number whether it is read or not, first or last
// (common random numbers without a draw per tier per task).
type Task struct {
	Arrival float64 // s
	Size    float64 // work units
	Data    float64 // bits sent to the tier (0 when the scenario has none)
	Reply   float64 // bits of the reply sent back (0 when none)
	// Seq is the task's place in its source's sequence, from 0: with the
	// delay stream's key, what its delays are drawn from.
	Seq int
	// Class is the task's class, an index into Spec.Classes (0 without).
	Class int
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
	seq     int // the tasks drawn so far: the next task's Seq
	// hasData is spec.drawsData(), asked once rather than at every task,
	// where even with the laws' pointer receivers it costs a few ns.
	hasData bool

	// A reader of a Tape replays it from task pos; past the tape's
	// limit it reads own.
	tape *Tape
	pos  int
	own  *Source

	// The delays: each tier's law and bandwidth (nil: none has one), and
	// the delay stream's generator, positioned per (task, tier).
	delays []Dist
	bw     []float64
	pr     *pairRand
}

// NewSource starts the task sequence of one replicate at time 0. If stop
// is closed, drawing gives up: Peek returns +Inf and Stopped true, so that
// a run ends promptly on an interrupt even when one arrival takes long to
// place (a burst period much shorter than the inter-arrival time).
func NewSource(spec Spec, st Streams, stop <-chan struct{}) *Source {
	s := &Source{spec: spec, st: st, stop: stop, hasData: spec.drawsData()}
	s.setDelays(&s.spec, st.Delays)
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

// Next draws the next task into t and moves on to the following arrival.
// It allocates nothing. The task's delays are drawn by Delay, when read.
func (s *Source) Next(t *Task) {
	if s.tape != nil {
		s.replay(t)
		return
	}
	t.Arrival = s.next
	t.Seq = s.seq
	s.seq++
	if tr := s.spec.Trace; tr != nil {
		t.Size = tr.size(s.n, s.st.Sizes)
		t.Class = 0
		s.n++
	} else if s.spec.Classes == nil {
		t.Size = s.spec.Size.Sample(s.st.Sizes)
		t.Class = 0
	} else {
		t.Size = s.drawClass(t).Sample(s.st.Sizes)
	}
	s.data(t)
	s.advance(s.next)
}

// setDelays takes the delay laws and bandwidths of spec, and the delay
// stream's key, for Delay.
func (s *Source) setDelays(spec *Spec, k Keyed) {
	s.delays, s.pr = spec.Delays, newPairRand(k)
	if spec.drawsData() {
		s.bw = spec.Bandwidth
	}
}

// Delay is task t's delay to tier i, s: its propagation, drawn from the
// delay stream at the pair (t.Seq, i) when the tier's law is random (its
// mean otherwise), plus its data's transfer time t.Data/B_i. It is a
// function of the stream's key, t.Seq and i alone: the same whenever and
// however often it is read, and whichever other tiers' delays are
// (docs/design.md §1.8). t must come from this source (or, for a reader
// of a tape, from the tape).
func (s *Source) Delay(t *Task, i int) float64 {
	if tp := s.tape; tp != nil && tp.nd > 0 && t.Seq < len(tp.arrival) { // recorded once for every reader
		return tp.delays[t.Seq*tp.nd+i]
	}
	d := &s.delays[i]
	x := d.mean
	if d.Random() {
		x = d.Sample(s.pr.at(t.Seq, i))
	}
	if s.bw != nil {
		x += TransferTime(t.Data, s.bw[i])
	}
	return x
}

// Tiers is the number of tiers the source draws delays for.
func (s *Source) Tiers() int { return len(s.delays) }

// data draws t's data and reply (after its size, on the data stream of
// their own, so that no other stream moves). Without data it touches
// nothing.
func (s *Source) data(t *Task) {
	t.Data, t.Reply = 0, 0
	if !s.hasData {
		return
	}
	t.Data = s.spec.Data.Draw(t.Size, s.st.Data)
	t.Reply = s.spec.Reply.Draw(t.Size, s.st.Data)
}
