package testbed

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Defaults of Health.
const (
	// DefaultHealthEvery is the period of a tier's health check: often
	// enough that a tier that died (or came back) is noticed within a
	// fraction of a run, rarely enough that the checks cost nothing.
	DefaultHealthEvery = 500 * time.Millisecond
	// DefaultHealthTimeout bounds one check: GET /state answers at once
	// unless the tier is gone or hung, so a check taking this long is a
	// failure, not a slow answer.
	DefaultHealthTimeout = 250 * time.Millisecond
)

// DownQueued is the queue length the policy's view shows for a tier that is
// down (with every server busy), so that no policy reading the view picks
// it. A dead tier answers at once with an error, and the dispatcher's own
// count of its requests in flight drops to zero: without this rule it would
// look like the emptiest tier of all, and JSQ would send it most of the
// tasks. It is large but far from overflowing the estimators' arithmetic.
const DownQueued = 1 << 30

// Health is the client's check of tiers it does not run itself. The rule:
//
//   - A checked tier is down from the moment a check fails (Check returns an
//     error; a check that only times out must do so twice in a row, since
//     on a loaded machine one slow answer is not death) or a request to it
//     fails for a reason that means the tier is gone or broken — connection
//     refused or reset, a timeout, a 5xx answer other than the queue-full
//     503.
//   - It is up again when a check succeeds.
//   - While it is down, the policy's view shows it saturated (Queued =
//     DownQueued, every server Busy; for a clairvoyant policy, a completion
//     time of +Inf), and a task the policy still sends there fails at once,
//     without a request, with the reason "tier down".
//
// The first check of every tier runs before the first arrival, so that a
// tier dead from the start gets no task.
type Health struct {
	// Tiers lists the tiers to check (indices into Config.Tiers). A tier not
	// listed is never marked down: cmd serves those in its own process.
	Tiers []int
	// Every is the period of the checks; ≤ 0: DefaultHealthEvery.
	Every time.Duration
	// Timeout bounds one check; ≤ 0: DefaultHealthTimeout.
	Timeout time.Duration
	// Check probes tier i (HTTPTransport.Check: GET /state); nil error means
	// healthy.
	Check func(ctx context.Context, tier int) error
}

// TierHealth is what the health checks saw of one tier during a run.
type TierHealth struct {
	Checked      bool    // the tier was in Health.Tiers
	Checks       int     // checks made
	FailedChecks int     // checks that failed
	Downs        int     // times the tier was marked down
	DownAt       float64 // model s since the start when first marked down; NaN: never
	Down         bool    // down when the run ended
	// WhileDown counts the tasks decided while the tier was down, and
	// ChosenWhileDown those the policy sent to it anyway (each of them
	// failed with "tier down").
	WhileDown, ChosenWhileDown int
	// Why is the reason it was first marked down.
	Why string
}

func newHealth(n int) []TierHealth {
	hs := make([]TierHealth, n)
	for i := range hs {
		hs[i].DownAt = math.NaN()
	}
	return hs
}

// The reasons of failure that Result.Failures counts.
const (
	ReasonConcurrency = "concurrency limit"   // refused by the client: Config.MaxInFlight requests already in flight
	ReasonTierDown    = "tier down"           // refused by the client: the health checks mark the tier down
	ReasonTimeout     = "timeout"             // Config.Timeout passed, or the network timed out
	ReasonRefused     = "connection refused"  // nothing listens: the tier is gone
	ReasonReset       = "connection reset"    // the tier closed the connection before answering
	ReasonTooManyFDs  = "too many open files" // the process ran out of descriptors (EMFILE, ENFILE)
	ReasonStatus      = "server error"        // a 5xx other than the queue-full 503
	ReasonBadAnswer   = "bad answer"          // a 4xx, or a 200 whose body is not a task result
	ReasonInterrupted = "interrupted"         // the run was cancelled
	ReasonOther       = "other"
)

var (
	errConcurrency = errors.New("not sent: " + ReasonConcurrency)
	errTierDown    = errors.New("not sent: " + ReasonTierDown)
)

