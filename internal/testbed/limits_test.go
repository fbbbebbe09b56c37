package testbed

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/policies"
)

// wallClock skips a test that depends on real wall-clock timing unless
// OFFLOAD_WALLCLOCK=1: on a shared machine such tests measure the machine's
// load as much as the code.
func wallClock(t *testing.T) {
	t.Helper()
	if os.Getenv("OFFLOAD_WALLCLOCK") != "1" {
		t.Skip("wall-clock test: set OFFLOAD_WALLCLOCK=1 to run it")
	}
}

func TestInFlightLimit(t *testing.T) {
	for _, c := range []struct {
		soft uint64
		want int
	}{
		{0, MinInFlightLimit},
		{64, MinInFlightLimit},
		{fdHeadroom + 4*MinInFlightLimit, MinInFlightLimit},
		{fdHeadroom + 4*MinInFlightLimit + 4, MinInFlightLimit + 1},
		{256, 32},
		{1024, 224}, // the usual default soft limit
		{4096, 992},
		{65536, 16352},
		{1 << 20, MaxInFlightLimit},
		{math.MaxUint64, MaxInFlightLimit}, // RLIM_INFINITY
	} {
		if got := InFlightLimit(c.soft); got != c.want {
			t.Errorf("InFlightLimit(%d) = %d, want %d", c.soft, got, c.want)
		}
	}
}

// The real limit can be read, and raising it never lowers it.
func TestRaiseFDLimit(t *testing.T) {
	l := RaiseFDLimit()
	if l.Err != nil {
		t.Logf("descriptor limit: %v", l.Err)
	}
	if l.Soft < l.Before || (l.Err == nil && (l.Soft == 0 || l.Soft > l.Hard)) {
		t.Errorf("limits %+v", l)
	}
}

// With Config.MaxInFlight requests in flight, a task whose delay ends is not sent:
// it fails with ReasonConcurrency, the transport never sees more than the
// limit, and sent = completed + rejected + failed. Arrivals every 10 ms,
// answers after 95 ms, limit 3: in each 100 ms, three are sent and seven
// refused.
func TestClientConcurrencyLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var now, peak atomic.Int64
		tr := TransportFunc(func(ctx context.Context, _ int, _ Task) Reply {
			n := now.Add(1)
			defer now.Add(-1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			if err := Sleep(ctx, 95*time.Millisecond); err != nil {
				return Reply{Outcome: Failed, Err: err}
			}
			return Reply{Outcome: Completed}
		})
		res, err := Run(t.Context(), Config{Tiers: oneTier, Policy: first, Workload: every(0.010, 0),
			Transport: tr, TimeScale: 1, Duration: time.Hour, MaxTasks: 30, MaxInFlight: 3})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != 30 || res.Completed != 9 || res.Failed != 21 || res.Failures[ReasonConcurrency] != 21 {
			t.Errorf("counts %+v: want 30 sent = 9 completed + 21 failed (concurrency limit)", res)
		}
		if res.Sent != res.Completed+res.Rejected+res.Failed {
			t.Errorf("sent %d ≠ %d + %d + %d", res.Sent, res.Completed, res.Rejected, res.Failed)
		}
		if peak.Load() != 3 || res.PeakInFlight != 3 || res.MaxInFlight != 3 {
			t.Errorf("peak in flight: transport %d, result %d (limit %d): want 3", peak.Load(), res.PeakInFlight, res.MaxInFlight)
		}
		if got := res.MainFailures(1); len(got) != 1 || got[0] != (ReasonCount{ReasonConcurrency, 21}) {
			t.Errorf("main failures %v", got)
		}
		if math.Abs(res.FailureShare()-0.7) > 1e-12 {
			t.Errorf("failure share %v, want 0.7", res.FailureShare())
		}
	})
}

var first = dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} })

// dying is a two-tier system whose tier 1 dies at kill and comes back at
// revive (wall clock since its creation): in between, a new request is
// refused, one in service is cut off, and the health check fails.
type dying struct {
	start        time.Time
	kill, revive time.Duration
}

func (d *dying) dead() bool {
	e := time.Since(d.start)
	return e >= d.kill && e < d.revive
}

