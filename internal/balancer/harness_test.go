package balancer

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// binary finds a balancer's executable for a test: it skips the test,
// saying so, where the program is missing, and fails it instead under
// OFFLOAD_LONG=1 (CI installs both).
func binary(t *testing.T, prog Program) string {
	t.Helper()
	path, err := exec.LookPath(string(prog))
	if err == nil {
		return path
	}
	// Debian installs both in /usr/sbin, which a user's PATH may lack.
	if path, err2 := exec.LookPath(filepath.Join("/usr/sbin", string(prog))); err2 == nil {
		return path
	}
	if os.Getenv("OFFLOAD_LONG") != "" {
		t.Fatalf("%s not found (%v): OFFLOAD_LONG=1 runs the real balancers; install it (apt-get install -y haproxy nginx)", prog, err)
	}
	t.Skipf("%s not found (%v): install it to test its configurations (apt-get install -y haproxy nginx)", prog, err)
	return ""
}

// freeAddr returns a loopback address with a port no one listened on a
// moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// pool is n tiny tier servers behind a balancer. Each records which
// backend a request reached, in order, and the connections it accepted; a
// backend told to hold keeps the next request it gets until released (and
// answers the others at once, so that a test never waits on them).
type pool struct {
	t       *testing.T
	servers []*http.Server
	addrs   []string
	arrived chan int // the backend of each request, as it arrives

	mu    sync.Mutex
	seq   []int           // backends in arrival order
	conns []int           // connections accepted, per backend
	held  []chan struct{} // non-nil: the backend's held request waits for it to close
	next  []bool          // the backend holds the next request it gets
}

func newPool(t *testing.T, n int) *pool {
	p := &pool{t: t, arrived: make(chan int, 1<<16), conns: make([]int, n), held: make([]chan struct{}, n), next: make([]bool, n)}
	for i := range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: p.handler(i), ReadHeaderTimeout: 5 * time.Second,
			ConnState: func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					p.mu.Lock()
					p.conns[i]++
					p.mu.Unlock()
				}
			}}
		p.servers = append(p.servers, srv)
		p.addrs = append(p.addrs, l.Addr().String())
		go func() { _ = srv.Serve(l) }()
	}
	t.Cleanup(func() {
		p.releaseAll()
		for _, s := range p.servers {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = s.Shutdown(ctx)
			cancel()
			_ = s.Close()
		}
	})
	return p
}

// handler answers POST /tasks as a tier would, {"id":…}, after the hold.
// GET /reject answers the tier's queue-full 503.
func (p *pool) handler(i int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/reject" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"reason":"queue_full","error":"tier t%d: queue full"}`, i)
			return
		}
		p.mu.Lock()
		p.seq = append(p.seq, i)
		var hold chan struct{}
		if p.next[i] {
			hold, p.next[i] = p.held[i], false
		}
		p.mu.Unlock()
		p.arrived <- i
		if hold != nil {
			select {
			case <-hold:
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprintf(w, `{"tier":"t%d"}`, i)
	})
}

// hold makes backend i keep the next request it gets until release.
func (p *pool) hold(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held[i], p.next[i] = make(chan struct{}), true
}

// release lets backend i's held request answer.
func (p *pool) release(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next[i] = false
	if p.held[i] != nil {
		close(p.held[i])
		p.held[i] = nil
	}
}

func (p *pool) releaseAll() {
	for i := range p.held {
		p.release(i)
	}
}

// reset forgets the arrivals recorded so far.
func (p *pool) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq = nil
	for {
		select {
		case <-p.arrived:
		default:
			return
		}
	}
}

// sequence returns the backends in arrival order since the last reset.
func (p *pool) sequence() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.seq...)
}

// backends lists the pool with the weights given (1 where none).
func (p *pool) backends(weights ...int) []Backend {
	b := make([]Backend, len(p.addrs))
	for i, a := range p.addrs {
		b[i] = Backend{Addr: a, Weight: 1}
		if i < len(weights) {
			b[i].Weight = weights[i]
		}
	}
	return b
}

// client is one HTTP/1.1 client with keep-alive, as the testbed's.
type client struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newClient(t *testing.T, base string) *client {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &client{t: t, base: base, c: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// post sends one task and returns the status and body.
func (c *client) post(path string) (int, string, error) {
	resp, err := c.c.Post(c.base+path, "application/json", strings.NewReader(`{"id":1,"size":1}`))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// send posts n tasks one after the other, each after the last answered,
// and fails the test on any answer but 200.
func (c *client) send(n int) {
	c.t.Helper()
	for k := range n {
		code, body, err := c.post("/tasks")
		if err != nil || code != http.StatusOK {
			c.t.Fatalf("request %d: %d %q %v", k, code, body, err)
		}
	}
}

// sendAsync posts one task in the background; the channel gets its
// outcome.
func (c *client) sendAsync() <-chan error {
	ch := make(chan error, 1)
	go func() {
		code, body, err := c.post("/tasks")
		if err == nil && code != http.StatusOK {
			err = fmt.Errorf("%d %q", code, body)
		}
		ch <- err
	}()
	return ch
}

// run starts the balancer of label in front of p, in a folder of the
// test's, and stops it when the test ends.
func run(t *testing.T, label string, backends []Backend) *Process {
	t.Helper()
	a, err := Lookup(label)
	if err != nil {
		t.Fatal(err)
	}
	bin := binary(t, a.Program)
	c := Config{Algorithm: label, Listen: freeAddr(t), Backends: backends, Dir: t.TempDir(), MaxConn: 256}
	p, err := Start(context.Background(), c, Options{Binary: bin})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return p
}

// waitArrival returns the backend the next request reached.
func (p *pool) waitArrival() int {
	p.t.Helper()
	select {
	case i := <-p.arrived:
		return i
	case <-time.After(30 * time.Second):
		p.t.Fatal("no request arrived within 30 s")
	}
	return -1
}
