package balancer

import "syscall"

// parentDeath has the kernel send the program SIGTERM if offload dies
// without stopping it (killed, say), so that no balancer outlives its run
// holding a port. SIGTERM rather than SIGKILL: nginx's master then stops
// its worker, which a killed master would leave running.
func parentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
