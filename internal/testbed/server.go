package testbed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Defaults of ServerConfig.
const (
	// DefaultQueueLimit is large on purpose: a rejection changes what a
	// latency mean measures, so it should happen only when asked for.
	DefaultQueueLimit = 100000
	// DefaultMaxService bounds one task's wall-clock service, so that a
	// hostile size cannot hold a server for hours.
	DefaultMaxService = 10 * time.Minute
	// answerTimeout bounds writing an answer: a client that stops reading
	// cannot hold the connection (the task itself may run for long, so the
	// server cannot use a whole-request WriteTimeout).
	answerTimeout = 10 * time.Second
)

// ServerConfig describes one tier server.
type ServerConfig struct {
	Name       string
	Servers    int     // c: tasks in service at once, ≥ 1
	Speed      float64 // work units per model second of one server, > 0
	QueueLimit int     // tasks that may wait beyond the c in service; 0: DefaultQueueLimit; < 0: none may wait
	TimeScale  float64 // wall seconds per model second, > 0
	// MaxService refuses (400) a task whose wall-clock service would exceed
	// it; 0: DefaultMaxService.
	MaxService time.Duration
	// Index is the tier's position in its pool: a task that carries its
	// delays (TaskRequest.Delays) waits Delays[Index] before it queues, and
	// the answer says Index, so that a client behind a real balancer knows
	// which tier served it.
	Index int
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Exec runs a task: it must take d of wall-clock time, or return ctx's
	// error when the client goes away first. nil: a timer (Sleep).
	Exec func(ctx context.Context, d time.Duration) error
	// Capacity is the tier's speed over model time from Epoch, as the
	// scenario's episodes give it (engine.Schedule); nil: its speed,
	// always. While down the tier answers 503 (reason tier_down) to a
	// task that reaches it, and a task present when it goes down, queued
	// or in service, is lost: answered 503 at that instant. A slow-down
	// stretches service as the simulator does, the remaining work
	// draining at each span's speed.
	Capacity Capacity
	// Epoch is model time 0 of Capacity; zero: when NewServer is called.
	Epoch time.Time
	// Runs, if set, is the tier's capacity in replicate rep of its
	// scenario under seed (the episodes of the simulator's run of that
	// replicate): a task that carries its run (TaskRequest.At, Seed and
	// Rep) follows Runs(seed, rep) on its own run's clock, so that runs
	// one after another, or at once, each see their own episodes; a task
	// that does not follows Capacity. Called under the server's lock, once
	// per run while the server keeps its schedule.
	Runs func(seed uint64, rep int) Capacity
	// Priority serves the queue by TaskRequest.Priority, the lowest
	// number first, FIFO within a priority (non-preemptive: a task in
	// service runs to its end); false: one FIFO queue.
	Priority bool
}

// Capacity is a tier's capacity over model time (s from the epoch), as
// engine.Schedule computes it. A server calls it under its lock.
type Capacity interface {
	Down(t float64) bool
	Finish(start, work float64) (float64, bool)
	NextDown(t, until float64) float64
}

// downHorizon bounds, in model seconds, how far ahead a queued task looks
// for the failure that would lose it: a wait beyond it is not modelled.
const downHorizon = 86400

// maxRuns bounds the schedules a server keeps (ServerConfig.Runs), since
// the run is the client's to name: past it the oldest is dropped and made
// again if asked for.
const maxRuns = 16

// Server is one tier: c service slots and one queue, FIFO or by
// priority. It is an http.Handler (POST /tasks, GET /state); serve it
// with NewHTTPServer.
type Server struct {
	cfg ServerConfig
	mux *http.ServeMux

	mu    sync.Mutex
	busy  int
	queue []*waiter // queue[0] is served next
	st    State
	runs  []run // the schedules of ServerConfig.Runs, oldest first
}

// run is one run's capacity, kept for the tasks that name it.
type run struct {
	seed uint64
	rep  int
	cap  Capacity
}

// waiter is a queued task; ready is closed when a server is handed to it.
type waiter struct {
	ready    chan struct{}
	served   bool
	priority int
}

// clock is a task's model time: the capacity it follows and model time 0
// of it, its run's start, on the server's wall clock.
type clock struct {
	cap   Capacity // nil: the tier's speed, always
	epoch time.Time
	scale float64
}