// statusError is a non-2xx answer that is not the queue-full 503.
type statusError struct {
	code int
	body string
}

func (e *statusError) Error() string {
	if e.body == "" {
		return "status " + strconv.Itoa(e.code)
	}
	return "status " + strconv.Itoa(e.code) + ": " + e.body
}

// badAnswer marks an answer that arrived but makes no sense.
type badAnswer struct{ err error }

func (e badAnswer) Error() string { return e.err.Error() }
func (e badAnswer) Unwrap() error { return e.err }

// reasonOf classifies a failed request's error into one of the Reason
// constants.
func reasonOf(err error) string {
	var se *statusError
	var ba badAnswer
	var ne net.Error
	switch {
	case err == nil:
		return ReasonOther
	case errors.Is(err, errConcurrency):
		return ReasonConcurrency
	case errors.Is(err, errTierDown):
		return ReasonTierDown
	case errors.Is(err, context.Canceled):
		return ReasonInterrupted
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return ReasonTimeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return ReasonRefused
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return ReasonTooManyFDs
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return ReasonReset
	case errors.As(err, &se):
		if se.code >= 500 {
			return ReasonStatus
		}
		return ReasonBadAnswer
	case errors.As(err, &ba):
		return ReasonBadAnswer
	}
	return ReasonOther
}

// marksDown reports whether a request failing for this reason means its
// tier is gone or broken (rather than the client's own refusal, a bad
// request, or the run ending).
func marksDown(reason string) bool {
	switch reason {
	case ReasonTimeout, ReasonRefused, ReasonReset, ReasonStatus:
		return true
	}
	return false
}

// startHealth runs the first check of every checked tier, sets the run's
// start (the first arrival's clock origin comes after those checks), and
// keeps checking each tier in its own goroutine until stop is called.
func (c *client) startHealth() (stop func()) {
	h := c.cfg.Health
	if h == nil || len(h.Tiers) == 0 {
		c.start = time.Now()
		return func() {}
	}
	every, timeout := h.Every, h.Timeout
	if every <= 0 {
		every = DefaultHealthEvery
	}
	if timeout <= 0 {
		timeout = DefaultHealthTimeout
	}
	for _, i := range h.Tiers {
		c.checked[i] = true
		c.res.Health[i].Checked = true
	}
	ctx, cancel := context.WithCancel(c.ctx)
	var first, all sync.WaitGroup
	c.start = time.Now() // DownAt of a tier dead from the start is 0
	for _, i := range h.Tiers {
		first.Add(1)
		all.Go(func() {
			c.check(ctx, i, timeout)
			first.Done()
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				c.check(ctx, i, timeout)
			}
		})
	}
	first.Wait()
	c.mu.Lock() // the checkers read start when they mark a tier down
	c.start = time.Now()
	for i := range c.res.Health {
		if c.down[i] {
			c.res.Health[i].DownAt = 0 // down before the first arrival
		}
	}
	c.mu.Unlock()
	return func() { cancel(); all.Wait() }
}

// check runs one health check of tier i and applies the rule.
func (c *client) check(ctx context.Context, i int, timeout time.Duration) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	err := c.cfg.Health.Check(cctx, i)
	cancel()
	if ctx.Err() != nil { // the run is over: the check did not judge the tier
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	th := &c.res.Health[i]
	th.Checks++
	if err == nil {
		c.down[i], c.slow[i] = false, 0
		return
	}
	th.FailedChecks++
	if reasonOf(err) == ReasonTimeout {
		if c.slow[i]++; c.slow[i] < 2 {
			return
		}
	}
	c.markDown(i, "health check: "+err.Error())
}

// markDown marks tier i down (c.mu held).
func (c *client) markDown(i int, why string) {
	if c.down[i] {
		return
	}
	c.down[i] = true
	th := &c.res.Health[i]
	th.Downs++
	if th.Downs == 1 {
		th.DownAt = time.Since(c.start).Seconds() / c.cfg.TimeScale
		th.Why = why
	}
}
