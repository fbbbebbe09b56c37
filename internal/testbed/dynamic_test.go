package testbed

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
)

// postBody sends a task with the given body.
func postBody(s *Server, ctx context.Context, body string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequestWithContext(ctx, "POST", "/tasks", strings.NewReader(body)))
	return w
}

// A priority tier serves its queue by the priority each request carries,
// the lowest number first and FIFO within a priority; the task in service
// runs to its end (non-preemptive). A FIFO tier ignores the priorities.
func TestServerPriorityOrder(t *testing.T) {
	for _, prio := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			g := newGate()
			s := newTestServer(t, ServerConfig{Servers: 1, Speed: 1, Priority: prio, Exec: g.exec})
			var wg sync.WaitGroup
			// Task id has size id (its service names it) and the priority given.
			for _, task := range []struct{ id, priority int }{{1, 5}, {2, 2}, {3, 0}, {4, 1}, {5, 0}, {6, 2}} {
				wg.Go(func() {
					postBody(s, t.Context(), fmt.Sprintf(`{"id": %d, "size": %d, "priority": %d}`, task.id, task.id, task.priority))
				})
				synctest.Wait() // queued in this order
			}
			var order []int
			for range 6 {
				order = append(order, int((<-g.started)/time.Second))
				g.release <- struct{}{}
				synctest.Wait()
			}
			wg.Wait()
			want := "[1 2 3 4 5 6]"
			if prio {
				want = "[1 3 5 4 2 6]" // 1 already in service; then 0, 0, 1, 2, 2
			}
			if got := fmt.Sprint(order); got != want {
				t.Errorf("priority %v: service order %s, want %s", prio, got, want)
			}
		})
	}
}

// A task that carries its run follows that run's episodes on that run's
// clock, whatever the server's own epoch: At places it in model time, Seed
// and Rep choose the schedule (one per run, made once). A slow-down to
// 0.25 stretches service exactly; a down episode refuses (tier_down); a
// failure with the task in service loses it (task_lost).
func TestServerFollowsEachRun(t *testing.T) {
	var ran []time.Duration
	var made []string
	capacity := &engine.Capacity{Episodes: []engine.Episode{{Start: 2, End: 4, Speed: 0.25}, {Start: 10, End: 12, Down: true}}}
	now := time.Unix(5000, 0) // the server's clock never moves: each task's At says when it is
	s := newTestServer(t, ServerConfig{Servers: 1, Speed: 1, TimeScale: 0.5, Now: func() time.Time { return now },
		Exec: func(_ context.Context, d time.Duration) error { ran = append(ran, d); return nil },
		Runs: func(seed uint64, rep int) Capacity {
			made = append(made, fmt.Sprint(seed, "/", rep))
			return engine.NewSchedule(capacity, [2]uint64{seed, uint64(rep)}, 0)
		}})
	for _, c := range []struct {
		at     float64
		rep    int
		status int
		reason string
		want   float64 // model s of service
	}{
		{1, 0, http.StatusOK, "", 1 + 2 + 0.5}, // 1 of work by 2, 0.5 by 4 at 0.25, the rest after
		{3, 1, http.StatusOK, "", 1 + 1.75},    // 0.25 of work by 4, 1.75 after
		{9, 0, http.StatusServiceUnavailable, AnswerTaskLost, 1},
		{11, 1, http.StatusServiceUnavailable, AnswerTierDown, -1},
	} {
		n := len(ran)
		w := postBody(s, context.Background(), fmt.Sprintf(`{"id": 1, "size": 2, "at": %v, "seed": 7, "rep": %d}`, c.at, c.rep))
		if w.Code != c.status || !strings.Contains(w.Body.String(), c.reason) {
			t.Fatalf("task at %v: %d %s, want %d %s", c.at, w.Code, w.Body, c.status, c.reason)
		}
		if c.want < 0 {
			if len(ran) != n {
				t.Errorf("task at %v refused, but it ran", c.at)
			}
			continue
		}
		if got := ran[n].Seconds() / 0.5; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("task at %v: %v model s of service, want %v", c.at, got, c.want)
		}
	}
	if fmt.Sprint(made) != "[7/0 7/1]" {
		t.Errorf("schedules made %v, want one per run", made)
	}
	if w := postBody(s, context.Background(), `{"id": 1, "size": 1, "rep": 2}`); w.Code != http.StatusBadRequest {
		t.Errorf("a replicate without at: %d, want 400", w.Code)
	}
	if st := s.State(); !st.Episodes || st.Lost != 1 {
		t.Errorf("state %+v: want episodes followed, one lost", st)
	}
}

