package extpolicy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
)

// Limits of the protocol's plumbing.
const (
	// MaxLine bounds one answer line, bytes: an answer is a few dozen.
	MaxLine = 1 << 16
	// Grace is how long a program has to exit after SIGTERM before it is
	// killed (SIGKILL, with everything in its process group).
	Grace = time.Second
	// flushAt is how many bytes of done messages wait for the next decide
	// before they are written on their own.
	flushAt = 1 << 16
)

// Config is a program and what its start message tells it of the run.
type Config struct {
	// Command is the program and its arguments. A name without a slash is
	// looked up in PATH; a relative path resolves against Env.Dir, where
	// the program runs.
	Command []string
	// Timeout bounds the wait for each answer, and for the exit after end.
	Timeout time.Duration
	Tiers   []dispatch.Tier
	// Seed is the program's own seed, for its randomness (< 2⁵³, so that
	// any language's JSON reads it exactly).
	Seed uint64
}

// Env is what a run gives the program at Start.
type Env struct {
	// Dir is the folder the program runs in ("" the current one): the
	// scenario file's, so that relative paths resolve against it.
	Dir         string
	Run         Run
	Observation Observation
	// Stderr receives what the program writes on its stderr, up to MaxLog
	// bytes; nil discards it. Its first bytes are kept for messages anyway.
	Stderr io.Writer
	// Log names where Stderr goes, for messages ("" none).
	Log string
}

// Policy is a running program deciding for one run (one device of it).
// Its methods are not safe for concurrent use: the caller serialises
// Decide, Done and Close, as the engine and the testbed's lock do.
type Policy struct {
	cfg      Config
	env      Env
	cmd      *exec.Cmd
	in, out  *os.File
	r        *bufio.Reader
	buf      []byte // the messages not yet written
	fields   []field
	feedback bool // the program wants done messages
	closed   bool
	err      error // the first failure: every later call returns it
	stderr   *head
	waited   chan struct{} // closed when the process has been reaped
	waitErr  error         // its exit, once waited is closed
	watch    func() bool   // stops the context's watch
	canceled atomic.Bool
	// watchdog kills the program when an exchange outlasts the timeout;
	// timedOut says it did. Pipes are blocking, read and written by
	// plain system calls: a deadline on a pollable pipe costs the round
	// trip a third more, and killing the program ends a blocked call just
	// as well (it sees end of file, or a broken pipe).
	watchdog *time.Timer
	timedOut atomic.Bool
}

var (
	_ dispatch.Policy   = (*Policy)(nil)
	_ dispatch.Feedback = (*Policy)(nil)
)

// New checks cfg and returns a policy that has not started its program:
// Start does, for one run. Building without starting is what scenario
// validation does, so it runs nothing.
func New(cfg Config) (*Policy, error) {
	switch {
	case len(cfg.Command) == 0 || cfg.Command[0] == "":
		return nil, errors.New("no command: give the program and its arguments, e.g. [python3, my_policy.py]")
	case cfg.Timeout <= 0:
		return nil, fmt.Errorf("timeout %v: must be > 0", cfg.Timeout)
	case len(cfg.Tiers) == 0:
		return nil, errors.New("no tiers")
	}
	return &Policy{cfg: cfg}, nil
}

// Start starts the program in its own process group, sends the start
// message and reads the answer. ctx's end stops the program: a pending
// Decide returns at once, and Close ends it. Close must be called after
// Start, whatever Start returned.
func (p *Policy) Start(ctx context.Context, env Env) error {
	if p.cmd != nil || p.closed {
		return errors.New("extpolicy: Start called twice")
	}
	p.env = env
	p.stderr = &head{w: env.Stderr}
	inR, inW, err := pipe()
	if err != nil {
		return p.fail(&Error{Task: -1, Msg: fmt.Sprintf("could not make a pipe: %v", err)})
	}
	outR, outW, err := pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return p.fail(&Error{Task: -1, Msg: fmt.Sprintf("could not make a pipe: %v", err)})
	}
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	cmd.Dir = env.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = Grace // a child holding stderr open cannot stall Wait
	ownGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return p.fail(&Error{Task: -1, Msg: fmt.Sprintf("the program %q did not start: %v", p.cfg.Command, err)})
	}
	p.cmd, p.in, p.out = cmd, inW, outR
	p.r = bufio.NewReaderSize(outR, MaxLine)
	p.waited = make(chan struct{})
	go func() {
		p.waitErr = cmd.Wait()
		close(p.waited)
	}()
	p.watchdog = time.AfterFunc(time.Hour, p.expire)
	p.watchdog.Stop()
	p.watch = context.AfterFunc(ctx, p.interrupt)
	if p.buf, err = appendStart(p.buf[:0], p.cfg.Tiers, p.cfg.Seed, env.Run, env.Observation); err != nil {
		return p.fail(&Error{Task: -1, Msg: "start message: " + err.Error()})
	}
	line, err := p.roundTrip(-1, "start")
	if err != nil {
		return p.fail(err)
	}
	fs, err := parseAnswer(line, p.fields)
	if err == nil {
		p.feedback, err = startAnswer(fs)
	}
	if err != nil {
		return p.fail(&Error{Task: -1, Msg: "answer to start: " + err.Error(), Wrote: clip(line)})
	}
	return nil
}

