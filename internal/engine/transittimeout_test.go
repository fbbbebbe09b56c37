package engine

import (
	"math"
	"strconv"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// clientLog is a policy that alternates between two tiers (a retry to the
// one that did not fail) and records every decision and every end it is
// told of, in the engine's order.
type clientLog struct {
	events []fbEvent
	retry  []bool // per event: a decision for a retry
}

func (l *clientLog) Decide(v *dispatch.View) dispatch.Decision {
	l.events = append(l.events, fbEvent{decide: true, task: v.Task, at: v.Now})
	l.retry = append(l.retry, v.Retry != nil)
	if v.Retry != nil {
		return dispatch.Decision{Tier: 1 - v.Retry.Failed}
	}
	return dispatch.Decision{Tier: v.Task % 2}
}

func (l *clientLog) Done(c *dispatch.Completion) {
	l.events = append(l.events, fbEvent{task: c.Task, at: c.Now, c: *c})
	l.retry = append(l.retry, false)
}

// TestTimeoutInTransit: when every task's delay outlives its timeout, the
// dispatcher's timeout fires while the task is still in transit: each
// attempt times out at exactly its send plus the timeout, its retry goes
// out then (not when the task reaches its tier), time never goes
// backwards for the policy, and every task ends timed out. With
// cancel_on_timeout the task never joins its tier; without, it joins and
// its service is wasted. FCFS and the event-driven tiers alike, and a
// delay equal to the timeout as one that outlives it: the deadline comes
// first at a tie.
func TestTimeoutInTransit(t *testing.T) {
	for _, d := range []Discipline{FCFS, PS, SRPT, Priority} {
		for _, cancel := range []bool{false, true} {
			for _, delay := range []float64{1, 0.4} {
				t.Run(d.String()+" cancel "+strconv.FormatBool(cancel)+" delay "+ftoa(delay), func(t *testing.T) { timeoutInTransit(t, d, cancel, delay) })
			}
		}
	}
}

func timeoutInTransit(t *testing.T, d Discipline, cancel bool, delayS float64) {
	const timeout, retries, tasks, service = 0.4, 2, 400, 0.1
	size := mustDist(t, "deterministic", 1, 0, 0)
	delay := mustDist(t, "deterministic", delayS, 0, 0) // ≥ timeout
	cfg := &Config{
		Tiers: []TierConfig{tier("a", dispatch.Edge, 2, 1/service, size, delay),
			tier("b", dispatch.Cloud, 4, 1/service, size, delay)},
		Arrivals: workload.Schedule{Rate: 5}, Size: size, Large: math.Inf(1), Tasks: tasks,
		Timeout: timeout, Retries: retries, CancelOnTimeout: cancel,
	}
	for i := range cfg.Tiers {
		cfg.Tiers[i].Discipline = d
	}
	l := &clientLog{}
	res, err := Run(cfg, l, workload.NewStreams(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	checkTransitTimeouts(t, l, timeout, retries)
	o := res.Out
	if o.Arrived != tasks || o.TimedOut != tasks || o.Retried != tasks ||
		o.Completed+o.Lost+o.TimedOut+o.Dropped+o.Abandoned != o.Arrived {
		t.Errorf("account %+v: want all %d tasks retried and timed out", o, tasks)
	}
	// Without cancel every attempt's service is wasted, but for the last
	// few, which reach their tier after the run's end.
	all := float64((retries+1)*tasks) * service
	if cancel && o.Wasted != 0 || !cancel && !(o.Wasted > all-3 && o.Wasted <= all+1e-9) {
		t.Errorf("%v s of service wasted, want none with cancel, nearly %v without", o.Wasted, all)
	}
	if n := res.Tier[0].Reached + res.Tier[1].Reached; cancel != (n == 0) {
		t.Errorf("%d attempts joined a tier in the measured window: want none exactly with cancel", n)
	}
}

// checkTransitTimeouts checks the decisions and ends l saw: in time order;
// each task decided retries+1 times, each retry at its previous send plus
// the timeout; each end a timeout told at that instant.
func checkTransitTimeouts(t *testing.T, l *clientLog, timeout float64, retries int) {
	t.Helper()
	sent, tries := map[int]float64{}, map[int]int{}
	last := 0.0
	for i, e := range l.events {
		if e.at < last {
			t.Fatalf("event %d (%+v) at %v, before the previous one at %v", i, e, e.at, last)
		}
		last = e.at
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, b) }
		switch {
		case e.decide && !l.retry[i]:
			sent[e.task] = e.at
		case e.decide:
			if !near(e.at, sent[e.task]+timeout) {
				t.Fatalf("task %d's retry goes out at %v, want its timeout at %v", e.task, e.at, sent[e.task]+timeout)
			}
			sent[e.task] = e.at
			tries[e.task]++
		default:
			if e.c.Outcome != dispatch.TimedOut || !near(e.c.Latency, timeout) || !near(e.at, sent[e.task]+timeout) {
				t.Fatalf("task %d told %+v at %v, want a timeout at %v", e.task, e.c, e.at, sent[e.task]+timeout)
			}
		}
	}
	for k, n := range tries {
		if n != retries {
			t.Fatalf("task %d retried %d times, want %d", k, n, retries)
		}
	}
}

// seer is a clairvoyant clientLog that keeps, at every first decision, the
// oracle's completion at the tier it chooses less the task's reach and
// service: the wait it foresees.
type seer struct {
	clientLog
	waits []float64
}

func (s *seer) Decide(v *dispatch.View) dispatch.Decision {
	d := s.clientLog.Decide(v)
	if v.Retry == nil {
		s.waits = append(s.waits, v.Oracle.Completion(d.Tier)-v.Now-1-v.Oracle.TaskSize()*0.1)
	}
	return d
}

func (s *seer) Capabilities() dispatch.Capabilities {
	return dispatch.Capabilities{Feedback: s, Clairvoyant: true}
}

// TestOracleSkipsCancelledInTransit: when every attempt times out in
// transit and cancel_on_timeout removes it, no task ever joins a tier, so
// the oracle foresees no wait anywhere; without cancel the timed-out
// attempts join and it foresees their work.
func TestOracleSkipsCancelledInTransit(t *testing.T) {
	for _, cancel := range []bool{true, false} {
		size := mustDist(t, "deterministic", 1, 0, 0)
		delay := mustDist(t, "deterministic", 1, 0, 0) // > the timeout
		cfg := &Config{
			Tiers: []TierConfig{tier("a", dispatch.Edge, 1, 10, size, delay),
				tier("b", dispatch.Cloud, 1, 10, size, delay)},
			Arrivals: workload.Schedule{Rate: 20}, Size: size, Large: math.Inf(1), Tasks: 400,
			Timeout: 0.4, Retries: 2, CancelOnTimeout: cancel,
		}
		p := &seer{}
		if _, err := Run(cfg, p, workload.NewStreams(3, 0)); err != nil {
			t.Fatal(err)
		}
		most := 0.0
		for _, w := range p.waits {
			most = max(most, w)
		}
		if cancel != (most < 1e-9) {
			t.Errorf("cancel %v: the oracle foresaw waits up to %v s; want none exactly with cancel", cancel, most)
		}
	}
}
