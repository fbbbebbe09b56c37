//go:build unix

package extpolicy

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the program as the leader of a process group of its own,
// so that signalGroup reaches whatever it spawns, and a terminal's Ctrl-C
// reaches offload alone (which then ends the program itself).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the program's process group; a group already
// gone is not an error.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
