//go:build unix

package extpolicy_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
	"github.com/offload-sim/offload/internal/extpolicy"
)

// bounded runs f and fails the test if it has not returned within limit: a
// call that never returns is the failure these tests look for, and must
// not stall the whole test binary. limit is generous; nothing is timed.
func bounded(t *testing.T, limit time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s did not return within %v", what, limit)
	}
}

// escapee kills, when the test ends, the child the helper started outside
// its process group (its pid in the file), which nothing else would end.
func escapee(t *testing.T) string {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "child")
	t.Cleanup(func() {
		for range 500 { // the helper writes the file as it starts the child
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				if pid, err := strconv.Atoi(string(b)); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	return pidFile
}

// A program whose child left its process group (setsid) holding its stdin
// and stdout cannot hold a run: the timeout, an interruption, a full input
// pipe each end the wait, although killing the group brings no end of file
// and no broken pipe; Close returns too, and never waits on the child.
func TestEscapedChildCannotHang(t *testing.T) {
	for _, c := range []struct {
		name, mode string
		cancel     bool
		want       string
	}{
		{"stall", "escape", false, "no answer within the timeout of 300ms"},
		// The helper exits 3; the message names that exit when it came
		// before the timeout's kill, which a busy machine may reverse.
		{"exit", "escexit", false, "no answer within the timeout of 300ms"},
		{"interrupt", "escape", true, "interrupted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			timeout := 300 * time.Millisecond
			if c.cancel {
				timeout = time.Hour
			}
			p := start(t, ctx, helperCommand(c.mode, escapee(t)), timeout, extpolicy.Env{})
			if c.cancel {
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			bounded(t, time.Minute, "Decide", func() {
				if d := p.Decide(view(0)); d.Tier != -1 {
					t.Errorf("decision %+v, want tier -1", d)
				}
			})
			err := p.Err()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
			if c.cancel && !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want context.Canceled", err)
			}
			bounded(t, time.Minute, "Close", func() { p.Close() })
		})
	}
}

// A program that stops reading its input, with an escaped child holding
// it, cannot block a write for good: done messages past the pipe's
// capacity fail at the timeout.
func TestEscapedChildCannotBlockWrites(t *testing.T) {
	p := start(t, context.Background(), helperCommand("escdeaf", escapee(t)), 300*time.Millisecond, extpolicy.Env{})
	if !p.Feedback() {
		t.Fatal("the helper asked for done messages")
	}
	bounded(t, time.Minute, "Done", func() {
		for i := 0; i < 1<<14 && p.Err() == nil; i++ { // far more than a pipe holds
			p.Done(&dispatch.Completion{Task: i, Tier: 1, Now: 1, Latency: 0.1, Delay: 0.01, Wait: 0.02, Service: 0.07})
		}
	})
	if err := p.Err(); err == nil || !strings.Contains(err.Error(), "did not read its input within the timeout of 300ms") {
		t.Errorf("error %v, want the program not reading its input", err)
	}
	bounded(t, time.Minute, "Close", func() { p.Close() })
}

// A program that ends well (status 0 after end) while a child in its
// group still holds its stderr has run correctly: the child is killed
// with the group, and Close reports no failure.
func TestExitZeroWithChildHoldingStderr(t *testing.T) {
	var log strings.Builder
	p := start(t, context.Background(), helperCommand("holderr"), 10*time.Second, extpolicy.Env{Stderr: &log})
	if d := p.Decide(view(0)); d.Tier != 0 {
		t.Fatalf("decision %+v: %v", d, p.Err())
	}
	var err error
	bounded(t, time.Minute, "Close", func() { err = p.Close() })
	if err != nil {
		t.Errorf("Close: %v, want no failure", err)
	}
}

// The answer to start may take longer than the timeout (a program's
// start-up is not an answer's work): it has Handshake. The helper sleeps
// 500 ms before it reads start, five times the timeout.
func TestStartUpIsNotTimed(t *testing.T) {
	p, err := extpolicy.New(extpolicy.Config{Command: helperCommand("slowstart"), Timeout: 100 * time.Millisecond, Tiers: dispatchtest.ThreeTiers(16)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close() // its verdict (an exit within 100 ms of end) would time the machine
	if err := p.Start(context.Background(), extpolicy.Env{}); err != nil {
		t.Fatalf("Start: %v, want the start-up not counted against the 100ms timeout", err)
	}
}

// shPolicy is a minimal program in sh: tier 0 for every task.
var shPolicy = []string{"/bin/sh", "-c", `while read -r l; do case "$l" in *'"type":"start"'*) echo '{"feedback": false}';; *'"type":"decide"'*) echo '{"tier": 0}';; *'"type":"end"'*) exit 0;; esac; done`}

// Many running programs hold no OS thread each: a run of a thousand
// devices starts a thousand programs, and a thread per program (8 MiB of
// address space each with cgo's stacks) broke a run under a memory cap.
// Threads are counted by the runtime's threadcreate profile, so nothing is
// timed.
func TestManyProgramsFewThreads(t *testing.T) {
	const n = 200
	before := pprof.Lookup("threadcreate").Count()
	ps := make([]*extpolicy.Policy, n)
	for i := range ps {
		ps[i] = start(t, context.Background(), shPolicy, 10*time.Minute, extpolicy.Env{})
		if d := ps[i].Decide(view(1)); d.Tier != 0 {
			t.Fatalf("program %d: decision %+v: %v", i, d, ps[i].Err())
		}
	}
	if grew := pprof.Lookup("threadcreate").Count() - before; grew > n/4 {
		t.Errorf("%d running programs made %d OS threads, want few (not one each)", n, grew)
	}
	for i, p := range ps {
		if err := p.Close(); err != nil {
			t.Errorf("program %d: %v", i, err)
		}
	}
}
