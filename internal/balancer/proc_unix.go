//go:build unix

package balancer

import (
	"os/exec"
	"syscall"
)

// supported: the balancers run where there are process groups.
func supported() error { return nil }

// ownGroup starts the program as the leader of a process group of its own,
// so that signalGroup reaches an nginx worker too, and a terminal's Ctrl-C
// reaches offload alone, which then stops the balancer itself.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeath(cmd.SysProcAttr)
}

// terminate asks the program to stop: SIGTERM stops HAProxy at once, and
// nginx's master stops its worker, then itself.
func terminate(cmd *exec.Cmd) { _ = cmd.Process.Signal(syscall.SIGTERM) }

// signalGroup sends sig to the program's process group; a group already
// gone is not an error.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) { _ = syscall.Kill(-cmd.Process.Pid, sig) }
