package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/testbed"
	"go.uber.org/goleak"
)

func TestServeTierFlags(t *testing.T) {
	var got *serveTierOptions
	c := newServeTierCmd(IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, func(o *serveTierOptions) error { got = o; return nil })
	c.SetArgs([]string{"--name", "edge", "--servers", "4", "--speed", "25", "--queue-limit", "50", "--listen", "127.0.0.1:0", "--time-scale", "0.5"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.name != "edge" || got.servers != 4 || got.speed != 25 || got.queueLimit != 50 || got.listen != "127.0.0.1:0" || got.timeScale != 0.5 {
		t.Errorf("options %+v", got)
	}
}

func TestServeTierBadInputExit2(t *testing.T) {
	for _, args := range [][]string{
		{"serve-tier"}, // no name
		{"serve-tier", "--name", "Edge!"},
		{"serve-tier", "--name", "edge", "--servers", "0"},
		{"serve-tier", "--name", "edge", "--speed", "-1"},
		{"serve-tier", "--name", "edge", "--time-scale", "0"},
		{"serve-tier", "--name", "edge", "--queue-limit", "0"},
		{"serve-tier", "--name", "edge", "--listen", "not-an-address"},
		{"serve-tier", "--name", "edge", "extra"},
	} {
		if code, _, stderr := run(t, context.Background(), args...); code != ExitUsage || stderr == "" {
			t.Errorf("%q: exit %d (%s), want 2 with a message", args, code, stderr)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a command writing while a test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// On SIGINT or SIGTERM (the command's context cancelled) serve-tier stops
// accepting, answers every request it accepted, and exits cleanly.
func TestServeTierGracefulShutdown(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	out := &syncBuffer{}
	addrs := make(chan string, 1)
	o := &serveTierOptions{io: IO{Out: out, Err: out}, name: "edge", servers: 1, speed: 10, queueLimit: 100,
		listen: "127.0.0.1:0", timeScale: 0.3, grace: 10 * time.Second, ready: func(a string) { addrs <- a }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runServeTier(ctx, o) }()
	url := "http://" + <-addrs
	tr := testbed.NewHTTPTransport([]string{url})
	defer tr.CloseIdleConnections()
	const n = 4 // one in service, three queued: 30 ms each
	replies := make([]testbed.Reply, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { replies[i] = tr.Send(context.Background(), 0, testbed.Task{ID: i, Size: 1}) })
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if st := getState(t, url); st.Received == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("requests never reached the server")
		}
	}
	cancel() // what cmd.Main does on SIGINT or SIGTERM
	if err := <-done; err != nil {
		t.Fatalf("serve-tier: %v", err)
	}
	wg.Wait()
	for i, r := range replies {
		if r.Outcome != testbed.Completed {
			t.Errorf("request %d accepted before shutdown: %+v, want answered", i, r)
		}
	}
	if !strings.Contains(out.String(), "serving http://127.0.0.1:") || !strings.Contains(out.String(), "shut down; 4 completed, 0 rejected") {
		t.Errorf("output:\n%s", out)
	}
}

func getState(t *testing.T, url string) testbed.State {
	t.Helper()
	resp, err := http.Get(url + "/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st testbed.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestParseTierURLs(t *testing.T) {
	tiers := []string{"edge", "cloud"}
	got, err := parseTierURLs([]string{"edge=http://10.0.0.2:8080/", "cloud=https://c.example"}, tiers)
	if err != nil || got["edge"] != "http://10.0.0.2:8080" || got["cloud"] != "https://c.example" {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range [][]string{{"edge"}, {"edge=10.0.0.2:8080"}, {"fog=http://x"}, {"edge=http://a", "edge=http://b"}, {"=http://x"}} {
		if _, err := parseTierURLs(bad, tiers); exitCode(err) != ExitUsage {
			t.Errorf("%q: err %v, want bad input", bad, err)
		}
	}
}
