package cmd

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IO is the terminal as the commands see it. Nothing else in the module
// writes to os.Stdout or os.Stderr, so tests run commands against buffers.
type IO struct {
	In  io.Reader // offload env's frames; nil: none (no other command reads it)
	Out io.Writer // results and paths
	Err io.Writer // progress and errors
	// ErrTerminal reports whether Err is a terminal: progress bars only then.
	ErrTerminal bool
	// Env reads the environment (--shard auto); nil is os.Getenv.
	Env func(string) string
	// onRun, if set, is told of each finished run in place of the progress
	// bar (called serially, with done of total): the seam through which a
	// test acts at a given point of a command (interrupts it, holds its
	// folder) rather than at a time, which would depend on the machine.
	onRun func(done, total int)
}

// getenv is io.Env, or the process's environment.
func (io IO) getenv(name string) string {
	if io.Env == nil {
		return os.Getenv(name)
	}
	return io.Env(name)
}

// System is the process's own standard streams.
func System() IO {
	return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, ErrTerminal: term.IsTerminal(int(os.Stderr.Fd())), Env: os.Getenv}
}
