package testbed

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
)

// A short run against real tier servers on loopback: every request is
// accounted for, and the latency is what the model says plus a little (the
// servers' timers and HTTP), never less. The upper bound on latency depends
// on the machine's load, so it is checked only with OFFLOAD_WALLCLOCK=1.
func TestLoopbackRun(t *testing.T) {
	tiers := twoTiers
	urls := make([]string, len(tiers))
	for i, tier := range tiers {
		s := newTestServer(t, ServerConfig{Name: tier.Name, Servers: tier.Servers, Speed: tier.Speed, TimeScale: 1})
		ts := httptest.NewServer(s)
		defer ts.Close()
		urls[i] = ts.URL
	}
	tr := NewHTTPTransport(urls)
	defer tr.CloseIdleConnections()
	pol, err := policies.New("jsq-s", tiers, policies.DefaultParams(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Tiers: tiers, Policy: pol, Transport: tr,
		Workload:  every(0.004, 0, 0.005), // 250/s of 10 ms tasks on 5 servers: ρ = 0.5
		TimeScale: 1, Warmup: 50 * time.Millisecond, Duration: 300 * time.Millisecond,
		Timeout: 5 * time.Second, Large: 2, Spin: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != res.Completed+res.Rejected+res.Failed || res.Completed != res.Sent || res.Sent < 80 {
		t.Fatalf("accounting %+v: want every request completed", res)
	}
	m := res.Metrics(results.RunColumns(results.Layout{Tiers: tierNames(res)}))
	// A task's model latency is at least its 10 ms of service; loopback adds
	// well under 20 ms even on a loaded machine.
	if !(m.Get(results.ColMeanLatency) >= 0.010) || !(m.Get(results.ColMeanWait) >= 0) {
		t.Errorf("mean latency %v s, wait %v s: want ≥ 0.010 (the service alone)", m.Get(results.ColMeanLatency), m.Get(results.ColMeanWait))
	}
	if os.Getenv("OFFLOAD_WALLCLOCK") == "1" && !(m.Get(results.ColMeanLatency) < 0.040) {
		t.Errorf("mean latency %v s, wait %v s: want in [0.010, 0.040)", m.Get(results.ColMeanLatency), m.Get(results.ColMeanWait))
	}
}
