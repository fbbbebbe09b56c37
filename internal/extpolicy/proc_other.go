//go:build !unix

package extpolicy

import (
	"os/exec"
	"syscall"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// signalGroup kills the program itself where there are no process groups
// (and no SIGTERM).
func signalGroup(cmd *exec.Cmd, _ syscall.Signal) { _ = cmd.Process.Kill() }
