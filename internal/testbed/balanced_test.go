package testbed

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/results"
)

// Behind a balancer (here a round-robin reverse proxy of the test's own)
// the client sends each task with its delays, the tier that gets it waits
// its own, and the task is counted at the tier its answer names: every
// request accounted for, the shares the proxy's, each task's latency at
// least its tier's delay plus its service.
func TestBalancedRun(t *testing.T) {
	tiers := twoTiers
	var targets []*url.URL
	for i, tier := range tiers {
		s := newTestServer(t, ServerConfig{Name: tier.Name, Index: i, Servers: 8, Speed: tier.Speed, TimeScale: 1})
		ts := httptest.NewServer(s)
		defer ts.Close()
		u, _ := url.Parse(ts.URL)
		targets = append(targets, u)
	}
	var mu sync.Mutex
	next := 0
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		mu.Lock()
		u := targets[next]
		next = (next + 1) % len(targets)
		mu.Unlock()
		r.SetURL(u)
	}}
	lb := httptest.NewServer(proxy)
	defer lb.Close()
	tr := NewHTTPTransport([]string{lb.URL})
	defer tr.CloseIdleConnections()
	// Delays of 0 and 20 ms: tasks that reach the second tier take at least
	// 30 ms (the delay and 10 ms of service), the first tier's 10 ms.
	res, err := Run(context.Background(), Config{Tiers: tiers, Balanced: true, Transport: tr,
		Workload:  every(0.01, 0, 0.020),
		TimeScale: 1, Duration: 200 * time.Millisecond, Timeout: 5 * time.Second, Large: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != res.Completed || res.Sent < 10 {
		t.Fatalf("accounting %+v: want every request completed", res)
	}
	if d := res.TierCount[0] - res.TierCount[1]; d < -1 || d > 1 || res.TierCount[0]+res.TierCount[1] != res.Measured {
		t.Errorf("tier counts %v of %d measured: want alternate", res.TierCount, res.Measured)
	}
	m := res.Metrics(results.RunColumns(results.Layout{Tiers: tierNames(res)}))
	if want := 0.5*0.010 + 0.5*0.030; !(m.Get(results.ColMeanLatency) >= want*0.95) {
		t.Errorf("mean latency %v s: want ≥ %v (delay and service)", m.Get(results.ColMeanLatency), want)
	}
	if res.TierDone[1] == 0 || !(res.TierSumLatency[1]/float64(res.TierDone[1]) >= 0.030) {
		t.Errorf("tier 1's mean latency %v over %d: want ≥ 0.030", res.TierSumLatency[1]/float64(res.TierDone[1]), res.TierDone[1])
	}
}

// A task's delays are checked: each finite and ≥ 0, the server's index
// within them.
func TestServerDelays(t *testing.T) {
	s := newTestServer(t, ServerConfig{Name: "a", Index: 1, Servers: 1, Speed: 1000, TimeScale: 1})
	for _, c := range []struct {
		body string
		code int
	}{
		{`{"id":1,"size":1,"delays":[0,0.001]}`, 200},
		{`{"id":1,"size":1,"delays":[0]}`, 400},
		{`{"id":1,"size":1,"delays":[0,-1]}`, 400},
		{`{"id":1,"size":1,"delays":[0,"x"]}`, 400},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/tasks", strings.NewReader(c.body))
		s.ServeHTTP(rec, req.WithContext(context.Background()))
		if rec.Code != c.code {
			t.Errorf("%s: %d %s, want %d", c.body, rec.Code, rec.Body, c.code)
		}
	}
}
