package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/offload-sim/offload/internal/runner"
)

// Exit statuses (docs/design.md §5), documented in the root command's help.
const (
	ExitOK          = 0
	ExitFailure     = 1   // a run failed
	ExitUsage       = 2   // bad scenario, flag or argument
	ExitInterrupted = 130 // SIGINT or SIGTERM
)

// usageError marks bad input: the user can fix it, and nothing was written.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// badInput wraps err as bad input (exit status 2).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// badInputf formats a bad-input error.
func badInputf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitCode maps an error to the process's exit status, in one place.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &ue), errors.Is(err, runner.ErrBadInput):
		return ExitUsage
	}
	return ExitFailure
}
