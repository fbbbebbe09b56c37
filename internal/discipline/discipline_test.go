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
		at, i := e.Next()
		if math.Abs(at-s.at) > 1e-12 {
			t.Fatalf("%s: step %d: next departure at %v, want %v", name, k, at, s.at)
		}
		e.Advance(at)
		if id := e.Remove(i); id != s.id {
			t.Fatalf("%s: step %d: task %d left at %v, want %d", name, k, id, at, s.id)
		}
	}
	if at, _ := e.Next(); !math.IsInf(at, 1) {
		t.Errorf("%s: a departure left at %v", name, at)
	}
}

// TestTiersByHand: departures of small cases worked out by hand.
func TestTiersByHand(t *testing.T) {
	// PS, one server: two tasks at 0 share it (1 leaves at 2, with 1 of
	// task 2's 2 done), then task 2 runs alone.
	play(t, "ps", New(PS, 1, 1, false, nil), []step{{0, 1, 1, 0}, {0, 2, 2, 0}, {2, 1, 0, 0}, {3, 2, 0, 0}})
	// PS, two servers at speed 2: three tasks share 4 units a second.
	play(t, "ps c=2", New(PS, 2, 2, false, nil), []step{{0, 1, 2, 0}, {0, 2, 2, 0}, {0, 3, 4, 0}, {1.5, 1, 0, 0}, {1.5, 2, 0, 0}, {2.5, 3, 0, 0}})
	// SRPT: the task of 1 at 1 preempts the one of 3 (2 left).
	play(t, "srpt", New(SRPT, 1, 1, false, nil), []step{{0, 1, 3, 0}, {1, 2, 1, 0}, {2, 2, 0, 0}, {4, 1, 0, 0}})
	// Priority: class 0 first, without preemption unless preemptive.
	prio := []float64{0, 1}
	play(t, "priority", New(Priority, 1, 1, false, prio), []step{{0, 1, 2, 1}, {0.5, 2, 1, 0}, {0.7, 3, 1, 1}, {2, 1, 0, 0}, {3, 2, 0, 0}, {4, 3, 0, 0}})
	play(t, "priority preemptive", New(Priority, 1, 1, true, prio), []step{{0, 1, 2, 1}, {0.5, 2, 1, 0}, {1.5, 2, 0, 0}, {3, 1, 0, 0}})
}

// TestReschedule: each change makes the departures scheduled before it
// stale.
func TestReschedule(t *testing.T) {
	e := New(SRPT, 1, 1, false, nil)
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
		d                   Discipline
		preemptive, dynamic bool
		want                string
	}{
		{FCFS, false, true, ""},
		{Priority, true, false, ""},
		{PS, false, true, "discipline ps with episodes"},
		{SRPT, true, false, "preemptive with discipline srpt"},
		{Discipline(9), false, false, "discipline(9): need"},
	} {
		errs := Check(c.d, c.preemptive, c.dynamic)
		if c.want == "" && len(errs) > 0 || c.want != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want)) {
			t.Errorf("Check(%v, %v, %v) = %v, want %q", c.d, c.preemptive, c.dynamic, errs, c.want)
		}
	}
}
