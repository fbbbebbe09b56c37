//go:build unix

package testbed

import "syscall"

// RaiseFDLimit raises the soft RLIMIT_NOFILE to the hard limit (Go's runtime
// already does so at start on most systems; this makes it explicit and
// reportable) and returns the limits found and set. A failure to raise it
// leaves the soft limit as it was and is reported in Err.
func RaiseFDLimit() FDLimit {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return FDLimit{Err: err}
	}
	l := FDLimit{Before: uint64(rl.Cur), Soft: uint64(rl.Cur), Hard: uint64(rl.Max)}
	if rl.Cur >= rl.Max {
		return l
	}
	up := rl
	up.Cur = up.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &up); err != nil {
		l.Err = err
		return l
	}
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err == nil {
		l.Soft = uint64(rl.Cur)
	}
	return l
}