// nearFar are an edge and a cloud 10 ms away.
var nearFar = []dispatch.Tier{{Name: "edge", Kind: dispatch.Edge, Servers: 1, Speed: 1, Mu: 1},
	{Name: "cloud", Kind: dispatch.Cloud, Servers: 1, Speed: 1, Mu: 1, MeanDelay: 0.01}}

// edgeFirst chooses the edge, and tells its feedback.
type edgeFirst struct {
	mu    sync.Mutex
	told  []dispatch.Completion
	views []*dispatch.Retry
}

func (p *edgeFirst) Decide(v *dispatch.View) dispatch.Decision {
	if v.Retry != nil {
		r := *v.Retry
		p.views = append(p.views, &r)
	}
	return dispatch.Decision{Tier: 0}
}

func (p *edgeFirst) Done(c *dispatch.Completion) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.told = append(p.told, *c)
}

// A down tier's 503 is told to a feedback policy as a failure, after the
// answer's way back (the delay again), and the task is retried with that
// tier left out: a policy that chooses it anyway is moved to the next
// tier, and told so. The task keeps its arrival for its latency.
func TestClientRetriesA503(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var sent []string
		var mu sync.Mutex
		tr := TransportFunc(func(_ context.Context, tier int, task Task) Reply {
			mu.Lock()
			sent = append(sent, fmt.Sprint(tier, "@", task.At))
			mu.Unlock()
			if tier == 0 {
				return Reply{Outcome: Down, Err: fmt.Errorf("503")}
			}
			time.Sleep(100 * time.Millisecond)
			return Reply{Outcome: Completed, Service: 100 * time.Millisecond}
		})
		pol := &edgeFirst{}
		wl := every(1, 0.02, 0.01)
		res, err := Run(t.Context(), Config{Tiers: nearFar, Policy: pol, Workload: wl, Transport: tr, TimeScale: 1,
			Duration: 1500 * time.Millisecond, Retries: 1, Stamped: true})
		if err != nil {
			t.Fatal(err)
		}
		// Sent to the edge at 1.02 (refused), learned at 1.04, moved to the cloud, there at 1.05.
		if fmt.Sprint(sent) != "[0@1.02 1@1.05]" {
			t.Errorf("requests %v, want the edge at 1.02 then the cloud at 1.05", sent)
		}
		if len(pol.told) != 3 || pol.told[0].Outcome != dispatch.Failed || pol.told[0].Tier != 0 || math.Abs(pol.told[0].Now-1.04) > 1e-9 ||
			pol.told[1].Outcome != dispatch.Moved || pol.told[1].From != 0 || pol.told[1].Tier != 1 ||
			pol.told[2].Outcome != dispatch.Completed || pol.told[2].Tier != 1 {
			t.Errorf("told %+v: want failed at the edge (at 1.04), moved to the cloud, completed there", pol.told)
		}
		if len(pol.views) != 1 || pol.views[0].Failed != 0 || pol.views[0].Attempt != 1 {
			t.Errorf("retries seen %v: want one, the edge failed", pol.views)
		}
		if res.Sent != 2 || res.Rejected != 1 || res.Completed != 1 || res.Failed != 0 || res.Out.Retried != 1 || res.Out.Arrived != 1 || res.Tasks != 1 {
			t.Errorf("result %+v %+v: want 2 sent, 1 rejected (scheduled), 1 completed, the task retried once", res, res.Out)
		}
		if math.Abs(res.Latencies[0]-0.15) > 1e-9 {
			t.Errorf("latency %v, want 0.15 from the arrival (0.05 to reach the cloud, 0.1 there)", res.Latencies)
		}
	})
}

