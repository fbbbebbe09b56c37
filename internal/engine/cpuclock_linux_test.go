package engine

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadClock starts a CPU clock of the calling goroutine, locked to its
// thread until the returned stop: the time this thread ran, not the wall
// time, so that other processes on a shared machine do not enter a ratio
// of two such clocks. ok is false where the clock is unavailable.
func threadClock() (read func() time.Duration, stop func(), ok bool) {
	runtime.LockOSThread()
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		runtime.UnlockOSThread()
		return nil, func() {}, false
	}
	read = func() time.Duration {
		_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
		return time.Duration(ts.Nano())
	}
	return read, runtime.UnlockOSThread, true
}
