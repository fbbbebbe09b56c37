package cmd

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IO is the terminal as the commands see it. Nothing else in the module
// writes to os.Stdout or os.Stderr, so tests run commands against buffers.
type IO struct {
	Out io.Writer // results and paths
	Err io.Writer // progress and errors
	// ErrTerminal reports whether Err is a terminal: progress bars only then.
	ErrTerminal bool
}

// System is the process's own standard streams.
func System() IO {
	return IO{Out: os.Stdout, Err: os.Stderr, ErrTerminal: term.IsTerminal(int(os.Stderr.Fd()))}
}
