package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ErrNotRegular is matched (errors.Is) by ReadRegular's error for a path
// that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is ReadRegular's error for a file over its limit; the caller
// may name what the file is ("… limit for a scenario file").
type TooLargeError struct {
	Path      string
	Size, Max int64
}

// Error says how large the file is and what the limit is, in binary units.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: %s is over the %s limit", e.Path, FormatSize(e.Size), FormatSize(e.Max))
}

// ReadRegular reads the file at path only if it is a regular file of at most
// max bytes. A scenario path given by the user may be /dev/zero, a FIFO or a
// folder: os.ReadFile would never return, block, or fail obscurely. The file
// is opened without blocking (a FIFO without writer would hang the open),
// checked with fstat on the open file (no race with a rename), and read
// through a limit of max+1 bytes, so that a file that grows after the check
// is still caught and never read whole.
func ReadRegular(path string, max int64) ([]byte, error) {
	if max < 0 {
		return nil, fmt.Errorf("%s: negative size limit %d", path, max)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		what := ""
		switch {
		case fi.IsDir():
			what = " (a folder)"
		case fi.Mode()&os.ModeNamedPipe != 0:
			what = " (a FIFO)"
		case fi.Mode()&os.ModeDevice != 0:
			what = " (a device)"
		case fi.Mode()&os.ModeSocket != 0:
			what = " (a socket)"
		}
		return nil, fmt.Errorf("%s: %w%s", path, ErrNotRegular, what)
	}
	if fi.Size() > max {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Max: max}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Size: int64(len(b)), Max: max}
	}
	return b, nil
}

// FormatSize writes n bytes in binary units with at most one decimal
// ("5 MiB", "1.5 KiB", "17 bytes"), as a user reads a limit.
func FormatSize(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		if n == 1 {
			return "1 byte"
		}
		return strconv.FormatInt(n, 10) + " bytes"
	}
	v := float64(n)
	u := ""
	for _, u = range units {
		v /= 1024
		if v < 1024 {
			break
		}
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + u
}
