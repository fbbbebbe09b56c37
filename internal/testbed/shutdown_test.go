package testbed

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// serveLoopback serves s on 127.0.0.1 and returns its base URL.
func serveLoopback(t *testing.T, s *Server) (*http.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(s)
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String()
}

// Shutdown stops accepting, and every request already accepted — in service
// or queued — still gets its answer.
func TestGracefulShutdownAnswersEveryAcceptedRequest(t *testing.T) {
	s := newTestServer(t, ServerConfig{Servers: 2, Speed: 1, TimeScale: 0.02}) // size 1: 20 ms
	srv, url := serveLoopback(t, s)
	tr := NewHTTPTransport([]string{url})
	defer tr.CloseIdleConnections()
	const n = 6
	replies := make([]Reply, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { replies[i] = tr.Send(context.Background(), 0, Task{ID: i, Size: 1}) })
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.State().Received < n {
		if time.Now().After(deadline) {
			t.Fatalf("requests not admitted: %+v", s.State())
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	wg.Wait()
	for i, r := range replies {
		if r.Outcome != Completed {
			t.Errorf("request %d in flight at shutdown: %+v, want an answer", i, r)
		}
	}
	if st := s.State(); st.Completed != n {
		t.Errorf("state %+v: want %d completed", st, n)
	}
	// The exact error is the OS's (connection refused); it must be a failure.
	if r := tr.Send(context.Background(), 0, Task{ID: 99, Size: 1}); r.Outcome != Failed || r.Err == nil {
		t.Errorf("a request after shutdown: %+v, want a failure", r)
	}
}
