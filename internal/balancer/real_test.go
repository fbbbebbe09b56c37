package balancer

import (
	"context"
	"math"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
)

// The tests of this file start the real HAProxy and nginx (Debian's 2.6 and
// 1.22) in front of three tiny backends of the test's own, and check each
// algorithm's choices against its published definition or its source.

func long(t *testing.T) {
	t.Helper()
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: starts the real HAProxy and nginx; set OFFLOAD_LONG=1")
	}
}

// smoothWRR is nginx's smooth weighted round-robin
// (ngx_http_upstream_get_peer in ngx_http_upstream_round_robin.c): at each
// choice every server's current weight grows by its weight, the largest
// (the first of equals) is chosen, and the sum of the weights is taken
// from it. It returns the first n choices.
func smoothWRR(weights []int, n int) []int {
	cur := make([]int, len(weights))
	total := 0
	for _, w := range weights {
		total += w
	}
	out := make([]int, n)
	for k := range out {
		best := 0
		for i, w := range weights {
			cur[i] += w
			if cur[i] > cur[best] {
				best = i
			}
		}
		cur[best] -= total
		out[k] = best
	}
	return out
}

func TestSmoothWRR(t *testing.T) {
	// The sequence nginx's source comment gives for weights 5, 1, 1.
	if got, want := smoothWRR([]int{5, 1, 1}, 14), []int{0, 0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 2, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("smoothWRR(5,1,1) = %v, want %v", got, want)
	}
}

// Round-robin with equal weights is exactly cyclic on both programs; with
// weights 5, 1, 1, nginx follows its smooth weighted round-robin to the
// request, and HAProxy gives each server its weight in every cycle of 7.
func TestRealRoundRobin(t *testing.T) {
	long(t)
	for _, label := range []string{"haproxy:roundrobin", "nginx:round_robin"} {
		t.Run(strings.ReplaceAll(label, ":", "_"), func(t *testing.T) {
			p := newPool(t, 3)
			b := run(t, label, p.backends())
			newClient(t, b.URL()).send(30)
			seq := p.sequence()
			if len(seq) != 30 {
				t.Fatalf("%d arrivals, want 30", len(seq))
			}
			if seq[0] == seq[1] || seq[1] == seq[2] || seq[0] == seq[2] {
				t.Errorf("the first cycle repeats a server: %v", seq)
			}
			for k, i := range seq {
				if i != seq[k%3] {
					t.Fatalf("not cyclic at request %d: %v", k, seq)
				}
			}

			p = newPool(t, 3)
			weights := []int{5, 1, 1}
			b = run(t, label, p.backends(weights...))
			newClient(t, b.URL()).send(70)
			seq = p.sequence()
			if label == "nginx:round_robin" {
				if want := smoothWRR(weights, 70); !slices.Equal(seq, want) {
					t.Errorf("weights 5,1,1: %v\nwant smooth WRR %v", seq, want)
				}
				return
			}
			for k := 0; k < len(seq); k += 7 {
				n := make([]int, 3)
				for _, i := range seq[k : k+7] {
					n[i]++
				}
				if !slices.Equal(n, weights) || !slices.Equal(seq[k:k+7], seq[:7]) {
					t.Fatalf("weights 5,1,1: cycle %d has %v (%v), want the counts %v, each cycle alike", k/7, n, seq, weights)
				}
			}
			t.Logf("HAProxy's cycle for weights 5,1,1: %v (nginx's: %v)", seq[:7], smoothWRR(weights, 7))
		})
	}
}

// Least-connections sends to the backend with the fewest requests in
// flight: while backend 0 holds one, every request goes to 1 or 2, by turns
// (ties are broken by round-robin in both programs); once it answers,
// backend 0 is chosen again.
func TestRealLeastConn(t *testing.T) {
	long(t)
	for _, label := range []string{"haproxy:leastconn", "nginx:least_conn"} {
		t.Run(strings.ReplaceAll(label, ":", "_"), func(t *testing.T) {
			p := newPool(t, 3)
			b := run(t, label, p.backends())
			c := newClient(t, b.URL())
			p.hold(0)
			held, _ := holdOne(t, p, c, 0)
			c.send(60)
			n := counts(p.sequence(), 3)
			if n[0] != 0 || n[1]+n[2] != 60 || abs(n[1]-n[2]) > 1 {
				t.Errorf("with backend 0 busy: %v requests per backend, want 0 and 30, 30", n)
			}
			p.release(0)
			if err := <-held; err != nil {
				t.Fatalf("the held request: %v", err)
			}
			p.reset()
			c.send(30)
			if n := counts(p.sequence(), 3); n[0] == 0 {
				t.Errorf("backend 0 free again, but never chosen: %v", n)
			}
		})
	}
}

