package testbed

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func newTestServer(t *testing.T, cfg ServerConfig) *Server {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "edge"
	}
	if cfg.TimeScale == 0 {
		cfg.TimeScale = 1
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Hostile input is refused with a 4xx and a reason before any queueing.
func TestServerRejectsHostileInput(t *testing.T) {
	s := newTestServer(t, ServerConfig{Servers: 1, Speed: 1e9,
		Exec: func(context.Context, time.Duration) error { t.Error("executed a hostile task"); return nil }})
	cases := []struct {
		name, method, path, body string
		status                   int
		reason                   string
	}{
		{"malformed json", "POST", "/tasks", `{"id": 1, "size": `, 400, "bad_json"},
		{"not an object", "POST", "/tasks", `[1, 2]`, 400, "bad_json"},
		{"missing size", "POST", "/tasks", `{"id": 1}`, 400, "bad_size"},
		{"negative size", "POST", "/tasks", `{"id": 1, "size": -2}`, 400, "bad_size"},
		{"zero size", "POST", "/tasks", `{"id": 1, "size": 0}`, 400, "bad_size"},
		{"NaN size", "POST", "/tasks", `{"id": 1, "size": NaN}`, 400, "bad_json"},
		{"NaN as a string", "POST", "/tasks", `{"id": 1, "size": "NaN"}`, 400, "bad_json"},
		{"infinite size", "POST", "/tasks", `{"id": 1, "size": 1e999}`, 400, "bad_json"},
		{"too long to serve", "POST", "/tasks", `{"id": 1, "size": 1e300}`, 400, "too_long"},
		{"unknown field", "POST", "/tasks", `{"id": 1, "size": 1, "prio": 9}`, 400, "bad_json"},
		{"trailing data", "POST", "/tasks", `{"id": 1, "size": 1} {"id": 2}`, 400, "bad_json"},
		{"body over the cap", "POST", "/tasks", `{"id": 1, "size": 1` + strings.Repeat(" ", MaxBodyBytes) + `}`, 413, "too_large"},
		{"missing id", "POST", "/tasks", `{"size": 1}`, 400, "bad_id"},
		{"wrong method", "GET", "/tasks", ``, 405, "method_not_allowed"},
		{"wrong path", "POST", "/task", `{"id": 1, "size": 1}`, 404, "not_found"},
		{"state by POST", "POST", "/state", ``, 405, "method_not_allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			s.ServeHTTP(w, httptest.NewRequest(c.method, c.path, strings.NewReader(c.body)))
			if w.Code != c.status {
				t.Fatalf("%s %s %q: status %d, want %d (body %s)", c.method, c.path, c.body, w.Code, c.status, w.Body)
			}
			if c.status == 405 && w.Header().Get("Allow") == "" {
				t.Errorf("a 405 without Allow")
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want JSON", ct)
			}
			if c.reason != "" {
				var e ErrorBody
				if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Reason != c.reason || e.Error == "" {
					t.Errorf("body %s: want reason %q and a message", w.Body, c.reason)
				}
			}
		})
	}
	if st := s.State(); st.Received != 0 || st.Busy != 0 || st.Queued != 0 {
		t.Errorf("hostile requests reached the queue: %+v", st)
	}
}

// gate is an executor the test controls: each task reports its service time
// (which names it) and runs until released.
type gate struct {
	started chan time.Duration
	release chan struct{}
}

func newGate() *gate {
	return &gate{started: make(chan time.Duration, 16), release: make(chan struct{})}
}