func (d *dying) Send(ctx context.Context, tier int, task Task) Reply {
	if tier == 1 && d.dead() {
		return Reply{Outcome: Failed, Err: &wrapErr{"dial tcp 127.0.0.1:1", syscall.ECONNREFUSED}}
	}
	if err := Sleep(ctx, time.Duration(task.Size*10*float64(time.Millisecond))); err != nil {
		return Reply{Outcome: Failed, Err: err}
	}
	if tier == 1 && d.dead() {
		return Reply{Outcome: Failed, Err: &wrapErr{"read tcp", syscall.ECONNRESET}}
	}
	return Reply{Outcome: Completed}
}

func (d *dying) Check(context.Context, int) error {
	if d.dead() {
		return &wrapErr{"GET /state", syscall.ECONNREFUSED}
	}
	return nil
}

type wrapErr struct {
	op  string
	err error
}

func (e *wrapErr) Error() string { return e.op + ": " + e.err.Error() }
func (e *wrapErr) Unwrap() error { return e.err }

var edgeCloud = []dispatch.Tier{
	{Name: "edge", Kind: dispatch.Edge, Servers: 2, Speed: 100, Mu: 100},
	{Name: "cloud", Kind: dispatch.Cloud, Servers: 4, Speed: 100, Mu: 100, MeanDelay: 0.005},
}

// A checked tier that dies mid-run: its instant failures would make it the
// emptiest tier in the dispatcher's count, and without health checks JSQ
// sends it most of the tasks. With them it is marked down at its first
// failure, shown saturated, and JSQ sends it nothing until a check finds it
// back. Tier 1 is dead from 0.502 s to 1.402 s of a 2 s run at 200 tasks/s
// (off the 5 ms grid of arrivals and the 500 ms one of checks, so that no
// two events tie); the check at 1.5 s finds it back.
func TestClientTierDiesMidRun(t *testing.T) {
	type decision struct {
		at   float64
		tier int
	}
	run := func(t *testing.T, health bool) (*Result, []decision) {
		tr := &dying{start: time.Now(), kill: 502 * time.Millisecond, revive: 1402 * time.Millisecond}
		jsq, err := policies.New("jsq", edgeCloud, policies.DefaultParams(), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		var ds []decision
		pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
			d := jsq.Decide(v)
			ds = append(ds, decision{v.Now, d.Tier})
			return d
		})
		cfg := Config{Tiers: edgeCloud, Policy: pol, Transport: tr, Workload: every(0.005, 0, 0.005),
			TimeScale: 1, Duration: 2 * time.Second, Timeout: time.Second}
		if health {
			cfg.Health = &Health{Tiers: []int{1}, Check: tr.Check}
		}
		res, err := Run(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != res.Completed+res.Rejected+res.Failed {
			t.Fatalf("accounting %+v", res)
		}
		return res, ds
	}
	// share is the fraction of the decisions in [from, to) sent to tier 1.
	share := func(ds []decision, from, to float64) float64 {
		var n, one int
		for _, d := range ds {
			if d.at >= from && d.at < to {
				n++
				if d.tier == 1 {
					one++
				}
			}
		}
		return float64(one) / float64(n)
	}
	t.Run("unchecked", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			res, ds := run(t, false)
			if s := share(ds, 0.6, 1.4); s < 0.5 {
				t.Errorf("without health checks, share to the dead tier %v: the bug this test guards against is gone?", s)
			}
			if res.Health[1].Checked || res.Health[1].Downs != 0 {
				t.Errorf("health %+v", res.Health[1])
			}
		})
	})
	t.Run("checked", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			res, ds := run(t, true)
			h := res.Health[1]
			t.Logf("health %+v, failures %v", h, res.Failures)
			if !(h.DownAt >= 0.502 && h.DownAt < 0.52) || h.Downs != 1 || h.Down || h.ChosenWhileDown != 0 || h.WhileDown < 150 {
				t.Errorf("health %+v: want down once from about 0.5 s to the check at 1.5 s, never chosen while down", h)
			}
			if s := share(ds, 0.52, 1.5); s != 0 {
				t.Errorf("share to the dead tier after detection %v, want 0", s)
			}
			if s := share(ds, 1.6, 2); s < 0.2 {
				t.Errorf("share to the tier once back %v: it should be used again", s)
			}
			// Failures: the tier's refusals and cut-off requests, and the tasks
			// decided before it was marked down that reached it after (5 ms of
			// delay): a handful, against about 200 without the checks.
			if f := res.Failures; res.Failed == 0 || res.Failed > 10 || f[ReasonRefused]+f[ReasonReset]+f[ReasonTierDown] != res.Failed {
				t.Errorf("failures %v (%d): want a few refusals, resets and tier-down refusals only", f, res.Failed)
			}
			if res.Health[0].Checked || res.Health[0].Downs != 0 {
				t.Errorf("edge health %+v: not checked, never down", res.Health[0])
			}
		})
	})
}

