package testbed

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Only the tier's own queue-full 503 is a rejection; another 503 (a proxy's,
// a server going away) is a failure that marks a checked tier down.
func TestHTTPTransportOutcomes(t *testing.T) {
	answers := map[string]func(w http.ResponseWriter){
		"/full/tasks": func(w http.ResponseWriter) {
			writeJSON(w, http.StatusServiceUnavailable, ErrorBody{Reason: "queue_full", Error: "full"})
		},
		"/proxy/tasks": func(w http.ResponseWriter) { http.Error(w, "no backend", http.StatusServiceUnavailable) },
		"/oops/tasks":  func(w http.ResponseWriter) { http.Error(w, "oops", 500) },
		"/bad/tasks":   func(w http.ResponseWriter) { http.Error(w, "bad", 400) },
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { answers[r.URL.Path](w) }))
	defer ts.Close()
	tr := NewLimitedHTTPTransport([]string{ts.URL + "/full", ts.URL + "/proxy", ts.URL + "/oops", ts.URL + "/bad"}, 4)
	defer tr.CloseIdleConnections()
	for i, want := range []struct {
		out    Outcome
		reason string
	}{{Rejected, ""}, {Failed, ReasonStatus}, {Failed, ReasonStatus}, {Failed, ReasonBadAnswer}} {
		rep := tr.Send(context.Background(), i, Task{ID: 1, Size: 1})
		if rep.Outcome != want.out || (want.out == Failed && reasonOf(rep.Err) != want.reason) {
			t.Errorf("%s: %+v (reason %q), want outcome %d, reason %q", tr.URLs[i], rep, reasonOf(rep.Err), want.out, want.reason)
		}
	}
	if h := tr.Client.Transport.(*http.Transport); h.MaxConnsPerHost != 4 || h.MaxIdleConnsPerHost != 4 || h.MaxIdleConns != 4 {
		t.Errorf("pool limits %d, %d, %d: want 4", h.MaxConnsPerHost, h.MaxIdleConnsPerHost, h.MaxIdleConns)
	}
}

// Check asks GET /state of a tier: healthy while it serves, refused once it
// is gone.
func TestHTTPTransportCheck(t *testing.T) {
	s := newTestServer(t, ServerConfig{Name: "edge", Servers: 1, Speed: 1, TimeScale: 1})
	ts := httptest.NewServer(s)
	tr := NewLimitedHTTPTransport([]string{ts.URL, ts.URL + "/nowhere"}, 2)
	defer tr.CloseIdleConnections()
	if err := tr.Check(context.Background(), 0); err != nil {
		t.Errorf("a serving tier: %v", err)
	}
	if err := tr.Check(context.Background(), 1); reasonOf(err) != ReasonBadAnswer {
		t.Errorf("a 404: %v (%s), want a bad answer", err, reasonOf(err))
	}
	ts.Close()
	tr.CloseIdleConnections()
	if err := tr.Check(context.Background(), 0); reasonOf(err) != ReasonRefused {
		t.Errorf("a closed tier: %v (%s), want connection refused", err, reasonOf(err))
	}
}
