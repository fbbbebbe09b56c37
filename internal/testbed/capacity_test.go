package testbed

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/engine"
)

// TestServerFollowsEpisodes: a server given the scenario's episodes
// stretches a task's service through a slow-down exactly as the simulator
// does, refuses a task while down (503, tier_down), and loses a task in
// service when the tier goes down (503, task_lost, at that instant), on a
// clock the test sets.
func TestServerFollowsEpisodes(t *testing.T) {
	epoch := time.Unix(1000, 0)
	var now time.Time
	var ran []time.Duration
	capacity := &engine.Capacity{Episodes: []engine.Episode{
		{Start: 2, End: 4, Speed: 0.25}, {Start: 10, End: 12, Down: true}}}
	s := newTestServer(t, ServerConfig{Servers: 1, Speed: 1, TimeScale: 0.5, Epoch: epoch,
		Now: func() time.Time { return now }, Capacity: engine.NewSchedule(capacity, [2]uint64{1, 2}, 0),
		Exec: func(_ context.Context, d time.Duration) error { ran = append(ran, d); return nil }})
	at := func(m float64) { now = epoch.Add(time.Duration(m * 0.5 * float64(time.Second))) }
	for _, c := range []struct {
		start  float64 // model s
		size   int
		status int
		want   float64 // model seconds of service: the wall time run / time-scale
	}{
		{0, 1, http.StatusOK, 1},                   // before any episode
		{1, 2, http.StatusOK, 1 + 2 + 0.5},         // 1 of work by 2, 0.5 by 4 at 0.25, 0.5 after
		{3, 1, http.StatusOK, 1 + 0.75},            // 0.25 of it by 4, the rest at speed 1
		{9, 2, http.StatusServiceUnavailable, 1},   // lost when the tier goes down at 10
		{11, 1, http.StatusServiceUnavailable, -1}, // refused: nothing runs
	} {
		at(c.start)
		n := len(ran)
		w := post(s, context.Background(), c.size)
		if w.Code != c.status {
			t.Fatalf("task of size %d at %v: status %d, want %d (%s)", c.size, c.start, w.Code, c.status, w.Body)
		}
		if c.status != http.StatusOK {
			var e ErrorBody
			want := AnswerTaskLost // it ran
			if c.want < 0 {
				want = AnswerTierDown // refused
			}
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Reason != want {
				t.Errorf("task at %v: body %s, want reason %s", c.start, w.Body, want)
			}
		}
		if c.want < 0 {
			if len(ran) != n {
				t.Errorf("task at %v refused, but it ran", c.start)
			}
			continue
		}
		if got := ran[n].Seconds() / 0.5; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("task of size %d at %v: %v model s of service, want %v", c.size, c.start, got, c.want)
		}
	}
	st := s.State()
	if st.Completed != 3 || st.Lost != 1 || st.Rejected != 1 || st.Abandoned != 0 || st.Busy != 0 {
		t.Errorf("state %+v: want 3 completed, 1 lost, 1 rejected, none abandoned or busy", st)
	}
}
