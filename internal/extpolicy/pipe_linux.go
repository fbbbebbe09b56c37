package extpolicy

import (
	"os"
	"strconv"
	"syscall"
)

// answerPipe makes the pipe the program answers on. Its ends block: a read
// is a plain system call, not the runtime poller's, which would cost every
// round trip a park and a wake-up (about twice the time, measured with
// BenchmarkRoundTrip). A blocked read is ended by wake instead, from
// another goroutine: it opens a new write end of the same pipe through
// /proc/self/fd and writes wakeLine, without blocking, so that the read
// returns even when something outside the program's process group (a child
// started with setsid) keeps the program's end open, and killing the group
// brings no end of file. wake must not be called once r is closed: its
// descriptor number may then name another file.
func answerPipe() (r, w *os.File, wake func(), err error) {
	// Pipe and close-on-exec under ForkLock, as os.Pipe does where there
	// is no pipe2, so that no program started meanwhile inherits the ends.
	var fds [2]int
	syscall.ForkLock.RLock()
	err = syscall.Pipe(fds[:])
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, nil, err
	}
	path := "/proc/self/fd/" + strconv.Itoa(fds[0])
	wake = func() {
		// O_NONBLOCK: a full pipe has data for the reader already, and the
		// open does not wait for a reader (the reader is this process).
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != nil {
			return
		}
		_, _ = syscall.Write(fd, []byte(wakeLine))
		_ = syscall.Close(fd)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), wake, nil
}
