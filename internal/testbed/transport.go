package testbed

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Outcome is how a request ended.
type Outcome uint8

// The outcomes that the accounting sent = completed + rejected + failed
// counts: Down and Lost are among the rejected, since the scenario says
// they happen.
const (
	Completed Outcome = iota // the tier ran the task and answered with timings
	Rejected                 // the tier answered 503: its queue was full
	Failed                   // anything else: timeout, connection error, other status
	Down                     // the tier answered 503: it was down when the task reached it
	Lost                     // the tier answered 503: it failed with the task present
)

// Task is what the client sends to a tier.
type Task struct {
	ID   int
	Size float64 // work units
	// Delays, sent to a real balancer, is the task's delay to every tier
	// (model s), which the tier that gets it applies; nil: none sent.
	Delays []float64
	// Stamped sends the task's run (TaskRequest.At, Seed and Rep): At,
	// model s, the instant it reaches its tier (its arrival behind a
	// balancer), Seed the scenario's, Rep the replicate.
	Stamped bool
	At      float64
	Seed    uint64
	Rep     int
	// Priority is the task's class priority (TaskRequest.Priority); 0 is
	// not sent.
	Priority int
}

// Reply is a tier's answer to one task.
type Reply struct {
	Outcome Outcome
	// Wait and Service are the tier's own wall-clock timings (Completed only).
	Wait, Service time.Duration
	// Tier is the position of the tier that answered in its pool, as its
	// answer says (Completed only); the client behind a real balancer
	// learns from it where the task went.
	Tier int
	Err  error // why, when not Completed
}

// Transport carries tasks to tiers. Send blocks until the answer (or ctx's
// end) and is called from many goroutines at once.
type Transport interface {
	Send(ctx context.Context, tier int, t Task) Reply
}

// TransportFunc adapts a function to Transport, for tests.
type TransportFunc func(ctx context.Context, tier int, t Task) Reply

// Send calls f.
func (f TransportFunc) Send(ctx context.Context, tier int, t Task) Reply { return f(ctx, tier, t) }

// HTTPTransport posts tasks to tier servers: URLs[i] is tier i's base URL
// (http://host:port, without /tasks).
type HTTPTransport struct {
	Client *http.Client
	URLs   []string
	// probe carries the health checks, apart from Client's pool: a check
	// must not wait behind a full pool, or a busy tier would look dead.
	probe *http.Client
}

// NewHTTPTransport returns a transport whose connection pool holds as many
// idle connections per tier as a busy run keeps in flight (up to 1024), so
// that requests reuse connections instead of exhausting ephemeral ports. It
// does not bound the connections it opens: for a client that bounds its
// requests in flight, use NewLimitedHTTPTransport. Call CloseIdleConnections
// when done with it.
func NewHTTPTransport(urls []string) *HTTPTransport { return newHTTPTransport(urls, 0) }

// NewLimitedHTTPTransport is NewHTTPTransport for a client with at most
// maxConns requests in flight (Config.MaxInFlight): no tier gets more than
// maxConns connections, active or idle, and the pool keeps at most maxConns
// idle ones in all, so that the descriptors it holds stay within what
// InFlightLimit budgeted. A request finding every connection to its tier in
// use waits for one rather than opening a socket. maxConns ≤ 0 is
// NewHTTPTransport.
func NewLimitedHTTPTransport(urls []string, maxConns int) *HTTPTransport {
	return newHTTPTransport(urls, max(0, maxConns))
}

func newHTTPTransport(urls []string, maxConns int) *HTTPTransport {
	tr := &http.Transport{
		MaxIdleConns:        0, // no global cap; the per-host cap rules
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	if maxConns > 0 {
		tr.MaxConnsPerHost, tr.MaxIdleConnsPerHost, tr.MaxIdleConns = maxConns, maxConns, maxConns
	}
	base := make([]string, len(urls))
	for i, u := range urls {
		base[i] = strings.TrimSuffix(u, "/")
	}
	probe := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 2, MaxIdleConnsPerHost: 1,
		IdleConnTimeout: 30 * time.Second, DisableCompression: true}}
	return &HTTPTransport{Client: &http.Client{Transport: tr}, URLs: base, probe: probe}
}

