package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrLocked is matched (errors.Is) by the error of an Open refused because
// another Dir, in this process or another, holds the folder.
var ErrLocked = errors.New("folder locked by another offload process")

// LockedError is the error of such an Open.
type LockedError struct {
	Dir string
	PID int // the holder's, from the lock file; 0 if it had not written it yet
}

// Error names the folder and, when known, the holder's pid, so that the user
// can tell a forgotten background run from a stuck one.
func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("another offload process is writing %s (pid %d)", e.Dir, e.PID)
	}
	return fmt.Sprintf("another offload process is writing %s", e.Dir)
}

// Is makes errors.Is(err, ErrLocked) hold.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lock takes the folder's flock. It retries when the file it locked was
// removed (by a holder's unlock) between its open and its flock: a lock on
// an unlinked file excludes nobody.
func lock(dir string) (*os.File, error) {
	p := filepath.Join(dir, lockName)
	for range 20 {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			pid := readPID(f)
			_ = f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &LockedError{Dir: dir, PID: pid}
			}
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if !samePath(f, p) {
			_ = f.Close()
			continue
		}
		// The pid is for the message of the process refused; the lock is
		// the flock, not the file's contents.
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return f, nil
	}
	return nil, fmt.Errorf("lock %s: %s keeps being replaced", dir, lockName)
}

// unlock removes the lock file while still holding it (so that nobody can
// lock the doomed file in between without noticing), then releases it.
func unlock(f *os.File) error {
	if samePath(f, f.Name()) {
		_ = os.Remove(f.Name())
	}
	return f.Close() // the last descriptor: the kernel drops the flock
}

func flock(f *os.File, how int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			if ferr = syscall.Flock(int(fd), how); ferr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}

// samePath says whether the open file f is still the file at p.
func samePath(f *os.File, p string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Stat(p)
	return err == nil && os.SameFile(fi, pi)
}

// readPID reads the holder's pid; 0 if unreadable (the holder may not have
// written it yet).
func readPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid < 0 {
		return 0
	}
	return pid
}