func (g *gate) exec(ctx context.Context, d time.Duration) error {
	g.started <- d
	select {
	case <-g.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// post sends task id (size id, so its service is id seconds at speed 1).
func post(s *Server, ctx context.Context, id int) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	body := `{"id": ` + itoa(id) + `, "size": ` + itoa(id) + `}`
	s.ServeHTTP(w, httptest.NewRequestWithContext(ctx, "POST", "/tasks", strings.NewReader(body)))
	return w
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// The queue discipline: at most c in service, FIFO hand-over, 503 beyond
// the limit, and the rejection rate reported; timings from the injected clock.
func TestServerQueueDiscipline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		s := newTestServer(t, ServerConfig{Servers: 2, Speed: 1, QueueLimit: 2, Exec: g.exec})
		var wg sync.WaitGroup
		rec := make([]*httptest.ResponseRecorder, 6)
		for id := 1; id <= 5; id++ {
			wg.Go(func() { rec[id] = post(s, t.Context(), id) })
			synctest.Wait() // task id is admitted (or refused) before the next
		}
		if got := rec[5]; got == nil || got.Code != http.StatusServiceUnavailable || !strings.Contains(got.Body.String(), "queue_full") {
			t.Fatalf("5th task with 2 busy and 2 queued (limit 2): got %v, want 503 queue_full", got)
		}
		st := s.State()
		if st.Busy != 2 || st.Queued != 2 || st.Rejected != 1 || st.Received != 5 || st.RejectionRate != 0.2 {
			t.Fatalf("state %+v: want busy 2, queued 2, rejected 1 of 5 (rate 0.2)", st)
		}
		order := []time.Duration{<-g.started, <-g.started}
		time.Sleep(3 * time.Second) // tasks 3 and 4 wait 3 s
		for range 3 {
			g.release <- struct{}{}
			synctest.Wait()
			if len(order) < 4 {
				order = append(order, <-g.started)
			}
		}
		g.release <- struct{}{}
		wg.Wait()
		want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 4 * time.Second}
		for i := range want {
			if order[i] != want[i] {
				t.Fatalf("service order %v, want FIFO %v", order, want)
			}
		}
		var r3 TaskResult
		if err := json.Unmarshal(rec[3].Body.Bytes(), &r3); err != nil || rec[3].Code != 200 {
			t.Fatalf("task 3: %d %s", rec[3].Code, rec[3].Body)
		}
		if r3.ID != 3 || r3.Tier != "edge" || r3.WaitS != 3 || r3.ServiceS != 0 {
			t.Errorf("task 3 timings %+v: want id 3, wait 3 s by the bubble's clock", r3)
		}
		if st := s.State(); st.Completed != 4 || st.Busy != 0 || st.Queued != 0 {
			t.Errorf("final state %+v: want 4 completed, idle", st)
		}
	})
}

// A client that leaves while queued frees its place; one that leaves in
// service frees its server for the next in line.
func TestServerAbandonedTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		s := newTestServer(t, ServerConfig{Servers: 1, Speed: 1, Exec: g.exec})
		ctx1, cancel1 := context.WithCancel(t.Context())
		ctx2, cancel2 := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		var r3 *httptest.ResponseRecorder
		wg.Go(func() { post(s, ctx1, 1) })
		synctest.Wait()
		wg.Go(func() { post(s, ctx2, 2) })
		synctest.Wait()
		wg.Go(func() { r3 = post(s, t.Context(), 3) })
		synctest.Wait()
		cancel2() // queued: leaves the queue
		synctest.Wait()
		if st := s.State(); st.Queued != 1 || st.Abandoned != 1 {
			t.Fatalf("after a queued client left: %+v, want 1 queued, 1 abandoned", st)
		}
		cancel1() // in service: its server passes to task 3
		synctest.Wait()
		if d := <-g.started; d != time.Second {
			t.Fatalf("first started %v", d)
		}
		if d := <-g.started; d != 3*time.Second {
			t.Fatalf("after task 1 left, started %v, want task 3", d)
		}
		g.release <- struct{}{}
		wg.Wait()
		if r3.Code != 200 {
			t.Errorf("task 3: %d", r3.Code)
		}
		if st := s.State(); st.Completed != 1 || st.Abandoned != 2 || st.Busy != 0 {
			t.Errorf("final %+v", st)
		}
	})
}

func TestNewServerRefusesBadConfig(t *testing.T) {
	for _, cfg := range []ServerConfig{
		{Name: "a", Servers: 0, Speed: 1, TimeScale: 1},
		{Name: "a", Servers: 1, Speed: 0, TimeScale: 1},
		{Name: "a", Servers: 1, Speed: 1, TimeScale: -1},
	} {
		if _, err := NewServer(cfg); err == nil {
			t.Errorf("NewServer(%+v): no error", cfg)
		}
	}
}

// The HTTP server bounds every phase a slow client could stretch.
func TestHTTPServerTimeouts(t *testing.T) {
	srv := NewHTTPServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Errorf("timeouts unset: %+v", srv)
	}
}

// A negative queue limit is a buffer of c: with every server busy the next
// task is refused at once; zero is the default limit.
func TestServerBufferOfServers(t *testing.T) {
	s := newTestServer(t, ServerConfig{Servers: 1, Speed: 1, QueueLimit: -1})
	if err := s.acquire(context.Background(), &clock{}, 0); err != nil {
		t.Fatal(err)
	}
	var re *requestError
	if err := s.acquire(context.Background(), &clock{}, 0); !errors.As(err, &re) || re.status != http.StatusServiceUnavailable {
		t.Fatalf("second task: %v, want a 503", err)
	}
	if d := newTestServer(t, ServerConfig{Servers: 1, Speed: 1}); d.cfg.QueueLimit != DefaultQueueLimit {
		t.Errorf("zero limit became %d", d.cfg.QueueLimit)
	}
}
