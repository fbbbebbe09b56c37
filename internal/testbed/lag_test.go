package testbed

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
	"github.com/offload-sim/offload/internal/policies"
)

func threeTiers() []dispatch.Tier { return dispatchtest.ThreeTiers(16) }

// The open loop keeps its schedule at 2,000 requests per second on the real
// clock. The lag (how late each dispatch is against its Poisson arrival
// time) is logged with timers alone and with the last millisecond spun
// (Config.Spin, emulate's default). Unloaded, the mean is a few µs with
// spinning and about 0.5 ms without; the bound asserted (2 ms) is loose
// because `go test ./...` runs other packages' tests on the same cores, and
// catches a loop that drifts rather than one that is merely jittery. Run
// with OFFLOAD_WALLCLOCK=1 -cpu 2 -v to see the figures docs/emulation.md quotes.
func TestOpenLoopLagAt2000PerSecond(t *testing.T) {
	wallClock(t)
	if testing.Short() || raceOn {
		t.Skip("real-time: 4 s of wall clock, meaningless under -race")
	}
	for _, spin := range []time.Duration{0, time.Millisecond} {
		res := runAt2000(t, spin)
		t.Logf("2000 req/s for 2 s, spin %v: %d requests, lag mean %v, p99 %v, max %v", spin, res.Sent, res.Lag.Mean, res.Lag.P99, res.Lag.Max)
		if res.Sent < 3600 || res.Sent != res.Completed {
			t.Errorf("spin %v: %d sent, %d completed: want about 4000 of each", spin, res.Sent, res.Completed)
		}
		if spin > 0 && res.Lag.Mean > 2*time.Millisecond {
			t.Errorf("spin %v: the client fell behind its schedule: lag mean %v", spin, res.Lag.Mean)
		}
	}
}

func runAt2000(t *testing.T, spin time.Duration) *Result {
	tiers := threeTiers()
	pol, err := policies.New("hybrid", tiers, policies.DefaultParams(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	arr, sizes := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(7, 8))
	// Requests complete after their service (1–2 ms), so that a few are in
	// flight, as in a real run.
	tr := TransportFunc(func(ctx context.Context, _ int, task Task) Reply {
		return Reply{Outcome: Completed, Err: Sleep(ctx, time.Duration(task.Size*float64(time.Millisecond)))}
	})
	res, err := Run(context.Background(), Config{Tiers: tiers, Policy: pol, Transport: tr,
		Workload: Workload{
			Next:   func(t float64) float64 { return t + arr.ExpFloat64()/2000 },
			Size:   func() float64 { return 1 + sizes.Float64() },
			Delays: func(dst []float64) { dst[0], dst[1], dst[2] = 0, 0.001, 0.002 },
		},
		TimeScale: 1, Duration: 2 * time.Second, Spin: spin})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