// holdOne sends requests, one at a time, until one reaches backend i,
// which holds it; the channel gets its outcome once released, and before
// is the number of requests sent before that one. It forgets the arrivals
// before, and those it caused.
func holdOne(t *testing.T, p *pool, c *client, i int) (held <-chan error, before int) {
	t.Helper()
	p.reset()
	defer p.reset()
	for k := range 100 {
		ch := c.sendAsync()
		if p.waitArrival() == i {
			return ch, k
		}
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("no request reached backend %d in 100", i)
	return nil, 0
}

// The power of two choices, idle and with one backend busy. nginx draws two
// different servers, each in proportion to its weight, and takes the one
// with fewer requests in flight, the second drawn on a tie
// (ngx_http_upstream_get_random2_peer). HAProxy draws twice, independently,
// from its consistent-hash ring, where a server's chance is the length of
// its arcs (haproxyRandomShares), and takes the one with fewer requests
// served, the second on a tie (get_server_rnd in backend.c). With every
// server idle the choice is a single draw's: uniform for nginx, the ring's
// shares for HAProxy (which with these three servers are 0.35, 0.30, 0.35,
// far from uniform at this count). With backend 0 busy, nginx never takes
// it, and HAProxy only when both draws fall on it, p₀².
//
// Each count is binomial; it must lie within 4.5 standard deviations of
// its expectation, which a correct balancer misses with a chance under
// 10⁻⁵ per count. HAProxy's draws come from a generator that starts from
// the same state at every start, so its choices are also replayed one by
// one (haproxyRandom2) and must be the same, request for request.
func TestRealRandom2(t *testing.T) {
	long(t)
	const idle, busy = 6000, 3000
	for _, label := range []string{"haproxy:random2", "nginx:random2"} {
		t.Run(strings.ReplaceAll(label, ":", "_"), func(t *testing.T) {
			haproxy := strings.HasPrefix(label, "haproxy")
			p := newPool(t, 3)
			b := run(t, label, p.backends())
			c := newClient(t, b.URL())
			share := []float64{1. / 3, 1. / 3, 1. / 3}
			if haproxy {
				share = haproxyRandomShares([]int{1, 1, 1})
			}
			c.send(idle)
			idleSeq := p.sequence()
			binomial(t, "all idle", counts(idleSeq, 3), share)

			p.hold(0)
			held, before := holdOne(t, p, c, 0)
			c.send(busy)
			busySeq := p.sequence()
			want := []float64{0, 0.5, 0.5}
			if haproxy {
				s := share
				want = []float64{s[0] * s[0], s[1]*s[1] + 2*s[0]*s[1] + s[2]*s[1], s[2]*s[2] + 2*s[0]*s[2] + s[1]*s[2]}
			}
			binomial(t, "backend 0 busy", counts(busySeq, 3), want)
			p.release(0)
			if err := <-held; err != nil {
				t.Fatal(err)
			}
			if !haproxy {
				return
			}
			// The replay: every request sees all servers idle up to and
			// including the one backend 0 holds, then backend 0 busy.
			h := idle + before
			replay := haproxyRandom2([]int{1, 1, 1}, func(k, srv int) int {
				if k > h && srv == 0 {
					return 1
				}
				return 0
			}, h+1+busy)
			if replay[h] != 0 || !slices.Equal(idleSeq, replay[:idle]) || !slices.Equal(busySeq, replay[h+1:]) {
				t.Errorf("HAProxy's choices differ from the replay of its draws")
			}
		})
	}
}

// binomial checks each count against its share of the total, within 4.5
// standard deviations; a share of 0 must have a count of 0.
func binomial(t *testing.T, what string, n []int, share []float64) {
	t.Helper()
	total := 0
	for _, k := range n {
		total += k
	}
	for i, k := range n {
		mean := float64(total) * share[i]
		sd := math.Sqrt(float64(total) * share[i] * (1 - share[i]))
		if math.Abs(float64(k)-mean) > 4.5*sd || (share[i] == 0 && k != 0) {
			t.Errorf("%s: backend %d got %d of %d, want %.1f ± %.1f (4.5 sd); all: %v, shares %.4f", what, i, k, total, mean, 4.5*sd, n, share)
		}
	}
	t.Logf("%s: %v of %d, expected shares %.4f", what, n, total, share)
}

func counts(seq []int, n int) []int {
	c := make([]int, n)
	for _, i := range seq {
		c[i]++
	}
	return c
}

func abs(x int) int { return max(x, -x) }

// What the testbed's client needs of the balancer: the tier's own 503
// (queue full) comes through unchanged, so that it counts as a rejection;
// and requests reuse the connections to the backends.
func TestRealPassThrough(t *testing.T) {
	long(t)
	for _, a := range Algorithms() {
		t.Run(strings.ReplaceAll(a.Label, ":", "_"), func(t *testing.T) {
			p := newPool(t, 3)
			b := run(t, a.Label, p.backends())
			c := newClient(t, b.URL())
			code, body, err := c.post("/reject")
			if err != nil || code != http.StatusServiceUnavailable || !strings.HasPrefix(body, `{"reason":"queue_full"`) {
				t.Errorf("the tier's 503 became %d %q %v", code, body, err)
			}
			c.send(300)
			p.mu.Lock()
			conns := slices.Clone(p.conns)
			p.mu.Unlock()
			t.Logf("connections per backend for 300 requests: %v", conns)
			for i, n := range conns {
				if n > 3 {
					t.Errorf("backend %d: %d connections for about 100 requests one at a time: not kept alive", i, n)
				}
			}
		})
	}
}

// A balancer that cannot start says why, in its own words: a port another
// program holds, and a configuration the program refuses.
func TestRealStartFailures(t *testing.T) {
	long(t)
	for _, prog := range []Program{HAProxy, Nginx} {
		t.Run(string(prog), func(t *testing.T) {
			label := map[Program]string{HAProxy: "haproxy:leastconn", Nginx: "nginx:least_conn"}[prog]
			bin := binary(t, prog)
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			c := Config{Algorithm: label, Listen: l.Addr().String(), Dir: t.TempDir(), Backends: []Backend{{freeAddr(t), 1}}}
			_, err = Start(context.Background(), c, Options{Binary: bin})
			wantAll(t, err, label+": "+bin+" exited before it answered: exit status 1", "Address already in use", c.Listen)

			// Another balancer of the same program on the port: HAProxy
			// would share it (SO_REUSEPORT) but for noreuseport, and the
			// kernel would split the requests between the two.
			l.Close()
			first, err := Start(context.Background(), c, Options{Binary: bin})
			if err != nil {
				t.Fatal(err)
			}
			second := c
			second.Dir = t.TempDir()
			if p, err2 := Start(context.Background(), second, Options{Binary: bin}); err2 == nil {
				_ = p.Stop()
			} else {
				err = err2
			}
			wantAll(t, err, label+": "+bin+" exited before it answered: exit status 1", "Address already in use", c.Listen)
			if err := first.Stop(); err != nil {
				t.Fatal(err)
			}

			c.Listen = freeAddr(t)
			name, text, err := Generate(c)
			if err != nil {
				t.Fatal(err)
			}
			spoilt := strings.Replace(string(text), "\n", "\nbogus_directive on;\n", 1)
			if prog == HAProxy {
				spoilt = strings.Replace(string(text), "\tnbthread 1\n", "\tnbthread 1\n\tbogus_keyword on\n", 1)
			}
			_, err = start(context.Background(), c.withDefaults(), name, []byte(spoilt), Options{Binary: bin})
			wantAll(t, err, label+": "+bin+" exited before it answered: exit status 1", "bogus_")
			if t.Failed() {
				return
			}
			t.Logf("%v", err)
		})
	}
}

// Stop ends the real program and, for nginx, its worker: nothing listens
// on the port afterwards.
func TestRealStop(t *testing.T) {
	long(t)
	for _, label := range []string{"haproxy:leastconn", "nginx:least_conn"} {
		t.Run(strings.ReplaceAll(label, ":", "_"), func(t *testing.T) {
			a, _ := Lookup(label)
			p := newPool(t, 1)
			c := Config{Algorithm: label, Listen: freeAddr(t), Dir: t.TempDir(), Backends: p.backends()}
			b, err := Start(context.Background(), c, Options{Binary: binary(t, a.Program)})
			if err != nil {
				t.Fatal(err)
			}
			newClient(t, b.URL()).send(3)
			if err := b.Stop(); err != nil {
				t.Fatal(err)
			}
			if conn, err := net.Dial("tcp", c.Listen); err == nil {
				conn.Close()
				t.Errorf("%s still accepts connections after Stop", c.Listen)
			}
		})
	}
}

// A dead backend stays in the rotation and its requests fail, at once and
// visibly: the balancer's choice is final (no retry on another server) and
// a failure takes no server out (nginx's default would, for 10 s), as a
// dispatcher of offload's that keeps sending to a tier that has gone.
func TestRealDeadBackend(t *testing.T) {
	long(t)
	for _, label := range []string{"haproxy:roundrobin", "nginx:round_robin"} {
		t.Run(strings.ReplaceAll(label, ":", "_"), func(t *testing.T) {
			p := newPool(t, 2)
			backends := append(p.backends(), Backend{Addr: freeAddr(t), Weight: 1}) // nothing listens there
			b := run(t, label, backends)
			c := newClient(t, b.URL())
			failed := 0
			for k := range 30 {
				code, body, err := c.post("/tasks")
				if err != nil {
					t.Fatalf("request %d: %v", k, err)
				}
				if code != http.StatusOK {
					if code != http.StatusBadGateway && code != http.StatusServiceUnavailable {
						t.Errorf("request %d: %d %q, want 502 or 503 from the balancer", k, code, body)
					}
					failed++
				}
			}
			if n := counts(p.sequence(), 2); failed != 10 || n[0] != 10 || n[1] != 10 {
				t.Errorf("%d of 30 failed, %v reached the live backends; want 10 and 10, 10", failed, n)
			}
		})
	}
}
