package discipline

import (
	"math"
	"strings"
	"testing"
)

// step is a reach (size > 0) or the next departure (size 0) of a tier.
type step struct {
	at    float64 // the reach's time; a departure's expected time
	id    int32
	size  float64
	class int32
}

// play runs the steps on tier e: it adds each reach at its time, and
// checks that each departure comes at its time with its task.
func play(t *testing.T, name string, e *Tier, steps []step) {
	t.Helper()
	for k, s := range steps {
		if s.size > 0 {
			e.Advance(s.at)
			e.Add(s.id, s.size, s.class)
			continue
		}
		at, _ := e.Reschedule()
		if math.Abs(at-s.at) > 1e-12 {
			t.Fatalf("%s: step %d: next departure at %v, want %v", name, k, at, s.at)
		}
		if end, ok := e.Fire(at); !ok || end.ID != s.id || end.End != Done {
			t.Fatalf("%s: step %d: %+v (%v) at %v, want task %d done", name, k, end, ok, at, s.id)
		}
	}
	if at, _ := e.Reschedule(); !math.IsInf(at, 1) {
		t.Errorf("%s: a departure left at %v", name, at)
	}
}

// TestTiersByHand: departures of small cases worked out by hand.
func TestTiersByHand(t *testing.T) {
	// PS, one server: two tasks at 0 share it (1 leaves at 2, with 1 of
	// task 2's 2 done), then task 2 runs alone.
	play(t, "ps", New(PS, 1, 1, false, false, nil), []step{{0, 1, 1, 0}, {0, 2, 2, 0}, {2, 1, 0, 0}, {3, 2, 0, 0}})
	// PS, two servers at speed 2: three tasks share 4 units a second.
	play(t, "ps c=2", New(PS, 2, 2, false, false, nil), []step{{0, 1, 2, 0}, {0, 2, 2, 0}, {0, 3, 4, 0}, {1.5, 1, 0, 0}, {1.5, 2, 0, 0}, {2.5, 3, 0, 0}})
	// SRPT: the task of 1 at 1 preempts the one of 3 (2 left).
	play(t, "srpt", New(SRPT, 1, 1, false, false, nil), []step{{0, 1, 3, 0}, {1, 2, 1, 0}, {2, 2, 0, 0}, {4, 1, 0, 0}})
	// Priority: class 0 first, without preemption unless preemptive.
	prio := []float64{0, 1}
	play(t, "priority", New(Priority, 1, 1, false, false, prio), []step{{0, 1, 2, 1}, {0.5, 2, 1, 0}, {0.7, 3, 1, 1}, {2, 1, 0, 0}, {3, 2, 0, 0}, {4, 3, 0, 0}})
	play(t, "priority preemptive", New(Priority, 1, 1, true, false, prio), []step{{0, 1, 2, 1}, {0.5, 2, 1, 0}, {1.5, 2, 0, 0}, {3, 1, 0, 0}})
}

// TestReschedule: each change makes the departures scheduled before it
// stale.
func TestReschedule(t *testing.T) {
	e := New(SRPT, 1, 1, false, false, nil)
	e.Add(1, 3, 0)
	at, old := e.Reschedule()
	e.Advance(1)
	e.Add(2, 1, 0)
	at2, gen := e.Reschedule()
	if at != 3 || at2 != 2 || e.Current(old) || !e.Current(gen) {
		t.Errorf("departures at %v then %v; generation %d current %v, %d current %v", at, at2, old, e.Current(old), gen, e.Current(gen))
	}
}

// TestParseAndCheck: every discipline reads back from its spelling, and
// Check names what a tier may not combine.
func TestParseAndCheck(t *testing.T) {
	for _, d := range []Discipline{FCFS, PS, SRPT, Priority} {
		if got, err := Parse(d.String()); got != d || err != nil {
			t.Errorf("Parse(%q) = %v, %v", d, got, err)
		}
	}
	if d, err := Parse(""); d != FCFS || err != nil {
		t.Errorf(`Parse("") = %v, %v; want fcfs`, d, err)
	}
	if _, err := Parse("lifo"); err == nil || !strings.Contains(err.Error(), "need fcfs, ps, srpt or priority") {
		t.Errorf(`Parse("lifo"): %v`, err)
	}
	for _, c := range []struct {
		d          Discipline
		preemptive bool
		want       string
	}{
		{FCFS, false, ""},
		{Priority, true, ""},
		{PS, false, ""},
		{SRPT, true, "preemptive with discipline srpt"},
		{Discipline(9), false, "discipline(9): need"},
	} {
		if errs := Check(c.d, c.preemptive, 1, 2); c.want == "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), "buffer 1: need 0 (no limit) or ≥ servers (2)")) {
			t.Errorf("Check(%v, %v, 1, 2) = %v, want the buffer's", c.d, c.preemptive, errs)
		}
		errs := Check(c.d, c.preemptive, 0, 1)
		if c.want == "" && len(errs) > 0 || c.want != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want)) {
			t.Errorf("Check(%v, %v) = %v, want %q", c.d, c.preemptive, errs, c.want)
		}
	}
}

// pieces is a capacity of constant rate rate[k] from at[k] (at[0] = 0) to
// at[k+1], the last one on for ever.
type pieces struct{ at, rate []float64 }

func (p pieces) piece(t float64) int {
	k := 0
	for k+1 < len(p.at) && p.at[k+1] <= t {
		k++
	}
	return k
}