// model is wall-clock instant t in model seconds from the epoch.
func (c *clock) model(t time.Time) float64 { return t.Sub(c.epoch).Seconds() / c.scale }

// wall is model instant m as a wall-clock instant.
func (c *clock) wall(m float64) time.Time {
	return c.epoch.Add(time.Duration(m * c.scale * float64(time.Second)))
}

// NewServer checks cfg and returns the tier's handler.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Servers < 1 {
		return nil, fmt.Errorf("tier %s: servers %d: must be ≥ 1", cfg.Name, cfg.Servers)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"speed", cfg.Speed}, {"time-scale", cfg.TimeScale}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return nil, fmt.Errorf("tier %s: %s %v: must be finite and > 0", cfg.Name, f.name, f.v)
		}
	}
	if cfg.Index < 0 || cfg.Index >= MaxDelays {
		return nil, fmt.Errorf("tier %s: index %d: must be in [0, %d)", cfg.Name, cfg.Index, MaxDelays)
	}
	switch {
	case cfg.QueueLimit == 0:
		cfg.QueueLimit = DefaultQueueLimit
	case cfg.QueueLimit < 0: // a buffer of c: every task waiting beyond the servers is refused
		cfg.QueueLimit = 0
	}
	if cfg.MaxService <= 0 {
		cfg.MaxService = DefaultMaxService
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Exec == nil {
		cfg.Exec = Sleep
	}
	if cfg.Epoch.IsZero() {
		cfg.Epoch = cfg.Now()
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux()}
	s.st = State{Name: cfg.Name, Servers: cfg.Servers, Speed: cfg.Speed, TimeScale: cfg.TimeScale, QueueLimit: cfg.QueueLimit,
		Episodes: cfg.Runs != nil, Priority: cfg.Priority}
	// Method-qualified patterns: the mux answers 405 (with Allow) for a wrong
	// method and 404 for any other path.
	s.mux.HandleFunc("POST /tasks", s.postTask)
	s.mux.HandleFunc("GET /state", s.getState)
	return s, nil
}

// Sleep is the default executor: it waits d, or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ServeHTTP implements http.Handler. A request no route takes (the mux's
// 404, or 405 with Allow) is answered in JSON like every other refusal,
// so that a client reads one error format.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, pattern := s.mux.Handler(r)
	if pattern != "" {
		h.ServeHTTP(w, r)
		return
	}
	rec := &statusOnly{header: http.Header{}}
	h.ServeHTTP(rec, r)
	switch rec.status {
	case http.StatusMethodNotAllowed:
		allow := rec.header.Get("Allow")
		w.Header().Set("Allow", allow)
		writeJSON(w, rec.status, ErrorBody{"method_not_allowed", fmt.Sprintf("%s %s: allowed: %s", r.Method, r.URL.Path, allow)})
	case http.StatusNotFound:
		writeJSON(w, rec.status, ErrorBody{"not_found", fmt.Sprintf("%s: no such path (POST /tasks, GET /state)", r.URL.Path)})
	default: // a redirect or the like: let the mux answer as it does
		h.ServeHTTP(w, r)
	}
}

// statusOnly records the status and headers a handler would answer with,
// and drops the body: the mux's text body is replaced by JSON.
type statusOnly struct {
	header http.Header
	status int
}

func (r *statusOnly) Header() http.Header { return r.header }
func (r *statusOnly) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *statusOnly) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return len(b), nil
}

// State returns the tier's current state, as GET /state reports it.
func (s *Server) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.Queued, st.Busy = len(s.queue), s.busy
	if st.Received > 0 {
		st.RejectionRate = float64(st.Rejected) / float64(st.Received)
	}
	return st
}

func (s *Server) getState(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.State())
}

// serviceTime is a task's wall-clock service: size/speed model seconds.
func (s *Server) serviceTime(size float64) (time.Duration, bool) {
	sec := size / s.cfg.Speed * s.cfg.TimeScale
	if !(sec*float64(time.Second) <= float64(s.cfg.MaxService)) {
		return 0, false
	}
	return time.Duration(sec * float64(time.Second)), true
}

