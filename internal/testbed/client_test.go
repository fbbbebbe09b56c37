package testbed

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
)

// every returns a workload of arrivals every dt model seconds, sizes 1 and a
// constant delay to each tier.
func every(dt float64, delays ...float64) Workload {
	return Workload{
		Next:   func(t float64) float64 { return t + dt },
		Size:   func() float64 { return 1 },
		Delays: func(dst []float64) { copy(dst, delays) },
	}
}

// sleeper answers every task after its service time at an infinite-server
// tier: the view under test is the client's, not the tier's.
func sleeper(service time.Duration) Transport {
	return TransportFunc(func(ctx context.Context, _ int, _ Task) Reply {
		select {
		case <-time.After(service):
			return Reply{Outcome: Completed, Service: service}
		case <-ctx.Done():
			return Reply{Outcome: Failed, Err: ctx.Err()}
		}
	})
}

var oneTier = []dispatch.Tier{{Name: "edge", Kind: dispatch.Edge, Servers: 2, Speed: 1, Mu: 1}}

// The view is the client's own accounting: n = sent and unanswered, q =
// max(0, n − c), b = min(n, c), InTransit inside the delay. Arrivals every
// 10 ms, delay 15 ms, answers 27 ms after sending: task k is decided at 10k,
// sent at 10k+15 and answered at 10k+42 (ms).
func TestClientViewAccounting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []dispatch.State
		var nows []float64
		pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
			seen = append(seen, v.States[0])
			nows = append(nows, v.Now)
			return dispatch.Decision{}
		})
		res, err := Run(t.Context(), Config{Tiers: oneTier, Policy: pol, Workload: every(0.010, 0.015),
			Transport: sleeper(27 * time.Millisecond), TimeScale: 1, Duration: 65 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		want := []dispatch.State{{}, {InTransit: 1}, {Busy: 1, InTransit: 1}, {Busy: 2, InTransit: 1},
			{Busy: 2, Queued: 1, InTransit: 1}, {Busy: 2, Queued: 1, InTransit: 1}}
		if len(seen) != len(want) {
			t.Fatalf("%d decisions, want %d", len(seen), len(want))
		}
		for k := range want {
			if seen[k] != want[k] {
				t.Errorf("decision %d (t = %.0f ms): view %+v, want %+v", k+1, 1000*nows[k], seen[k], want[k])
			}
		}
		if res.Sent != 6 || res.Completed != 6 || res.Lag.Max != 0 {
			t.Errorf("result %+v: want 6 sent and completed, no lag under a fake clock", res)
		}
		lat := res.Metrics(results.RunColumns(results.Layout{Tiers: tierNames(res)}))
		if math.Abs(lat.Get(results.ColMeanLatency)-0.042) > 1e-9 || math.Abs(lat.Values[results.Index(lat.Cols, "share_"+tierNames(res)[0])]-1) > 0 {
			t.Errorf("mean latency %v s, want 0.042 (15 ms delay + 27 ms service)", lat.Get(results.ColMeanLatency))
		}
	})
}

// Every request is accounted for: completed, rejected, failed (an error or
// the client's timeout), and sent = completed + rejected + failed.
func TestClientAccounting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := TransportFunc(func(ctx context.Context, _ int, task Task) Reply {
			switch task.ID % 4 {
			case 0:
				return Reply{Outcome: Completed}
			case 1:
				return Reply{Outcome: Rejected, Err: errors.New("503: queue full")}
			case 2:
				return Reply{Outcome: Failed, Err: errors.New("status 500")}
			}
			<-ctx.Done() // never answers: the client's timeout ends it
			return Reply{Outcome: Failed, Err: ctx.Err()}
		})
		res, err := Run(t.Context(), Config{Tiers: oneTier, Policy: dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }),
			Workload: every(0.001, 0), Transport: tr, TimeScale: 1, Duration: 100 * time.Millisecond, MaxTasks: 40, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if res.Dispatched != 40 || res.Sent != 40 || res.Completed != 10 || res.Rejected != 10 || res.Failed != 20 {
			t.Fatalf("counts %+v: want 40 sent = 10 completed + 10 rejected + 20 failed", res)
		}
		if res.RejectionRate() != 0.25 || res.FirstError == nil {
			t.Errorf("rejection rate %v, first error %v", res.RejectionRate(), res.FirstError)
		}
	})
}

