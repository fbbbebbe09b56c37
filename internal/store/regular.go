package store

import (
	"context"
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
	return ReadRegularContext(context.Background(), path, max)
}

// ReadRegularContext is ReadRegular whose read ends with ctx's error once
// ctx is done.
func ReadRegularContext(ctx context.Context, path string, max int64) ([]byte, error) {
	f, err := OpenRegular(ctx, path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// OpenRegular opens the file at path for reading, with ReadRegular's checks:
// only a regular file of at most max bytes. Its reads fail with a
// *TooLargeError once more than max bytes have been read (a file that grew
// after the check), and with ctx's error once ctx is done, so that a long
// read can be interrupted. Errors name the path.
func OpenRegular(ctx context.Context, path string, max int64) (io.ReadCloser, error) {
	if max < 0 {
		return nil, fmt.Errorf("%s: negative size limit %d", path, max)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
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
		f.Close()
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Max: max}
	}
	return &regularFile{ctx: ctx, f: f, path: path, max: max}, nil
}

// regularFile is OpenRegular's reader.
type regularFile struct {
	ctx  context.Context
	f    *os.File
	path string
	max  int64
	n    int64 // bytes read so far
}

func (r *regularFile) Read(b []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	// One byte past the limit is enough to tell a file that grew.
	n, err := r.f.Read(b[:min(int64(len(b)), r.max-r.n+1)])
	r.n += int64(n)
	if r.n > r.max {
		return 0, &TooLargeError{Path: r.path, Size: r.n, Max: r.max}
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", r.path, err)
	}
	return n, err
}

func (r *regularFile) Close() error { return r.f.Close() }

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
