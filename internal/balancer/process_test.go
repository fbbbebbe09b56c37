package balancer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fake prepares a start of the fake balancer in mode: a configuration
// under a HAProxy label (whose log is haproxy.log), the environment the
// helper reads, and the file it writes its pid into.
func fake(t *testing.T, mode string) (Config, Options, string) {
	t.Helper()
	c := Config{Algorithm: "haproxy:leastconn", Listen: freeAddr(t), Dir: t.TempDir(),
		Backends: []Backend{{"127.0.0.1:1", 1}}}
	pids := filepath.Join(t.TempDir(), "pid")
	t.Setenv(helperEnv, mode)
	t.Setenv(helperListen, c.Listen)
	t.Setenv(helperToken, Token(c))
	t.Setenv(helperPids, pids)
	return c, Options{Binary: os.Args[0], StartTimeout: 20 * time.Second, Grace: 5 * time.Second}, pids
}

// gone waits until the process whose pid is in file has exited (or is a
// zombie that its new parent has not reaped); it fails the test after 10 s.
func gone(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		// On a busy machine the program may be stopped before it wrote its
		// pid: Start has waited for it, and it started nothing.
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(st)); len(f) > 2 && f[2] == "Z" {
				return
			}
		}
	}
	t.Fatalf("process %d still runs", pid)
}

func wantAll(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one saying %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

func TestStartStop(t *testing.T) {
	c, opt, pids := fake(t, "serve")
	p, err := Start(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if p.Label() != "haproxy:leastconn" || p.URL() != "http://"+c.Listen || p.Pid() <= 0 {
		t.Errorf("label %q, URL %q, pid %d", p.Label(), p.URL(), p.Pid())
	}
	resp, err := http.Get(p.URL() + ReadyPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()
	if string(body) != Token(c) {
		t.Errorf("ready answer %q, want %q", body, Token(c))
	}
	if cfg, err := os.ReadFile(filepath.Join(c.Dir, "haproxy.cfg")); err != nil || !strings.Contains(string(cfg), "balance leastconn") {
		t.Errorf("configuration in the folder: %v\n%s", err, cfg)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	default:
		t.Error("Done not closed after Stop")
	}
	if err := p.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	gone(t, pids)
}

// A program that exits at once: the error gives its status and quotes its
// log.
func TestStartFails(t *testing.T) {
	c, opt, pids := fake(t, "fail")
	_, err := Start(context.Background(), c, opt)
	wantAll(t, err, "haproxy:leastconn: "+os.Args[0]+" exited before it answered: exit status 1",
		filepath.Join(c.Dir, "haproxy.log")+", last lines:", "[ALERT] helper: cannot bind socket (Address already in use)")
	gone(t, pids)
}

// A program that never answers is stopped after the start timeout.
func TestStartTimeout(t *testing.T) {
	c, opt, pids := fake(t, "silent")
	opt.StartTimeout = 300 * time.Millisecond
	_, err := Start(context.Background(), c, opt)
	wantAll(t, err, "did not answer at http://"+c.Listen+ReadyPath+" within 300ms", "connection refused", "haproxy.log: empty")
	gone(t, pids)
}

// A start ends when its context does, and stops the program.
func TestStartInterrupted(t *testing.T) {
	c, opt, pids := fake(t, "silent")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := Start(ctx, c, opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	wantAll(t, err, "haproxy:leastconn: start interrupted")
	gone(t, pids)
}

// Another program answering on the port is not taken for the balancer.
func TestStartImpostor(t *testing.T) {
	c, opt, pids := fake(t, "silent")
	opt.StartTimeout = 500 * time.Millisecond
	l, err := net.Listen("tcp", c.Listen)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "someone else") })}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	_, err = Start(context.Background(), c, opt)
	wantAll(t, err, "did not answer", `answered 200 "someone else", not this balancer's token: does another program hold the port?`)
	gone(t, pids)
}

// A program that ignores SIGTERM is killed after the grace period, with
// what it started.
func TestStopKills(t *testing.T) {
	c, opt, pids := fake(t, "stubborn")
	opt.Grace = 300 * time.Millisecond
	p, err := Start(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, p.Stop(), "did not exit within 300ms of SIGTERM; killed", "helper: serving stubborn")
	gone(t, pids)
	gone(t, pids+".child")
}

// A balancer that dies during the run: Stop says so, with its log.
func TestStopAfterCrash(t *testing.T) {
	c, opt, pids := fake(t, "crash")
	p, err := Start(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	wantAll(t, p.Stop(), "exited while running: exit status 3", "helper: out of memory, giving up")
	gone(t, pids)
}

func TestStopBadExit(t *testing.T) {
	c, opt, _ := fake(t, "badexit")
	p, err := Start(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, p.Stop(), "exited with exit status 7 when stopped")
}

func TestStartRefuses(t *testing.T) {
	c, opt, _ := fake(t, "serve")
	opt.Binary = ""
	_, err := Start(context.Background(), c, opt)
	wantAll(t, err, "haproxy:leastconn: no haproxy executable given")

	opt.Binary = filepath.Join(t.TempDir(), "no-such-haproxy")
	_, err = Start(context.Background(), c, opt)
	wantAll(t, err, "haproxy:leastconn: starting "+opt.Binary)

	// A configuration that does not check writes nothing.
	c.Dir = filepath.Join(t.TempDir(), "run")
	c.Backends = nil
	_, err = Start(context.Background(), c, Options{Binary: os.Args[0]})
	wantAll(t, err, "backends: none")
	if _, err := os.Stat(c.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder was made: %v", err)
	}
}

func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "line %d\n\n", i)
	}
	b.WriteString(strings.Repeat("x", 1000) + "\r\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got := tail(path, 3)
	if len(got) != 3 || got[0] != "line 2998" || got[1] != "line 2999" || got[2] != strings.Repeat("x", lineBytes)+" …" {
		t.Errorf("tail = %q", got)
	}
	if tail(filepath.Join(t.TempDir(), "none"), 3) != nil {
		t.Error("a missing file has lines")
	}
}

// A configuration the program finds fault with: Check quotes what it said.
func TestCheckQuotes(t *testing.T) {
	c, _, _ := fake(t, "fail")
	out, err := Check(context.Background(), c, os.Args[0])
	wantAll(t, err, "haproxy:leastconn: "+os.Args[0]+" [-c -f "+filepath.Join(c.Dir, "haproxy.cfg")+"]: exit status 1",
		"[ALERT] helper: cannot bind socket")
	if !strings.Contains(out, "[ALERT] helper") {
		t.Errorf("output %q", out)
	}
	if _, err := Check(context.Background(), c, ""); err == nil || !strings.Contains(err.Error(), "no haproxy executable given") {
		t.Errorf("no binary: %v", err)
	}
}
