package balancer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Defaults of Options.
const (
	// DefaultStartTimeout bounds the wait for a started balancer to answer.
	// Both programs answer within milliseconds; nginx retries a busy port
	// for 2.5 s before it gives up, and its failure should be the error.
	DefaultStartTimeout = 10 * time.Second
	// DefaultGrace is how long Stop waits after SIGTERM before SIGKILL.
	DefaultGrace = 5 * time.Second
)

// Options says how to run a balancer.
type Options struct {
	// Binary is the program's executable, a path (cmd finds it with
	// exec.LookPath; this package looks nothing up).
	Binary string
	// StartTimeout bounds the wait for the balancer to answer at
	// ReadyPath; 0: DefaultStartTimeout.
	StartTimeout time.Duration
	// Grace is how long Stop waits for the program to exit after SIGTERM
	// before it kills it; 0: DefaultGrace.
	Grace time.Duration
}

// Process is a running balancer, started by Start; Stop ends it.
type Process struct {
	cfg   Config
	alg   Algorithm
	bin   string
	grace time.Duration
	cmd   *exec.Cmd
	done  chan struct{} // closed when the program has exited and been waited for
	werr  error         // cmd.Wait's error, read after done

	once    sync.Once
	stopErr error
}

// Start writes c's configuration into c.Dir (created if missing) and starts
// the program on it, in a process group of its own; it returns once the
// balancer answers at ReadyPath with Token(c). If the program exits first,
// does not answer within the start timeout, or ctx ends, it is stopped and
// the error quotes the last lines of its logs. ctx bounds the start only:
// the balancer runs until Stop.
func Start(ctx context.Context, c Config, opt Options) (*Process, error) {
	name, text, err := Generate(c)
	if err != nil {
		return nil, err
	}
	return start(ctx, c.withDefaults(), name, text, opt)
}

// start runs the program of c on the configuration text, which Start
// generates and tests may spoil.
func start(ctx context.Context, c Config, name string, text []byte, opt Options) (*Process, error) {
	a, err := Lookup(c.Algorithm)
	if err != nil {
		return nil, err
	}
	if opt.Binary == "" {
		return nil, fmt.Errorf("%s: no %s executable given", a.Label, a.Program)
	}
	if opt.StartTimeout <= 0 {
		opt.StartTimeout = DefaultStartTimeout
	}
	if opt.Grace <= 0 {
		opt.Grace = DefaultGrace
	}
	if err := prepare(c.Dir, a.Program, name, text); err != nil {
		return nil, fmt.Errorf("%s: %w", a.Label, err)
	}
	p := &Process{cfg: c, alg: a, bin: opt.Binary, grace: opt.Grace, done: make(chan struct{})}
	if err := p.launch(); err != nil {
		return nil, err
	}
	if err := p.waitReady(ctx, opt.StartTimeout); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// prepare makes the run folder and writes the configuration into it; it
// empties the logs an earlier run there left, so that an error quotes this
// run's.
func prepare(dir string, prog Program, name string, text []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if prog == Nginx {
		if err := os.MkdirAll(filepath.Join(dir, nginxTemp), 0o755); err != nil {
			return err
		}
		if err := os.Remove(filepath.Join(dir, nginxErrorLog)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return writeAtomic(filepath.Join(dir, name), text)
}

// writeAtomic writes a file through a temporary one renamed over it, so
// that a reader never sees it half written.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

// logs lists the program's log files in the run folder, in the order an
// error quotes them.
func (p *Process) logs() []string {
	if p.alg.Program == HAProxy {
		return []string{filepath.Join(p.cfg.Dir, haproxyLog)}
	}
	return []string{filepath.Join(p.cfg.Dir, nginxErrorLog), filepath.Join(p.cfg.Dir, nginxLog)}
}

// launch starts the program with its stdout and stderr in its log file.
// The file is handed to the child as is, so no goroutine copies it.
func (p *Process) launch() error {
	if err := supported(); err != nil {
		return fmt.Errorf("%s: %w", p.alg.Label, err)
	}
	args := haproxyArgs(p.cfg.Dir)
	out := filepath.Join(p.cfg.Dir, haproxyLog)
	if p.alg.Program == Nginx {
		args, out = nginxArgs(p.cfg.Dir), filepath.Join(p.cfg.Dir, nginxLog)
	}
	log, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("%s: %w", p.alg.Label, err)
	}
	defer log.Close() // the child has its own descriptor
	p.cmd = exec.Command(p.bin, args...)
	p.cmd.Dir, p.cmd.Stdout, p.cmd.Stderr = p.cfg.Dir, log, log
	ownGroup(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return fmt.Errorf("%s: starting %s: %w", p.alg.Label, p.bin, err)
	}
	go func() {
		p.werr = p.cmd.Wait()
		close(p.done)
	}()
	return nil
}

// waitReady polls ReadyPath until the balancer answers with its token, the
// program exits, the timeout passes or ctx ends.
func (p *Process) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errStartTimeout)
	defer cancel()
	tr := &http.Transport{DisableKeepAlives: true, Proxy: nil}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Second}
	url, token := "http://"+p.cfg.Listen+ReadyPath, Token(p.cfg)
	var last error
	for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		if last = probe(ctx, client, url, token); last == nil {
			return nil
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
			continue
		case <-p.done:
			t.Stop()
			return p.failure("exited before it answered: " + exitText(p.werr))
		case <-ctx.Done():
			t.Stop()
		}
		if context.Cause(ctx) == errStartTimeout {
			return p.failure(fmt.Sprintf("did not answer at %s within %v (last: %v)", url, timeout, last))
		}
		return fmt.Errorf("%s: start interrupted: %w", p.alg.Label, ctx.Err())
	}
}