// CloseIdleConnections closes the pool's idle connections (and with them
// their goroutines).
func (h *HTTPTransport) CloseIdleConnections() {
	h.Client.CloseIdleConnections()
	if h.probe != nil {
		h.probe.CloseIdleConnections()
	}
}

// Check is a health check of tier i for Health.Check: GET /state must answer
// 200 with a tier's state. It uses its own small connection pool (the
// default client if h was not made by a constructor), so that it never
// waits behind the tasks.
func (h *HTTPTransport) Check(ctx context.Context, tier int) error {
	c := h.probe
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URLs[tier]+"/state", nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &statusError{code: resp.StatusCode}
	}
	var st State
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&st); err != nil {
		return badAnswer{fmt.Errorf("GET /state: %w", err)}
	}
	return nil
}

// Send implements Transport.
func (h *HTTPTransport) Send(ctx context.Context, tier int, t Task) Reply {
	// The body by hand: it is two numbers, and encoding/json would be most of
	// the client's cost per request.
	body := strconv.AppendInt([]byte(`{"id":`), int64(t.ID), 10)
	body = strconv.AppendFloat(append(body, `,"size":`...), t.Size, 'g', -1, 64)
	if t.Delays != nil {
		body = append(body, `,"delays":[`...)
		for i, d := range t.Delays {
			if i > 0 {
				body = append(body, ',')
			}
			body = strconv.AppendFloat(body, d, 'g', -1, 64)
		}
		body = append(body, ']')
	}
	if t.Stamped {
		body = strconv.AppendFloat(append(body, `,"at":`...), t.At, 'g', -1, 64)
		body = strconv.AppendUint(append(body, `,"seed":`...), t.Seed, 10)
		body = strconv.AppendInt(append(body, `,"rep":`...), int64(t.Rep), 10)
	}
	if t.Priority != 0 {
		body = strconv.AppendInt(append(body, `,"priority":`...), int64(t.Priority), 10)
	}
	body = append(body, '}')
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URLs[tier]+"/tasks", bytes.NewReader(body))
	if err != nil {
		return Reply{Outcome: Failed, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.Client.Do(req)
	if err != nil {
		return Reply{Outcome: Failed, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return Reply{Outcome: Failed, Err: fmt.Errorf("reading answer: %w", err)} // cut off: a reset or EOF
	}
	switch resp.StatusCode {
	case http.StatusOK:
		var tr TaskResult
		if err := json.Unmarshal(data, &tr); err != nil {
			return Reply{Outcome: Failed, Err: badAnswer{fmt.Errorf("bad answer: %w", err)}}
		}
		return Reply{Outcome: Completed, Wait: seconds(tr.WaitS), Service: seconds(tr.ServiceS), Tier: tr.Index}
	case http.StatusServiceUnavailable:
		// Only the tier's own answers are rejections (a full queue, a
		// down tier, a lost task); any other 503 (a proxy's, a server
		// shutting down) means the tier is not serving, which is a
		// failure.
		var eb ErrorBody
		if json.Unmarshal(data, &eb) == nil {
			if o, ok := scheduled(eb.Reason); ok {
				return Reply{Outcome: o, Err: fmt.Errorf("503: %s", bytes.TrimSpace(data))}
			}
		}
	}
	return Reply{Outcome: Failed, Err: &statusError{code: resp.StatusCode, body: string(bytes.TrimSpace(data))}}
}

// scheduled is the outcome of a tier's own 503, which its scenario makes
// happen, by its reason.
func scheduled(reason string) (Outcome, bool) {
	switch reason {
	case AnswerQueueFull:
		return Rejected, true
	case AnswerTierDown:
		return Down, true
	case AnswerTaskLost:
		return Lost, true
	}
	return 0, false
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
