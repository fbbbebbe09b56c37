package extpolicy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
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
	// Handshake is the least time the answer to start is given: it comes
	// after the program's start-up (an interpreter and its imports, which
	// on a busy machine can take seconds), which the per-answer timeout
	// must not have to cover.
	Handshake = time.Minute
	// flushAt is how many bytes of done messages wait for the next decide
	// before they are written on their own.
	flushAt = 1 << 16
	// wakeLine is what a wake-up of a blocked read (answerPipe) writes: a
	// line no answer can be, since JSON allows no NUL byte.
	wakeLine = "\x00\n"
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
	cfg Config
	env Env
	cmd *exec.Cmd
	// in is the program's stdin, out its stdout. in is the runtime
	// poller's, so that a deadline ends a blocked write; out blocks (see
	// answerPipe), and wakeOut ends a blocked read of it.
	in, out  *os.File
	wakeOut  func()
	r        *bufio.Reader
	buf      []byte // the messages not yet written
	fields   []field
	feedback bool // the program wants done messages
	closed   bool
	err      error // the first failure: every later call returns it
	stderr   *head
	errPipe  *os.File      // the program's stderr, our end (the poller's)
	copied   chan struct{} // closed when the copy of its stderr has ended
	reap     sync.Once     // starts the wait for the program's exit
	waited   chan struct{} // closed when the process has been reaped
	waitErr  error         // its exit, once waited is closed
	watch    func() bool   // stops the context's watch
	canceled atomic.Bool
	// watchdog stops the program when an exchange outlasts its limit;
	// timedOut says it did. The timer is reset and stopped around each
	// exchange and fires only when one is late, so that a round trip
	// costs no deadline and no poller.
	watchdog *time.Timer
	timedOut atomic.Bool
	// wakeMu orders a stop (the watchdog's, the context's) against the
	// closing of out, whose descriptor number wakeOut opens again.
	wakeMu  sync.Mutex
	outDone bool
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
// message and reads the answer, waiting for it up to Handshake, or the
// timeout if that is longer. ctx's end stops the program: a pending
// Decide returns at once, and Close ends it. Close must be called after
// Start, whatever Start returned.
func (p *Policy) Start(ctx context.Context, env Env) error {
	if p.cmd != nil || p.closed {
		return errors.New("extpolicy: Start called twice")
	}
	p.env = env
	p.stderr = &head{w: env.Stderr}
	ends, err := newPipes()
	if err != nil {
		return p.fail(&Error{Task: -1, Msg: "could not make a pipe: " + err.Error()})
	}
	if err := p.spawn(ends, env.Dir); err != nil {
		ends.close()
		return p.fail(&Error{Task: -1, Msg: fmt.Sprintf("the program %q did not start: %v", p.cfg.Command, err)})
	}
	p.watchdog = time.AfterFunc(time.Hour, p.expire)
	p.watchdog.Stop()
	p.watch = context.AfterFunc(ctx, p.interrupt)
	return p.handshake()
}

// pipes are both ends of the program's stdin, stdout and stderr, and
// what wakes a blocked read of its stdout.
type pipes struct {
	inR, inW, outR, outW, errR, errW *os.File
	wake                             func()
}

