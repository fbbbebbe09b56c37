package extpolicy

import (
	"fmt"
	"strings"
	"sync"
)

// Quoted is how many bytes of what a program wrote a message quotes.
const Quoted = 200

// MaxLog bounds the stderr a run keeps (Env.Stderr), bytes.
const MaxLog = 1 << 20

// Error is a program's failure: the task it happened at, what went wrong,
// and the first bytes the program wrote (the offending answer, or its
// stderr when it exited).
type Error struct {
	Task   int    // the task being decided or told; −1 for start and end
	Msg    string // what went wrong
	Wrote  []byte // the first Quoted bytes of the answer line, if any
	Stderr []byte // the first Quoted bytes of its stderr, when it exited
	Log    string // where all of its stderr is, if kept
	Err    error  // the cause, for errors.Is (context.Canceled when interrupted)
}

// Error names the task, says what went wrong and quotes the program.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("exec policy")
	if e.Task >= 0 {
		fmt.Fprintf(&b, ", task %d", e.Task)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if len(e.Wrote) > 0 {
		fmt.Fprintf(&b, "; it wrote %q", e.Wrote)
	}
	if e.Stderr != nil {
		if len(e.Stderr) == 0 {
			b.WriteString("; its stderr was empty")
		} else {
			fmt.Fprintf(&b, "; its stderr begins %q", e.Stderr)
		}
	}
	if e.Log != "" && e.Err == nil {
		fmt.Fprintf(&b, " (its stderr is kept in %s)", e.Log)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// clip copies the first Quoted bytes of b, without its line end.
func clip(b []byte) []byte {
	b = []byte(strings.TrimRight(string(b[:min(len(b), Quoted+2)]), "\r\n"))
	return b[:min(len(b), Quoted)]
}

// head is the program's stderr: the first MaxLog bytes go to w, the first
// Quoted are kept for messages. It never fails a write, so that a log
// that cannot be written cannot stop the program (the log's own Close
// reports that).
type head struct {
	mu    sync.Mutex
	w     interface{ Write([]byte) (int, error) }
	start []byte
	n     int64
	werr  error
}

func (h *head) Write(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if k := Quoted - len(h.start); k > 0 {
		h.start = append(h.start, b[:min(k, len(b))]...)
	}
	if h.w != nil && h.werr == nil && h.n < MaxLog {
		_, h.werr = h.w.Write(b[:min(int64(len(b)), MaxLog-h.n)])
	}
	h.n += int64(len(b))
	return len(b), nil
}

// first returns a copy of the first bytes written (never nil).
func (h *head) first() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]byte{}, h.start...)
}

// note adds a line of offload's own to the log.
func (h *head) note(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.w != nil && h.werr == nil {
		_, h.werr = fmt.Fprintf(h.w, "\n[offload: %s]\n", msg)
	}
}

// finish notes in the log how much was dropped past MaxLog.
func (h *head) finish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.w != nil && h.werr == nil && h.n > MaxLog {
		_, h.werr = fmt.Fprintf(h.w, "\n[offload: %d more bytes of stderr dropped: the log keeps the first %d]\n", h.n-MaxLog, MaxLog)
	}
}
