//go:build !unix

package balancer

import (
	"errors"
	"os/exec"
	"syscall"
)

// supported: without process groups and SIGTERM, a balancer could not be
// stopped as Stop promises.
func supported() error {
	return errors.New("real balancers run on Unix systems only (Linux, the BSDs, macOS)")
}

func ownGroup(*exec.Cmd)                          {}
func terminate(cmd *exec.Cmd)                     { _ = cmd.Process.Kill() }
func signalGroup(cmd *exec.Cmd, _ syscall.Signal) { _ = cmd.Process.Kill() }