// Decide sends the decide message of v's task and reads the tier. On any
// failure it answers tier −1 (which the engine and the testbed refuse) and
// keeps the reason for Err and Close.
func (p *Policy) Decide(v *dispatch.View) dispatch.Decision {
	if p.err != nil {
		return dispatch.Decision{Tier: -1}
	}
	if p.cmd == nil {
		p.err = &Error{Task: v.Task, Msg: "Decide before Start"}
		return dispatch.Decision{Tier: -1}
	}
	p.buf = appendDecide(p.buf, v)
	line, err := p.roundTrip(v.Task, "decide")
	if err != nil {
		p.err = err
		return dispatch.Decision{Tier: -1}
	}
	fs, err := parseAnswer(line, p.fields)
	var (
		tier    int
		pred    float64
		hasPred bool
	)
	if err == nil {
		p.fields = fs[:0]
		tier, pred, hasPred, err = decision(fs, len(v.Tiers))
	}
	if err != nil {
		p.err = &Error{Task: v.Task, Msg: "answer to decide: " + err.Error(), Wrote: clip(line), Log: p.env.Log}
		return dispatch.Decision{Tier: -1}
	}
	d := dispatch.Decision{Tier: tier}
	if hasPred { // the engine scores predictions as waits: latency = wait + 1/μ + D̄
		t := &v.Tiers[tier]
		d.PredWait, d.HasPred = pred-1/t.Mu-t.MeanDelay, true
	}
	return d
}

// Done queues the done message of a completion, if the program wants them.
// Messages wait for the next decide (or end), which writes them with it in
// one system call: the program reads them first, so every completion still
// reaches it before any later decision.
func (p *Policy) Done(c *dispatch.Completion) {
	if !p.feedback || p.err != nil || p.cmd == nil || p.closed {
		return
	}
	p.buf = appendDone(p.buf, c)
	if len(p.buf) >= flushAt {
		if err := p.write(c.Task, "done"); err != nil {
			p.err = err
		}
	}
}

// Feedback reports whether the program asked for done messages.
func (p *Policy) Feedback() bool { return p.feedback }

// Err is the first failure, or nil.
func (p *Policy) Err() error { return p.err }

// Close ends the program: after a clean run it sends end and waits up to
// the timeout for the program to exit (status 0 expected); after a failure,
// or past that wait, it sends SIGTERM to the program's process group and
// SIGKILL after Grace. Anything left in the group is killed too. It returns
// the run's failure, if any: the first one seen, or a non-zero exit.
func (p *Policy) Close() error {
	if p.closed {
		return p.err
	}
	p.closed = true
	if p.watch != nil {
		p.watch()
	}
	if p.cmd == nil {
		return p.err
	}
	wait := time.Duration(0)
	if p.err == nil {
		p.buf = append(p.buf, endMsg...)
		if err := p.write(-1, "end"); err != nil {
			p.err = err
		} else {
			wait = p.cfg.Timeout
		}
	}
	_ = p.in.Close() // end of input, for a program that reads to the end
	exited := p.waitFor(wait)
	if !exited {
		signalGroup(p.cmd, syscall.SIGTERM)
		if !p.waitFor(Grace) {
			signalGroup(p.cmd, syscall.SIGKILL)
			<-p.waited
		}
	}
	signalGroup(p.cmd, syscall.SIGKILL) // what the program left behind in its group
	_ = p.out.Close()
	p.stderr.finish()
	if p.err == nil {
		switch {
		case !exited:
			p.err = &Error{Task: -1, Msg: fmt.Sprintf("the program did not exit within %v of the end message; it was stopped", p.cfg.Timeout)}
		case p.waitErr != nil:
			p.err = &Error{Task: -1, Msg: fmt.Sprintf("the program %s after the end message (the protocol asks for status 0)", describeExit(p.waitErr)),
				Stderr: p.stderr.first(), Log: p.env.Log}
		}
	}
	return p.err
}

