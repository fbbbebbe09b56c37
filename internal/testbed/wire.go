package testbed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"
)

// MaxBodyBytes caps a POST /tasks body: a task is two numbers, and behind
// a real balancer a delay for each tier of the pool (MaxDelays of them),
// so anything larger is hostile or a mistake and is refused before it is
// read.
const MaxBodyBytes = 1<<10 + MaxDelays*24

// maxAt bounds a task's model instant (TaskRequest.At): a year.
const maxAt = 365 * 86400

// MaxDelays is the most tiers a task's delays may name.
const MaxDelays = 1024

// TaskRequest is the body of POST /tasks.
type TaskRequest struct {
	ID   uint64   `json:"id"`   // echoed back; the client's task number
	Size *float64 `json:"size"` // work units, finite and > 0; required
	// Delays, when the client cannot know the tier in advance (a real
	// balancer chooses it), is the task's delay to every tier of the pool,
	// model seconds, finite and ≥ 0: the server waits its own
	// (ServerConfig.Index) before the task joins its queue. Absent: the
	// client has applied the delay.
	Delays []float64 `json:"delays,omitempty"`
	// At, Seed and Rep name the task's run: the model instant, s from the
	// run's start, at which it reaches the tier (its delay, when Delays
	// carries it, then added by the server), the scenario's seed and the
	// replicate (≥ 0), whose episodes the tier follows
	// (ServerConfig.Runs). No At: the server's own clock and capacity.
	At   *float64 `json:"at,omitempty"`
	Seed uint64   `json:"seed,omitempty"`
	Rep  int      `json:"rep,omitempty"`
	// Priority is the task's class priority, the lowest number served
	// first by a tier whose queue is by priority (ServerConfig.Priority);
	// ignored by a FIFO tier.
	Priority int `json:"priority,omitempty"`
}

// TaskResult is the answer to POST /tasks once the task has run. Times are
// the server's wall clock; WaitS and ServiceS are wall-clock seconds.
type TaskResult struct {
	ID       uint64    `json:"id"`
	Tier     string    `json:"tier"`
	Index    int       `json:"index"`    // the tier's position in its pool (ServerConfig.Index)
	Queued   time.Time `json:"queued"`   // accepted into the queue
	Started  time.Time `json:"started"`  // a server took it
	Finished time.Time `json:"finished"` // service done
	WaitS    float64   `json:"wait_s"`
	ServiceS float64   `json:"service_s"`
}

// State is the answer to GET /state.
type State struct {
	Name       string  `json:"name"`
	Servers    int     `json:"servers"`        // c
	Speed      float64 `json:"speed"`          // work units per model second
	TimeScale  float64 `json:"time_scale"`     // wall seconds per model second
	QueueLimit int     `json:"queue_limit"`    // tasks that may wait beyond the c in service
	Queued     int     `json:"queued"`         // waiting now
	Busy       int     `json:"busy"`           // servers busy now
	Received   int     `json:"received"`       // tasks admitted or rejected
	Completed  int     `json:"completed"`      // answered with timings
	Rejected   int     `json:"rejected"`       // answered 503
	Abandoned  int     `json:"abandoned"`      // client gone before the answer
	Lost       int     `json:"lost,omitempty"` // present when the tier went down (Capacity)
	// Episodes says the tier follows each run's episodes (ServerConfig.Runs),
	// Priority that its queue is by priority (ServerConfig.Priority).
	Episodes bool `json:"episodes,omitempty"`
	Priority bool `json:"priority,omitempty"`
	// RejectionRate is Rejected/Received (0 before any task): a mean latency
	// over completed tasks alone is biased low when this is not small.
	RejectionRate float64 `json:"rejection_rate"`
}

// ErrorBody is every non-2xx answer's body.
type ErrorBody struct {
	Reason string `json:"reason"` // a stable token: queue_full, bad_id, too_large, not_found, method_not_allowed, ...
	Error  string `json:"error"`  // a sentence for humans
}

// requestError is a rejected request: its status and body.
type requestError struct {
	status int
	body   ErrorBody
}

func (e *requestError) Error() string { return e.body.Error }

func badRequest(reason, format string, args ...any) *requestError {
	return &requestError{http.StatusBadRequest, ErrorBody{reason, fmt.Sprintf(format, args...)}}
}

// decodeTask reads and checks one task. Every way a body can be wrong is a
// 4xx with a reason, and none of them costs more than reading MaxBodyBytes.
func decodeTask(w http.ResponseWriter, r *http.Request) (TaskRequest, *requestError) {
	var t TaskRequest
	// id through a pointer, so that a missing one is told from id 0: the
	// answer echoes it, and a client matching answers by id needs one.
	var raw struct {
		ID       *uint64   `json:"id"`
		Size     *float64  `json:"size"`
		Delays   []float64 `json:"delays"`
		Rep      *int      `json:"rep"`
		Seed     *uint64   `json:"seed"`
		At       *float64  `json:"at"`
		Priority int       `json:"priority"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	err := dec.Decode(&raw)
	t.Size, t.Delays, t.At, t.Priority = raw.Size, raw.Delays, raw.At, raw.Priority
	if raw.Rep != nil {
		t.Rep = *raw.Rep
	}
	if raw.Seed != nil {
		t.Seed = *raw.Seed
	}
	if raw.ID != nil {
		t.ID = *raw.ID
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return t, &requestError{http.StatusRequestEntityTooLarge, ErrorBody{"too_large", fmt.Sprintf("body over %d bytes", MaxBodyBytes)}}
		}
		return t, badRequest("bad_json", "malformed task: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return t, badRequest("bad_json", "malformed task: data after the JSON object")
	}
	switch {
	case raw.ID == nil:
		return t, badRequest("bad_id", "id missing: send {\"id\": 1, \"size\": 2.5}")
	case t.Size == nil:
		return t, badRequest("bad_size", "size missing: send {\"id\": 1, \"size\": 2.5}")
	case math.IsNaN(*t.Size) || math.IsInf(*t.Size, 0) || !(*t.Size > 0):
		return t, badRequest("bad_size", "size %v: must be finite and > 0", *t.Size)
	case (raw.Rep != nil || raw.Seed != nil) && t.At == nil:
		return t, badRequest("bad_run", "seed or rep without at: a run needs the task's model instant")
	case t.At != nil && !(*t.At >= 0 && *t.At <= maxAt):
		return t, badRequest("bad_run", "at %v: must be in [0, %g] model seconds", *t.At, float64(maxAt))
	case t.Rep < 0:
		return t, badRequest("bad_run", "rep %d: must be ≥ 0", t.Rep)
	case len(t.Delays) > MaxDelays:
		return t, badRequest("bad_delays", "%d delays: at most %d", len(t.Delays), MaxDelays)
	}
	for i, d := range t.Delays {
		if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
			return t, badRequest("bad_delays", "delay %d: %v: must be finite and ≥ 0", i, d)
		}
	}
	return t, nil
}

// writeJSON answers with v as JSON. A failed write means the client left,
// which the handler can do nothing about.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, e *requestError) { writeJSON(w, e.status, e.body) }