// errStartTimeout is the cause of a start that timed out, told apart from
// the caller's ctx ending.
var errStartTimeout = errors.New("start timeout")

// probe asks the balancer for its token once.
func probe(ctx context.Context, c *http.Client, url, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || string(bytes.TrimSpace(body)) != token {
		return fmt.Errorf("answered %d %q, not this balancer's token: does another program hold the port?", resp.StatusCode, body)
	}
	return nil
}

// Label is the balancer's label ("haproxy:leastconn").
func (p *Process) Label() string { return p.alg.Label }

// URL is where the balancer takes requests: http://host:port.
func (p *Process) URL() string { return "http://" + p.cfg.Listen }

// Pid is the program's process id (nginx's master process).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the program has exited, whether Stop ended it or not.
func (p *Process) Done() <-chan struct{} { return p.done }

// Stop ends the balancer: SIGTERM, then SIGKILL to its process group if it
// has not exited within the grace period; it returns once it has exited.
// The error says if the program had exited before Stop (a crash during the
// run, with its logs quoted), or had to be killed. Stop may be called more
// than once; it returns the same error each time.
func (p *Process) Stop() error {
	p.once.Do(func() { p.stopErr = p.stop() })
	return p.stopErr
}

func (p *Process) stop() error {
	select {
	case <-p.done:
		signalGroup(p.cmd, syscall.SIGKILL) // an nginx worker its master left behind
		return p.failure("exited while running: " + exitText(p.werr))
	default:
	}
	terminate(p.cmd)
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-p.done:
		if !cleanExit(p.werr) {
			return p.failure("exited with " + exitText(p.werr) + " when stopped")
		}
		return nil
	case <-t.C:
		p.kill()
		return p.failure(fmt.Sprintf("did not exit within %v of SIGTERM; killed", p.grace))
	}
}

// kill ends the process group at once and waits for the program.
func (p *Process) kill() {
	signalGroup(p.cmd, syscall.SIGKILL)
	<-p.done
}

// cleanExit reports an exit that SIGTERM explains: status 0, or the signal.
func cleanExit(err error) bool {
	var ee *exec.ExitError
	if err == nil {
		return true
	}
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM
}

// exitText describes how the program ended.
func exitText(err error) string {
	if err == nil {
		return "status 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	return err.Error()
}

// failure is an error about the program that quotes its logs.
func (p *Process) failure(what string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s", p.alg.Label, p.bin, what)
	for _, path := range p.logs() {
		lines := tail(path, tailLines)
		if len(lines) == 0 {
			fmt.Fprintf(&b, "\n  %s: empty", path)
			continue
		}
		fmt.Fprintf(&b, "\n  %s, last lines:", path)
		for _, l := range lines {
			b.WriteString("\n    " + l)
		}
	}
	return errors.New(b.String())
}

// How much of a log an error quotes.
const (
	tailLines = 8
	tailBytes = 16 << 10 // read from the end of the file
	lineBytes = 300
)

// tail returns the last n non-empty lines of a file, each cut to lineBytes;
// none if it cannot be read.
func tail(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > tailBytes {
		_, _ = f.Seek(st.Size()-tailBytes, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, tailBytes))
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimRight(l, "\r \t"); l != "" {
			if len(l) > lineBytes {
				l = l[:lineBytes] + " …"
			}
			lines = append(lines, l)
		}
	}
	return lines[max(0, len(lines)-n):]
}