// fail keeps err as the run's failure and returns it.
func (p *Policy) fail(err error) error {
	if p.err == nil {
		p.err = err
	}
	return p.err
}

// interrupt is the context's end: the program is killed, which ends a
// pending read or write, whose error then says the run was interrupted.
func (p *Policy) interrupt() {
	p.canceled.Store(true)
	signalGroup(p.cmd, syscall.SIGKILL)
}

// expire is the watchdog's: an exchange outlasted the timeout.
func (p *Policy) expire() {
	p.timedOut.Store(true)
	signalGroup(p.cmd, syscall.SIGKILL)
}

// write writes the pending messages within the timeout.
func (p *Policy) write(task int, what string) error {
	p.watchdog.Reset(p.cfg.Timeout)
	_, err := p.in.Write(p.buf)
	p.watchdog.Stop()
	p.buf = p.buf[:0]
	if err != nil {
		return p.ioError(task, what, true, err, nil)
	}
	return nil
}

// roundTrip writes the pending messages, the last of which asks a
// question, and reads the answer line.
func (p *Policy) roundTrip(task int, what string) ([]byte, error) {
	p.watchdog.Reset(p.cfg.Timeout)
	_, err := p.in.Write(p.buf)
	p.buf = p.buf[:0]
	if err != nil {
		p.watchdog.Stop()
		return nil, p.ioError(task, what, true, err, nil)
	}
	line, err := p.r.ReadSlice('\n')
	p.watchdog.Stop()
	if err != nil {
		return nil, p.ioError(task, what, false, err, line)
	}
	if p.r.Buffered() > 0 { // one question, one line: more would be read as the next answer
		return nil, &Error{Task: task, Msg: fmt.Sprintf("more than one line in answer to %s (debug output belongs on stderr); the rest begins", what),
			Wrote: clip(p.peek()), Log: p.env.Log}
	}
	return line, nil
}

// ioError explains a failed read or write: interrupted, timed out, too
// long a line, or the program gone (with its exit status and stderr).
// what is the message concerned; write tells a failed write of it from a
// failed read of its answer.
func (p *Policy) ioError(task int, what string, write bool, err error, partial []byte) error {
	if write {
		what = "the " + what + " message was read"
	} else {
		what = "the answer to " + what
	}
	if p.canceled.Load() {
		return &Error{Task: task, Msg: "interrupted before " + what, Err: context.Canceled}
	}
	e := &Error{Task: task, Wrote: clip(partial), Log: p.env.Log}
	switch {
	case p.timedOut.Load() && write:
		e.Msg = fmt.Sprintf("the program did not read its input within the timeout of %v, and was stopped", p.cfg.Timeout)
	case p.timedOut.Load():
		e.Msg = fmt.Sprintf("no answer within the timeout of %v, and was stopped (an answer must end with a newline and be flushed: in Python, print(..., flush=True))", p.cfg.Timeout)
		if len(partial) == 0 {
			e.Wrote = clip(p.peek())
		}
	case errors.Is(err, bufio.ErrBufferFull):
		e.Msg = fmt.Sprintf("%s is longer than %d bytes", what, MaxLine)
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed):
		status := "closed its output"
		if p.waitFor(Grace) {
			status = describeExit(p.waitErr)
		}
		e.Msg = fmt.Sprintf("the program %s before %s", status, what)
		e.Stderr = p.stderr.first()
	default:
		e.Msg = fmt.Sprintf("%s: %v", what, err)
	}
	return e
}

// peek returns what the program wrote without finishing a line.
func (p *Policy) peek() []byte {
	b, _ := p.r.Peek(p.r.Buffered())
	return b
}

// waitFor waits up to d for the program to exit.
func (p *Policy) waitFor(d time.Duration) bool {
	select {
	case <-p.waited:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.waited:
		return true
	case <-t.C:
		return false
	}
}

// describeExit says how a process ended.
func describeExit(err error) string {
	if err == nil {
		return "exited with status 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "was killed by " + ws.Signal().String()
		}
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	}
	return "ended: " + err.Error()
}
