//go:build unix && !linux

package balancer

import "syscall"

// parentDeath does nothing where the kernel cannot signal a child when its
// parent dies.
func parentDeath(*syscall.SysProcAttr) {}
