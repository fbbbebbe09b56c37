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
// counts.
const (
	Completed Outcome = iota // the tier ran the task and answered with timings
	Rejected                 // the tier answered 503: its queue was full
	Failed                   // anything else: timeout, connection error, other status
)

// Task is what the client sends to a tier.
type Task struct {
	ID   int
	Size float64 // work units
}

// Reply is a tier's answer to one task.
type Reply struct {
	Outcome Outcome
	// Wait and Service are the tier's own wall-clock timings (Completed only).
	Wait, Service time.Duration
	Err           error // why, when not Completed
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
}

// NewHTTPTransport returns a transport whose connection pool holds as many
// idle connections per tier as a busy run keeps in flight, so that requests
// reuse connections instead of exhausting ephemeral ports. Call
// CloseIdleConnections when done with it.
func NewHTTPTransport(urls []string) *HTTPTransport {
	tr := &http.Transport{
		MaxIdleConns:        0, // no global cap; the per-host cap rules
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	base := make([]string, len(urls))
	for i, u := range urls {
		base[i] = strings.TrimSuffix(u, "/")
	}
	return &HTTPTransport{Client: &http.Client{Transport: tr}, URLs: base}
}

// CloseIdleConnections closes the pool's idle connections (and with them
// their goroutines).
func (h *HTTPTransport) CloseIdleConnections() { h.Client.CloseIdleConnections() }

// Send implements Transport.
func (h *HTTPTransport) Send(ctx context.Context, tier int, t Task) Reply {
	// The body by hand: it is two numbers, and encoding/json would be most of
	// the client's cost per request.
	body := strconv.AppendInt([]byte(`{"id":`), int64(t.ID), 10)
	body = strconv.AppendFloat(append(body, `,"size":`...), t.Size, 'g', -1, 64)
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
		return Reply{Outcome: Failed, Err: fmt.Errorf("reading answer: %w", err)}
	}
	switch resp.StatusCode {
	case http.StatusOK:
		var tr TaskResult
		if err := json.Unmarshal(data, &tr); err != nil {
			return Reply{Outcome: Failed, Err: fmt.Errorf("bad answer: %w", err)}
		}
		return Reply{Outcome: Completed, Wait: seconds(tr.WaitS), Service: seconds(tr.ServiceS)}
	case http.StatusServiceUnavailable:
		return Reply{Outcome: Rejected, Err: fmt.Errorf("503: %s", bytes.TrimSpace(data))}
	}
	return Reply{Outcome: Failed, Err: fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(data))}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