func (s *Server) postTask(w http.ResponseWriter, r *http.Request) {
	t, rerr := decodeTask(w, r)
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	d, ok := s.serviceTime(*t.Size)
	if !ok {
		writeError(w, badRequest("too_long", "size %v needs more than the server's %v of service", *t.Size, s.cfg.MaxService))
		return
	}
	if t.Delays != nil {
		if s.cfg.Index >= len(t.Delays) {
			writeError(w, badRequest("bad_delays", "%d delays: tier %s is at index %d of its pool", len(t.Delays), s.cfg.Name, s.cfg.Index))
			return
		}
		// The delay before the tier, which the client could not apply:
		// the task reaches the queue after it, as in the model.
		if d := time.Duration(t.Delays[s.cfg.Index] * s.cfg.TimeScale * float64(time.Second)); d > 0 {
			if Sleep(r.Context(), d) != nil {
				return // the client left during the delay: nobody to answer
			}
		}
	}
	queued := s.cfg.Now()
	ck := s.clockOf(&t, queued)
	if ck.cap != nil && s.refuse(&ck, queued) {
		writeError(w, s.downError())
		return
	}
	if err := s.acquire(r.Context(), &ck, t.Priority); err != nil {
		var re *requestError
		if errors.As(err, &re) {
			writeError(w, re)
		}
		return // the client left while queued: nobody to answer
	}
	started := s.cfg.Now()
	lost := false
	if ck.cap != nil {
		d, lost = s.stretch(&ck, started, *t.Size/s.cfg.Speed)
	}
	err := s.cfg.Exec(r.Context(), d)
	finished := s.cfg.Now()
	if lost && err == nil {
		s.lose()
		writeError(w, s.lostError())
		return
	}
	s.release(err == nil)
	if err != nil {
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerTimeout))
	writeJSON(w, http.StatusOK, TaskResult{ID: t.ID, Tier: s.cfg.Name, Index: s.cfg.Index, Queued: queued, Started: started,
		Finished: finished, WaitS: started.Sub(queued).Seconds(), ServiceS: finished.Sub(started).Seconds()})
}

// clockOf is the model time of a task that joins the queue at queued: its
// run's, when it carries one (the model instant At at which it reaches
// the tier, its delay to this tier added when the server applied it),
// else the server's own.
func (s *Server) clockOf(t *TaskRequest, queued time.Time) clock {
	ck := clock{cap: s.cfg.Capacity, epoch: s.cfg.Epoch, scale: s.cfg.TimeScale}
	if t.At == nil || s.cfg.Runs == nil {
		return ck
	}
	at := *t.At
	if t.Delays != nil {
		at += t.Delays[s.cfg.Index]
	}
	ck.epoch = queued.Add(-time.Duration(at * s.cfg.TimeScale * float64(time.Second)))
	s.mu.Lock()
	defer s.mu.Unlock()
	ck.cap = s.runCapacity(t.Seed, t.Rep)
	return ck
}

// runCapacity is a run's capacity (s.mu held), made once and kept.
func (s *Server) runCapacity(seed uint64, rep int) Capacity {
	for _, r := range s.runs {
		if r.seed == seed && r.rep == rep {
			return r.cap
		}
	}
	if len(s.runs) == maxRuns {
		s.runs = slices.Delete(s.runs, 0, 1)
	}
	c := s.cfg.Runs(seed, rep)
	s.runs = append(s.runs, run{seed, rep, c})
	return c
}

