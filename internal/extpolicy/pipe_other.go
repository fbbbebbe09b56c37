//go:build !linux

package extpolicy

import (
	"os"
	"time"
)

// answerPipe makes the pipe the program answers on. Without Linux's
// /proc/self/fd (pipe_linux.go) a blocking read could not be ended from
// another goroutine, so the pipe is the runtime poller's, and wake ends a
// pending read with a deadline in the past.
func answerPipe() (r, w *os.File, wake func(), err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	return r, w, func() { _ = r.SetReadDeadline(time.Unix(1, 0)) }, nil
}
