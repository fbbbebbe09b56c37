package cmd

import (
	"time"

	"github.com/schollz/progressbar/v3"
)

// newProgress returns the runner's progress callback: a bar with ETA on
// stderr when stderr is a terminal and --quiet is off, else nothing.
func newProgress(io IO, quiet bool, desc string, total int) (update func(done, total int), finish func()) {
	if io.onRun != nil {
		return io.onRun, func() {}
	}
	if quiet || !io.ErrTerminal || total == 0 {
		return nil, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(io.Err),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return func(done, _ int) { _ = bar.Set(done) }, func() { _ = bar.Finish() }
}