// acquire takes a server, waiting in the queue's order; it fails with a
// 503 requestError when the queue is full, or when the tier fails while
// the task waits (ck), or with ctx's error if the client leaves while
// waiting.
func (s *Server) acquire(ctx context.Context, ck *clock, priority int) error {
	s.mu.Lock()
	s.st.Received++
	if s.busy < s.cfg.Servers {
		s.busy++
		s.mu.Unlock()
		return nil
	}
	if len(s.queue) >= s.cfg.QueueLimit {
		s.st.Rejected++
		n := len(s.queue)
		s.mu.Unlock()
		return &requestError{http.StatusServiceUnavailable, ErrorBody{AnswerQueueFull,
			fmt.Sprintf("tier %s: queue full (%d waiting, limit %d, %d servers busy)", s.cfg.Name, n, s.cfg.QueueLimit, s.cfg.Servers)}}
	}
	wt := &waiter{ready: make(chan struct{}), priority: priority}
	s.enqueue(wt)
	var down <-chan time.Time
	if ck.cap != nil { // the failure that would lose it while it waits
		now := s.cfg.Now()
		m := ck.model(now)
		if at := ck.cap.NextDown(m, m+downHorizon); at < math.Inf(1) {
			tm := time.NewTimer(ck.wall(at).Sub(now))
			defer tm.Stop()
			down = tm.C
		}
	}
	s.mu.Unlock()
	failed := false
	select {
	case <-wt.ready:
		return nil
	case <-ctx.Done():
	case <-down:
		failed = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if wt.served { // handed a server as the client left: give it back
		s.releaseLocked(false)
		if failed {
			s.st.Abandoned--
			s.st.Lost++
			return s.lostError()
		}
		return ctx.Err()
	}
	s.queue = slices.DeleteFunc(s.queue, func(x *waiter) bool { return x == wt })
	if failed {
		s.st.Lost++
		return s.lostError()
	}
	s.st.Abandoned++
	return ctx.Err()
}

// enqueue puts wt in the queue (s.mu held): at its end, or by priority
// behind every task of its own priority or a lower number.
func (s *Server) enqueue(wt *waiter) {
	j := len(s.queue)
	if s.cfg.Priority {
		for j > 0 && s.queue[j-1].priority > wt.priority {
			j--
		}
	}
	s.queue = slices.Insert(s.queue, j, wt)
}

// refuse reports whether the tier is down at t, counting the refusal.
func (s *Server) refuse(ck *clock, t time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ck.cap.Down(ck.model(t)) {
		return false
	}
	s.st.Received++
	s.st.Rejected++
	return true
}

// stretch is the wall-clock service of work model seconds (at the tier's
// own speed) started at t, through the task's capacity; lost if the tier
// goes down first, the service then lasting until it does.
func (s *Server) stretch(ck *clock, t time.Time, work float64) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := ck.model(t)
	fin, lost := ck.cap.Finish(m, work)
	return time.Duration((fin - m) * ck.scale * float64(time.Second)), lost
}

// lose frees the server of a task lost in service.
func (s *Server) lose() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(false)
	s.st.Abandoned--
	s.st.Lost++
}

// downError is the answer of a down tier to a task that reaches it.
func (s *Server) downError() *requestError {
	return &requestError{http.StatusServiceUnavailable, ErrorBody{AnswerTierDown, fmt.Sprintf("tier %s is down", s.cfg.Name)}}
}

// lostError is the answer to a task present, queued or in service, when
// its tier fails: answered at that instant, though a dispatcher in the
// model learns of it only at its timeout.
func (s *Server) lostError() *requestError {
	return &requestError{http.StatusServiceUnavailable, ErrorBody{AnswerTaskLost, fmt.Sprintf("tier %s failed with the task present", s.cfg.Name)}}
}

// The reasons of the 503s a tier answers as its scenario says: a full
// queue (a buffer), a task refused while down, a task lost when it failed.
const (
	AnswerQueueFull = "queue_full"
	AnswerTierDown  = "tier_down"
	AnswerTaskLost  = "task_lost"
)

// release frees a server: it passes straight to the head of the queue, so
// that no later arrival can take it first (FIFO).
func (s *Server) release(done bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(done)
}

func (s *Server) releaseLocked(done bool) {
	if done {
		s.st.Completed++
	} else {
		s.st.Abandoned++
	}
	if len(s.queue) == 0 {
		s.busy--
		return
	}
	wt := s.queue[0]
	s.queue[0] = nil
	s.queue = s.queue[1:]
	wt.served = true
	close(wt.ready)
}

// NewHTTPServer wraps h in an http.Server with timeouts, so that a slow or
// silent client cannot hold a connection: headers must arrive within 5 s,
// the body within 10 s, an idle keep-alive connection closes after 60 s, and
// each answer must be taken within 10 s of being ready. There is no
// whole-request write timeout, since a queued task may legitimately take long.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// Shutdown stops accepting and waits up to grace for accepted requests to be
// answered, then closes what is left.
func Shutdown(srv *http.Server, grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		_ = srv.Close()
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("requests still running after the %v grace period were cut off", grace)
		}
		return err
	}
	return nil
}