// A tier dead before the first arrival gets no task at all, and a policy
// that ignores the view (always tier 1) has each task fail as "tier down"
// without a request.
func TestClientTierDeadFromStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := &dying{start: time.Now(), kill: 0, revive: time.Hour}
		var sent atomic.Int64
		count := TransportFunc(func(ctx context.Context, tier int, task Task) Reply {
			sent.Add(1)
			return tr.Send(ctx, tier, task)
		})
		always1 := dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: 1} })
		res, err := Run(t.Context(), Config{Tiers: edgeCloud, Policy: always1, Transport: count, Workload: every(0.01, 0, 0),
			TimeScale: 1, Duration: time.Second, Health: &Health{Tiers: []int{1}, Check: tr.Check}})
		if err != nil {
			t.Fatal(err)
		}
		if h := res.Health[1]; h.DownAt != 0 || !h.Down || h.ChosenWhileDown != res.Dispatched || h.FailedChecks < 2 {
			t.Errorf("health %+v", h)
		}
		if sent.Load() != 0 || res.Failed != res.Sent || res.Failures[ReasonTierDown] != res.Sent || res.FailureShare() != 1 {
			t.Errorf("%d requests reached the transport; result %+v", sent.Load(), res)
		}
	})
}

// The reasons a failure is classified under, and which mark a tier down.
func TestReasonOf(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
		down bool
	}{
		{errConcurrency, ReasonConcurrency, false},
		{errTierDown, ReasonTierDown, false},
		{context.Canceled, ReasonInterrupted, false},
		{context.DeadlineExceeded, ReasonTimeout, true},
		{&wrapErr{"dial", syscall.ECONNREFUSED}, ReasonRefused, true},
		{&wrapErr{"read", syscall.ECONNRESET}, ReasonReset, true},
		{&wrapErr{"dial", syscall.EMFILE}, ReasonTooManyFDs, false},
		{&statusError{code: 500}, ReasonStatus, true},
		{&statusError{code: 503, body: "shutting down"}, ReasonStatus, true},
		{&statusError{code: 400}, ReasonBadAnswer, false},
		{badAnswer{errors.New("x")}, ReasonBadAnswer, false},
		{errors.New("x"), ReasonOther, false},
	} {
		got := reasonOf(c.err)
		if got != c.want || marksDown(got) != c.down {
			t.Errorf("reasonOf(%v) = %q (marks down %v), want %q (%v)", c.err, got, marksDown(got), c.want, c.down)
		}
	}
}

// One health check that times out is a slow answer, not a dead tier; two in
// a row mark it down. Checks at 0, 0.5, 1, 1.5, 2 s: the second times out
// alone, the fourth and fifth in a row (the fifth ends at 2 s + 250 ms).
func TestHealthCheckTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int64
		check := func(ctx context.Context, _ int) error {
			if k := n.Add(1); k == 2 || k >= 4 {
				<-ctx.Done()
				return ctx.Err()
			}
			return nil
		}
		res, err := Run(t.Context(), Config{Tiers: edgeCloud, Policy: first, Transport: sleeper(0), Workload: every(0.01, 0, 0),
			TimeScale: 1, Duration: 2400 * time.Millisecond, Health: &Health{Tiers: []int{1}, Check: check}})
		if err != nil {
			t.Fatal(err)
		}
		h := res.Health[1]
		if h.FailedChecks != 3 || h.Downs != 1 || !h.Down || h.DownAt != 2.25 || !strings.HasPrefix(h.Why, "health check: ") {
			t.Errorf("health %+v: want down once, at the second timeout in a row (2 s + 250 ms)", h)
		}
	})
}
