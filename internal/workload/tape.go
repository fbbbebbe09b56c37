package workload

// Tape is one device's task sequence of a replicate, drawn once and
// replayed to every policy of the replicate. A task's draw does not depend
// on any decision (see Task), so the policies of a replicate see the same
// tasks whether each draws them again or all read them from a tape; the
// tape only saves the draws (the Pareto size's power, the arrival's
// exponential, the delays). Of a few tiers (at most TapeDelayTiers) it
// keeps every delay, drawn once for all the policies that read it; of
// more, none, and a reader draws the one it reads from the counter-based
// delay stream, the same number either way.
//
// It records lazily, as far as its furthest reader has read, and keeps at
// most limit tasks: a reader that goes past them continues on a source of
// its own, advanced to the same place by drawing and discarding the
// recorded tasks, so that a run of any length gives the same tasks in
// bounded memory. A Tape and its readers belong to one goroutine.
type Tape struct {
	spec    Spec
	streams func() Streams
	stop    <-chan struct{}
	limit   int
	src     *Source // draws the tasks after the recorded ones; nil once a reader took it over
	data    bool    // the spec draws data or replies: record them
	delay   Keyed   // the delay stream's key, for the readers' Delay
	nd      int     // delays recorded per task: every tier's, or none

	arrival, size []float64
	delays        []float64 // nd per task
	dat, reply    []float64 // only when data
	scratch       Task
}

// TapeDelayTiers is the most tiers whose delays a tape records: a task's
// delays then cost a tape 8 bytes a tier, and a policy's run a read each;
// beyond, each run draws the one delay it reads.
const TapeDelayTiers = 8

// tapeDelays is how many delays a tape of spec records per task.
func tapeDelays(spec *Spec) int {
	if n := len(spec.Delays); n <= TapeDelayTiers {
		return n
	}
	return 0
}

// NewTape starts the tape of the tasks that NewSource(spec, streams(),
// stop) would draw, keeping at most limit of them (limit ≥ 1); streams
// must return the same, unused generators at every call (a reader past the
// limit starts a source of its own on them). capHint, if positive, is
// how many tasks the runs are expected to read, so that the recording
// grows without copies.
func NewTape(spec Spec, streams func() Streams, stop <-chan struct{}, limit, capHint int) *Tape {
	t := &Tape{spec: spec, streams: streams, stop: stop, limit: max(limit, 1), data: spec.drawsData(), nd: tapeDelays(&spec)}
	st := streams()
	t.delay = st.Delays
	t.src = NewSource(spec, st, stop)
	if c := min(capHint, t.limit); c > 0 {
		t.arrival, t.size = make([]float64, 0, c), make([]float64, 0, c)
		t.delays = make([]float64, 0, c*t.nd)
		if t.data {
			t.dat, t.reply = make([]float64, 0, c), make([]float64, 0, c)
		}
	}
	return t
}

// Spec is the workload the tape draws, so that a reader can check it is
// the one it expects.
func (t *Tape) Spec() Spec { return t.spec }

// Len is how many tasks the tape holds.
func (t *Tape) Len() int { return len(t.arrival) }

// TapeBytes is the memory a tape of n tasks of spec takes, bytes.
func TapeBytes(spec Spec, n int) float64 {
	per := 2 + tapeDelays(&spec)
	if spec.drawsData() {
		per += 2
	}
	return 8 * float64(per) * float64(n)
}

// Source returns a reader at the tape's first task. It behaves as the
// source the tape records: the same tasks, Peek and Stopped.
func (t *Tape) Source() *Source {
	s := &Source{tape: t}
	s.setDelays(&t.spec, t.delay)
	s.settle()
	return s
}

// record draws one more task onto the tape; false at the limit.
func (t *Tape) record() bool {
	if len(t.arrival) == t.limit || t.src == nil {
		return false
	}
	t.src.Next(&t.scratch)
	x := &t.scratch
	t.arrival = append(t.arrival, x.Arrival)
	t.size = append(t.size, x.Size)
	for i := range t.nd {
		t.delays = append(t.delays, t.src.Delay(x, i))
	}
	if t.data {
		t.dat = append(t.dat, x.Data)
		t.reply = append(t.reply, x.Reply)
	}
	return true
}

// own is a source positioned after the tape's last task, for a reader that
// goes past it: the recording source itself for the first such reader, a
// new one that draws the recorded tasks again for the others.
func (t *Tape) own() *Source {
	if s := t.src; s != nil {
		t.src = nil
		return s
	}
	s := NewSource(t.spec, t.streams(), t.stop)
	for range len(t.arrival) {
		if s.Stopped() {
			break
		}
		s.Next(&t.scratch)
	}
	return s
}

// replay is Next for a reader of a tape.
func (s *Source) replay(x *Task) {
	t := s.tape
	if s.own == nil && s.pos == len(t.arrival) && !t.record() { // past the limit: a source of its own from here
		s.own = t.own()
	}
	if s.own != nil {
		s.own.Next(x)
		s.next, s.stopped = s.own.Peek(), s.own.Stopped()
		return
	}
	i := s.pos
	x.Arrival, x.Size, x.Seq, x.Class = t.arrival[i], t.size[i], i, 0
	if t.spec.Classes != nil {
		x.Class = s.classOf(t.spec.Classes, i)
	}
	x.Data, x.Reply = 0, 0
	if t.data {
		x.Data, x.Reply = t.dat[i], t.reply[i]
	}
	s.pos++
	s.settle()
}

// settle sets a reader's next arrival after its s.pos tasks: the tape's,
// the recording source's when the reader has caught up with it, or, when
// another reader took that source over at the limit, a source of its own.
func (s *Source) settle() {
	t := s.tape
	switch {
	case s.pos < len(t.arrival):
		s.next, s.stopped = t.arrival[s.pos], false
	case t.src != nil:
		s.next, s.stopped = t.src.Peek(), t.src.Stopped()
	default:
		s.own = t.own()
		s.next, s.stopped = s.own.Peek(), s.own.Stopped()
	}
}