// A tier that never answers: the attempt times out at the scenario's
// timeout, its policy is told so, and the task is retried. Left running
// unless cancelled: with cancel_on_timeout its request is cancelled at the
// timeout. Without retries the task ends timed out; a task lost with its
// tier and no timeout ends lost, untold.
func TestClientTimeoutsAndRetries(t *testing.T) {
	for _, cancel := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			var cancelled []bool
			var mu sync.Mutex
			tr := TransportFunc(func(ctx context.Context, tier int, _ Task) Reply {
				if tier == 1 {
					return Reply{Outcome: Completed}
				}
				select {
				case <-ctx.Done():
					mu.Lock()
					cancelled = append(cancelled, true)
					mu.Unlock()
					return Reply{Outcome: Failed, Err: ctx.Err()}
				case <-time.After(2 * time.Second):
					mu.Lock()
					cancelled = append(cancelled, false)
					mu.Unlock()
					return Reply{Outcome: Completed}
				}
			})
			pol := &edgeFirst{}
			res, err := Run(t.Context(), Config{Tiers: nearFar, Policy: pol, Workload: every(1, 0, 0), Transport: tr, TimeScale: 1,
				Duration: 1500 * time.Millisecond, TaskTimeout: 0.5, Retries: 1, CancelOnTimeout: cancel})
			if err != nil {
				t.Fatal(err)
			}
			if len(pol.told) != 3 || pol.told[0].Outcome != dispatch.TimedOut || pol.told[0].Now != 1.5 || pol.told[0].Latency != 0.5 {
				t.Errorf("cancel %v: told %+v: want timed out at 1.5 after 0.5", cancel, pol.told)
			}
			if fmt.Sprint(cancelled) != fmt.Sprint([]bool{cancel}) {
				t.Errorf("cancel %v: the edge's request cancelled: %v", cancel, cancelled)
			}
			if res.Failed != 0 || res.Out.Retried != 1 || res.Out.TimedOut != 0 || res.Tasks != 1 || res.Sent != res.Completed+res.Rejected {
				t.Errorf("cancel %v: result %+v %+v: want the task retried and completed, no failure", cancel, res, res.Out)
			}
		})
	}
	synctest.Test(t, func(t *testing.T) {
		never := TransportFunc(func(ctx context.Context, _ int, _ Task) Reply {
			<-ctx.Done()
			return Reply{Outcome: Failed, Err: ctx.Err()}
		})
		res, err := Run(t.Context(), Config{Tiers: nearFar, Policy: &edgeFirst{}, Workload: every(1, 0, 0), Transport: never, TimeScale: 1,
			Duration: 1500 * time.Millisecond, TaskTimeout: 0.5, CancelOnTimeout: true})
		if err != nil || res.Out.TimedOut != 1 || res.Out.Arrived != 1 || res.Failed != 0 || res.Rejected != 1 {
			t.Errorf("no retries: %v, %+v %+v: want the task timed out, its request cancelled as the scenario says", err, res, res.Out)
		}
		lost := TransportFunc(func(context.Context, int, Task) Reply { return Reply{Outcome: Lost, Err: fmt.Errorf("503")} })
		pol := &edgeFirst{}
		res, err = Run(t.Context(), Config{Tiers: nearFar, Policy: pol, Workload: every(1, 0, 0), Transport: lost, TimeScale: 1,
			Duration: 1500 * time.Millisecond, Retries: 2})
		if err != nil || res.Out.Lost != 1 || res.Out.Retried != 0 || len(pol.told) != 0 || res.FailureShare() != 0 {
			t.Errorf("lost, no timeout: %v, %+v %+v, told %v: want lost, never retried nor told", err, res, res.Out, pol.told)
		}
		m := res.Metrics(results.RunColumns(results.Layout{Tiers: []string{"edge", "cloud"}, Dynamic: true}))
		if m.Get(results.ColLostShare) != 1 || m.Get(results.ColTimeoutShare) != 0 {
			t.Errorf("lost_share %v, timeout_share %v: want 1, 0", m.Get(results.ColLostShare), m.Get(results.ColTimeoutShare))
		}
	})
}

// Classes: each request carries its class's priority, and the result keeps
// each class's latencies and deadline misses.
func TestClientClasses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var prios []int
		var mu sync.Mutex
		tr := TransportFunc(func(_ context.Context, _ int, task Task) Reply {
			mu.Lock()
			prios = append(prios, task.Priority)
			mu.Unlock()
			time.Sleep(time.Duration(task.ID+1) * 100 * time.Millisecond)
			return Reply{Outcome: Completed}
		})
		k := 0
		wl := every(1, 0)
		wl.Class = func() int { k++; return k % 2 }
		res, err := Run(t.Context(), Config{Tiers: oneTier, Policy: dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }),
			Workload: wl, Transport: tr, TimeScale: 1, Duration: 2500 * time.Millisecond,
			Classes: []Class{{Priority: 0, Deadline: 0.25}, {Priority: 3}}})
		if err != nil {
			t.Fatal(err)
		}
		// Task 0 (class 1, 0.1 s), task 1 (class 0, 0.2 s).
		if fmt.Sprint(prios) != "[3 0]" {
			t.Errorf("priorities sent %v, want [3 0]", prios)
		}
		m := res.Metrics(results.RunColumns(results.Layout{Tiers: []string{"edge"}, Classes: []string{"a", "b"}}))
		if math.Abs(m.Get(results.ClassLatencyCol("a"))-0.2) > 1e-9 || math.Abs(m.Get(results.ClassLatencyCol("b"))-0.1) > 1e-9 ||
			m.Get(results.ClassDeadlineMissCol("a")) != 0 {
			t.Errorf("class columns %v", m.Values)
		}
	})
}