// newPipes makes the program's pipes. The program's ends block, as
// programs expect (os/exec hands them over in blocking mode); offload's
// ends of stdin and stderr are the runtime poller's.
func newPipes() (*pipes, error) {
	e := &pipes{}
	var err error
	if e.inR, e.inW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if e.outR, e.outW, e.wake, err = answerPipe(); err != nil {
		e.close()
		return nil, err
	}
	if e.errR, e.errW, err = os.Pipe(); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// close closes every end made.
func (e *pipes) close() {
	for _, f := range []*os.File{e.inR, e.inW, e.outR, e.outW, e.errR, e.errW} {
		if f != nil {
			f.Close()
		}
	}
}

// spawn starts the program in dir on the pipes, in its own process group,
// and copies its stderr.
func (p *Policy) spawn(e *pipes, dir string) error {
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	cmd.Dir = dir
	// All three are files, so that os/exec copies nothing and Wait waits
	// for the process alone (not for a child holding its stderr).
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.inR, e.outW, e.errW
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	e.inR.Close()
	e.outW.Close()
	e.errW.Close()
	p.cmd, p.in, p.out, p.wakeOut, p.errPipe = cmd, e.inW, e.outR, e.wake, e.errR
	p.r = bufio.NewReaderSize(e.outR, MaxLine)
	p.waited = make(chan struct{})
	p.copied = make(chan struct{})
	go func() {
		_, _ = io.Copy(p.stderr, e.errR) // ends at end of file, or when Close cuts it
		close(p.copied)
	}()
	return nil
}

// handshake sends the start message and reads the program's answer.
func (p *Policy) handshake() error {
	var err error
	if p.buf, err = appendStart(p.buf[:0], p.cfg.Tiers, p.cfg.Seed, p.env.Run, p.env.Observation); err != nil {
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
		return p.fail(p.explain(&Error{Task: -1, Msg: "answer to start: " + err.Error(), Wrote: clip(line)}))
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
		p.err = p.explain(&Error{Task: v.Task, Msg: "answer to decide: " + err.Error(), Wrote: clip(line), Log: p.env.Log})
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
// SIGKILL after Grace (at once when the program was already killed: timed
// out or interrupted). Anything left in the group is killed too. It
// returns the run's failure, if any: the first one seen, or a non-zero
// exit. It never waits on what left the program's process group.
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
	killed := p.canceled.Load() || p.timedOut.Load()
	exited := p.waitFor(wait)
	if !exited && !killed {
		signalGroup(p.cmd, syscall.SIGTERM)
		exited = p.waitFor(Grace)
	}
	signalGroup(p.cmd, syscall.SIGKILL) // the program if need be, and what it left behind in its group
	<-p.reaped()
	p.wakeMu.Lock()
	p.outDone = true
	_ = p.out.Close()
	p.wakeMu.Unlock()
	p.endStderr(killed)
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

// endStderr waits for the copy of the program's stderr to reach its end,
// which comes once the process group is gone; a process that left the
// group may still hold it, and after Grace (at once after an interruption)
// the copy is cut, with a note in the log.
func (p *Policy) endStderr(interrupted bool) {
	limit := Grace
	if interrupted {
		limit = 0
	}
	if !within(p.copied, limit) {
		_ = p.errPipe.SetReadDeadline(time.Unix(1, 0))
		<-p.copied
		if !interrupted {
			p.stderr.note("a process the program started, outside its process group, still held its stderr; the rest was not read")
		}
	}
	_ = p.errPipe.Close()
	p.stderr.finish()
}

// fail keeps err as the run's failure and returns it.
func (p *Policy) fail(err error) error {
	if p.err == nil {
		p.err = err
	}
	return p.err
}

// interrupt is the context's end: the program is stopped, and a pending
// read or write ends, whose error then says the run was interrupted.
func (p *Policy) interrupt() {
	p.canceled.Store(true)
	p.stop()
}

// expire is the watchdog's: an exchange outlasted its limit.
func (p *Policy) expire() {
	p.timedOut.Store(true)
	p.stop()
}

// stop kills the program's process group and ends a pending read or write
// itself: killing the group ends them too, unless a process outside it
// (started with setsid) holds the program's stdin or stdout open.
func (p *Policy) stop() {
	signalGroup(p.cmd, syscall.SIGKILL)
	_ = p.in.SetWriteDeadline(time.Unix(1, 0))
	p.wakeMu.Lock()
	if !p.outDone {
		p.wakeOut()
	}
	p.wakeMu.Unlock()
}

// write writes the pending messages within the timeout.
func (p *Policy) write(task int, what string) error {
	p.watchdog.Reset(p.cfg.Timeout)
	_, err := p.in.Write(p.buf)
	late := !p.watchdog.Stop()
	p.buf = p.buf[:0]
	if err != nil || late {
		return p.ioError(task, what, true, late, err, nil)
	}
	return nil
}

// roundTrip writes the pending messages, the last of which asks a
// question, and reads the answer line: within the timeout, or the
// handshake's limit for start.
func (p *Policy) roundTrip(task int, what string) ([]byte, error) {
	p.watchdog.Reset(p.limit(task))
	_, err := p.in.Write(p.buf)
	p.buf = p.buf[:0]
	if err != nil {
		late := !p.watchdog.Stop()
		return nil, p.ioError(task, what, true, late, err, nil)
	}
	line, err := p.r.ReadSlice('\n')
	// A timer that fired stopped the program, and its wake-up may be what
	// ended the read: the exchange failed, whatever was read.
	if late := !p.watchdog.Stop(); err != nil || late {
		return nil, p.ioError(task, what, false, late, err, line)
	}
	if p.r.Buffered() > 0 { // one question, one line: more would be read as the next answer
		return nil, p.explain(&Error{Task: task, Msg: fmt.Sprintf("more than one line in answer to %s (debug output belongs on stderr); the rest begins", what),
			Wrote: clip(p.peek()), Log: p.env.Log})
	}
	return line, nil
}

// limit is the longest wait for the answer to the message about task:
// the timeout, or for start (task −1) at least Handshake.
func (p *Policy) limit(task int) time.Duration {
	if task < 0 {
		return max(Handshake, p.cfg.Timeout)
	}
	return p.cfg.Timeout
}

// explain returns e, a failure to read an answer, unless the run was
// interrupted meanwhile: then the line read was the interruption's
// wake-up, not the program's.
func (p *Policy) explain(e *Error) error {
	if p.canceled.Load() {
		return &Error{Task: e.Task, Msg: "interrupted before the answer was read", Err: context.Canceled}
	}
	return e
}

// ioError explains a failed read or write: interrupted, timed out (late:
// the watchdog fired), too long a line, or the program gone (with its exit
// status and stderr). what is the message concerned; write tells a failed
// write of it from a failed read of its answer; partial is what was read.
func (p *Policy) ioError(task int, what string, write, late bool, err error, partial []byte) error {
	if write {
		what = "the " + what + " message was read"
	} else {
		what = "the answer to " + what
	}
	if p.canceled.Load() {
		return &Error{Task: task, Msg: "interrupted before " + what, Err: context.Canceled}
	}
	partial = bytes.TrimSuffix(partial, []byte(wakeLine))
	e := &Error{Task: task, Wrote: clip(partial), Log: p.env.Log}
	switch {
	case (late || p.timedOut.Load()) && write:
		e.Msg = fmt.Sprintf("the program did not read its input within the timeout of %v, and was stopped", p.cfg.Timeout)
	case late || p.timedOut.Load():
		e.Msg = fmt.Sprintf("no answer within the timeout of %v, and was stopped (an answer must end with a newline and be flushed: in Python, print(..., flush=True))", p.limit(task))
		if len(partial) == 0 {
			e.Wrote = clip(bytes.TrimSuffix(p.peek(), []byte(wakeLine)))
		}
		if p.waitFor(Grace) && !killedBy(p.waitErr, syscall.SIGKILL) {
			// It had ended on its own: what kept the pipe open was a
			// process it started outside its group.
			e.Msg += fmt.Sprintf("; the program had %s, and a process it started outside its process group held its stdout", describeExit(p.waitErr))
		}
	case errors.Is(err, bufio.ErrBufferFull):
		e.Msg = fmt.Sprintf("%s is longer than %d bytes", what, MaxLine)
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed):
		status := "closed its output"
		if p.waitFor(Grace) {
			status = describeExit(p.waitErr)
			// What it wrote to stderr before it exited, for the message:
			// the copy ends at end of file, once nothing holds the pipe.
			within(p.copied, Grace)
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

// reaped starts, once, the wait for the program's exit, and returns the
// channel closed when it has exited and been reaped. The wait holds an OS
// thread, so it starts only when an exit is expected (after end, after a
// failure), not for the whole run: a thousand programs of a run's devices
// would otherwise hold a thousand threads.
func (p *Policy) reaped() <-chan struct{} {
	p.reap.Do(func() {
		go func() {
			p.waitErr = p.cmd.Wait()
			close(p.waited)
		}()
	})
	return p.waited
}

// waitFor waits up to d for the program to exit.
func (p *Policy) waitFor(d time.Duration) bool {
	return within(p.reaped(), d)
}

// within waits up to d for c to be closed.
func within(c <-chan struct{}, d time.Duration) bool {
	select {
	case <-c:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c:
		return true
	case <-t.C:
		return false
	}
}

// killedBy reports whether a process's exit was by sig.
func killedBy(err error, sig syscall.Signal) bool {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ws, ok := ee.Sys().(syscall.WaitStatus)
		return ok && ws.Signaled() && ws.Signal() == sig
	}
	return false
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
