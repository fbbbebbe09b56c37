//go:build unix

package extpolicy

import (
	"os"
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

// pipe makes a pipe whose ends block: reads and writes are plain system
// calls, not the runtime poller's (which, with a deadline per message,
// costs a round trip about a third more).
func pipe() (r, w *os.File, err error) {
	// Pipe and close-on-exec under ForkLock, as os.Pipe does where there
	// is no pipe2, so that no program started meanwhile inherits the ends.
	var fds [2]int
	syscall.ForkLock.RLock()
	err = syscall.Pipe(fds[:])
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