// Interrupted, the client stops dispatching, ends its requests and still
// accounts for every task.
func TestClientInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(107*time.Millisecond, cancel)
		res, err := Run(ctx, Config{Tiers: oneTier, Policy: dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }),
			Workload: every(0.010, 0.015), Transport: sleeper(time.Hour), TimeScale: 1, Duration: time.Hour})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want canceled", err)
		}
		if res.Dispatched != 10 || res.Sent+res.Unsent != res.Dispatched || res.Sent != res.Completed+res.Rejected+res.Failed || res.Unsent != 1 {
			t.Errorf("counts %+v: want 10 dispatched, 9 sent (failed), 1 unsent", res)
		}
	})
}

// The time-scale maps model seconds to wall seconds both ways: at 0.5 a run
// takes half the wall time and latencies come back in model seconds.
func TestClientTimeScale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		res, err := Run(t.Context(), Config{Tiers: oneTier, Policy: dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }),
			Workload: every(0.1, 0.2), Transport: sleeper(50 * time.Millisecond), TimeScale: 0.5, Duration: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		m := res.Metrics(results.RunColumns(results.Layout{Tiers: tierNames(res)}))
		// 1 s wall = 2 model s of arrivals every 0.1: 19 tasks; delay 0.2 model
		// s (0.1 wall) plus 50 ms wall (0.1 model) of service: 0.3 model s.
		if res.Tasks != 19 || math.Abs(m.Get(results.ColMeanLatency)-0.3) > 1e-9 || res.Span != 2 {
			t.Errorf("tasks %d, mean %v, span %v: want 19, 0.3, 2", res.Tasks, m.Get(results.ColMeanLatency), res.Span)
		}
		if el := time.Since(start); el != 1100*time.Millisecond {
			t.Errorf("run took %v of wall time, want 1.1 s (last arrival 0.95 s + 0.1 s delay + 0.05 s)", el)
		}
	})
}

// Warmup tasks are sent and counted but not measured.
func TestClientWarmup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		res, err := Run(t.Context(), Config{Tiers: oneTier, Policy: dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }),
			Workload: every(0.125, 0), Transport: sleeper(0), TimeScale: 1, Warmup: 500 * time.Millisecond, Duration: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != 7 || res.Tasks != 4 || res.Measured != 4 {
			t.Errorf("sent %d, measured %d/%d: want 7 sent, 4 measured (arrivals 0.5 … 0.875)", res.Sent, res.Tasks, res.Measured)
		}
	})
}

// Estimator policies are told of each dispatch, and a policy naming a tier
// that does not exist ends the run with an error.
func TestClientObserverAndBadTier(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol, err := policies.New("hybrid", twoTiers, policies.DefaultParams(), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(t.Context(), Config{Tiers: twoTiers, Policy: pol, Workload: every(0.01, 0, 0.005),
			Transport: sleeper(time.Millisecond), TimeScale: 1, Duration: time.Second})
		if err != nil || res.Completed != 99 || math.IsNaN(res.Metrics(results.RunColumns(results.Layout{Tiers: tierNames(res)})).Get(results.ColMAPE)) {
			t.Fatalf("hybrid: %v, %+v", err, res)
		}
		bad := dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: 7} })
		if _, err := Run(t.Context(), Config{Tiers: twoTiers, Policy: bad, Workload: every(0.01, 0, 0),
			Transport: sleeper(0), TimeScale: 1, Duration: time.Second}); err == nil {
			t.Error("a policy choosing tier 7 of 2: no error")
		}
	})
}

var twoTiers = []dispatch.Tier{
	{Name: "edge", Kind: dispatch.Edge, Servers: 1, Speed: 100, Mu: 100, MeanDelay: 0, Cs2: 0},
	{Name: "cloud", Kind: dispatch.Cloud, Servers: 4, Speed: 100, Mu: 100, MeanDelay: 0.005, Cs2: 0},
}

func TestConfigChecked(t *testing.T) {
	if _, err := Run(context.Background(), Config{}); err == nil {
		t.Error("empty config: no error")
	}
}

// counter is a transport that answers at once: the client's own cost.
type counter struct{ n atomic.Int64 }

func (c *counter) Send(context.Context, int, Task) Reply {
	c.n.Add(1)
	return Reply{Outcome: Completed}
}