func (p pieces) end(k int) float64 {
	if k+1 < len(p.at) {
		return p.at[k+1]
	}
	return math.Inf(1)
}

func (p pieces) Work(a, b float64) float64 {
	w := 0.0
	for k := p.piece(a); a < b; k++ {
		e := min(b, p.end(k))
		w += (e - a) * p.rate[k]
		a = e
	}
	return w
}

func (p pieces) Finish(start, work float64) (float64, bool) {
	for k := p.piece(start); ; k++ {
		if p.rate[k] == 0 {
			return start, true
		}
		if d := work / p.rate[k]; start+d <= p.end(k) {
			return start + d, false
		}
		work -= (p.end(k) - start) * p.rate[k]
		start = p.end(k)
	}
}

// fire schedules tier e's next happening and makes it happen, if any.
func fire(e *Tier) (float64, Ended, bool) {
	at, _ := e.Reschedule()
	if math.IsInf(at, 1) {
		return at, Ended{}, false
	}
	end, ok := e.Fire(at)
	return at, end, ok
}

// TestFollowsCapacity: a slow-down changes every served task's drain
// rate at once, and a down span loses every task present with the server
// time it held, worked out by hand.
func TestFollowsCapacity(t *testing.T) {
	slow := pieces{at: []float64{0, 1, 3}, rate: []float64{1, 0.5, 1}}
	e := New(PS, 1, 1, false, false, nil)
	e.Follow(slow)
	play(t, "ps alone", e, []step{{0, 1, 2, 0}, {3, 1, 0, 0}})
	// Two tasks of 1 share the server: 0.5 each by 1, then 0.25 a second each.
	e = New(PS, 1, 1, false, false, nil)
	e.Follow(slow)
	play(t, "ps two", e, []step{{0, 1, 1, 0}, {0, 2, 1, 0}, {3, 1, 0, 0}, {3, 2, 0, 0}})

	// SRPT, down from 2: task 2 (1 at 0.5) preempts task 1 (3 at 0) and
	// leaves at 1.5; task 1, in service for 0.5 + 0.5, is lost at 2, and
	// task 3, waiting, with it.
	e = New(SRPT, 1, 1, false, false, nil)
	e.Follow(pieces{at: []float64{0, 2, 4}, rate: []float64{1, 0, 1}})
	e.Add(1, 3, 0)
	e.Advance(0.5)
	e.Add(2, 1, 0)
	e.Add(3, 5, 0)
	want := []struct {
		at     float64
		id     int32
		end    End
		served float64
	}{{1.5, 2, Done, 1}, {2, 1, Lost, 1}, {2, 3, Lost, 0}}
	for k, w := range want {
		at, end, ok := fire(e)
		if !ok || at != w.at || end.ID != w.id || end.End != w.end || math.Abs(end.Served-w.served) > 1e-12 {
			t.Errorf("srpt down: step %d: %+v (%v) at %v, want %+v", k, end, ok, at, w)
		}
	}
	if at, _ := e.Reschedule(); !math.IsInf(at, 1) {
		t.Errorf("srpt down: a happening at %v after every task was lost", at)
	}
}

// TestTimers: a patience ends a task that has not started, and only
// such a task; a deadline takes a task off (cancel) or detaches it, which
// then leaves as id −1 with all its server time; PS sets no patience.
func TestTimers(t *testing.T) {
	for _, cancel := range []bool{false, true} {
		e := New(SRPT, 1, 1, false, cancel, nil)
		e.Add(1, 2, 0)
		e.SetTimer(1, 1.5, Deadline)
		e.SetTimer(1, 0.5, Patience) // in service: never fires
		e.Add(2, 3, 0)
		e.SetTimer(2, 1, Patience)
		e.SetTimer(2, 10, Deadline) // gone by then: stale
		type happened struct {
			at     float64
			id     int32
			end    End
			served float64
		}
		var got []happened
		for {
			at, end, ok := fire(e)
			if math.IsInf(at, 1) {
				break
			}
			if ok {
				got = append(got, happened{at, end.ID, end.End, end.Served})
			}
		}
		want := []happened{{1, 2, Abandoned, 0}, {1.5, 1, TimedOut, 0}, {2, -1, Done, 2}}
		if cancel {
			want = []happened{{1, 2, Abandoned, 0}, {1.5, 1, TimedOut, 1.5}}
		}
		if len(got) != len(want) {
			t.Fatalf("cancel %v: %+v, want %+v", cancel, got, want)
		}
		for k := range want {
			if g, w := got[k], want[k]; g.at != w.at || g.id != w.id || g.end != w.end || math.Abs(g.served-w.served) > 1e-12 {
				t.Errorf("cancel %v: happening %d: %+v, want %+v", cancel, k, g, w)
			}
		}
	}
	e := New(PS, 1, 1, false, true, nil)
	e.Add(1, 1, 0)
	e.SetTimer(1, 0.5, Patience)
	e.Add(2, 1, 0)
	e.SetTimer(2, 1, Deadline) // cancelled at 1, having held half the server
	for k, w := range []struct {
		at     float64
		id     int32
		end    End
		served float64
	}{{1, 2, TimedOut, 0.5}, {1.5, 1, Done, 1}} {
		if at, end, ok := fire(e); !ok || at != w.at || end.ID != w.id || end.End != w.end || math.Abs(end.Served-w.served) > 1e-12 {
			t.Errorf("ps: happening %d: %+v (%v) at %v, want %+v", k, end, ok, at, w)
		}
	}
}
