// Package cmd is offload's command line: Cobra commands that parse flags,
// load scenarios and wire them to the library packages. It is the only
// package that talks to the terminal.
package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/reproduce"
	"github.com/offload-sim/offload/internal/runner"
)

const rootLong = `offload runs queue-aware task-offloading experiments: a discrete-event
simulation of a device dispatching tasks to local, edge and cloud tiers,
under the paper's eight dispatch policies, reference baselines, production
load balancers' algorithms or your own program (offload run --help lists
them all), over many seeded replicates.

Exit status: 0 done, 1 a run failed, 2 bad input (scenario, flags,
arguments; nothing is written), 130 interrupted.`

// NewRoot builds the command tree writing to io.
func NewRoot(io IO) *cobra.Command {
	root := &cobra.Command{
		Use:           "offload",
		Short:         "Queue-aware task offloading experiments in the computing continuum",
		Long:          rootLong,
		Version:       runner.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// The text has no template actions: Cobra prints it as it is.
	root.SetVersionTemplate(runner.VersionText())
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if c == c.Root() { // Execute's "offload:" already names it
			return badInputf("%w (see '%s --help')", err, c.CommandPath())
		}
		return badInputf("%s: %w (see '%s --help')", subPath(c), err, c.CommandPath())
	})
	for _, e := range reproduce.Specs() {
		root.AddCommand(newExperimentCmd(io, e.Spec, nil))
	}
	root.AddCommand(newValidateCmd(io, nil), newModelCmd(io, nil), newReproduceCmd(io), newMergeCmd(io), newTraceCmd(io), newEnvCmd(io, nil))
	root.AddCommand(testbedCommands(io)...)
	root.AddCommand(analysisCommands(io)...)
	root.AddCommand(newColumnsCmd(io))
	registerCompletions(root)
	return root
}

// Main runs the command line args and returns the exit status. SIGINT and
// SIGTERM cancel the context: runs stop, finished results are kept.
func Main(args []string, io IO) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Execute(ctx, args, io)
}

// Execute runs the command line args under ctx and returns the exit status;
// cancelling ctx is an interruption (status 130).
func Execute(ctx context.Context, args []string, io IO) int {
	root := NewRoot(io)
	root.SetArgs(args)
	// Cobra's own errors (unknown command or flag, bad arguments) come before
	// any command runs, and they are all bad input.
	started := false
	root.PersistentPreRun = func(*cobra.Command, []string) { started = true }
	ctx = context.WithValue(ctx, argsKey{}, append([]string{"offload"}, args...))
	err := root.ExecuteContext(ctx)
	code := exitCode(err)
	if err != nil && !started && code == ExitFailure {
		code = ExitUsage
	}
	if err != nil {
		if code == ExitInterrupted {
			fmt.Fprintln(io.Err, "offload: interrupted")
		} else {
			fmt.Fprintln(io.Err, "offload:", err)
		}
	}
	return code
}

// argsKey carries the command line in the context, for manifests.
type argsKey struct{}

// cmdArgs is the command line Execute was given.
func cmdArgs(ctx context.Context) []string {
	a, _ := ctx.Value(argsKey{}).([]string)
	return a
}

// noArgs rejects positional arguments as bad input.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		hint := ""
		if c.Flags().Lookup("file") != nil {
			hint = " (a scenario goes after -f)"
		}
		return badInputf("%s takes no arguments, got %q%s", subPath(c), args, hint)
	}
	return nil
}

// subPath is c's command path without the root's name: Execute prefixes
// every message with "offload:", and "offload: offload mape:" says it twice.
func subPath(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}
