package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, 5<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(small, []byte("seed: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		max  int64
		want string // "" for success
		is   error
	}{
		{"/dev/zero", 1 << 20, "/dev/zero: not a regular file (a device)", ErrNotRegular},
		{dir, 1 << 20, dir + ": not a regular file (a folder)", ErrNotRegular},
		{fifo, 1 << 20, fifo + ": not a regular file (a FIFO)", ErrNotRegular},
		{big, 1 << 20, big + ": 5 MiB is over the 1 MiB limit", nil},
		{small, 8, "", nil},
		{small, 7, small + ": 8 bytes is over the 7 bytes limit", nil},
		{filepath.Join(dir, "missing"), 10, "no such file", fs.ErrNotExist},
	} {
		b, err := ReadRegular(tc.path, tc.max)
		if tc.want == "" {
			if err != nil || string(b) != "seed: 1\n" {
				t.Errorf("%s: %q, %v", tc.path, b, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.path, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v is not %v", tc.path, err, tc.is)
		}
	}
	var tl *TooLargeError
	if _, err := ReadRegular(big, 1<<20); !errors.As(err, &tl) || tl.Size != 5<<20 || tl.Max != 1<<20 {
		t.Errorf("TooLargeError: %v", err)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1: "1 byte", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 5 << 20: "5 MiB", 3 << 30: "3 GiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// A read through OpenRegular ends with the context's error once it is done
// (an interrupted command stops reading a large file), and a file that has
// grown past the limit since it was opened is caught by the read itself.
func TestOpenRegularStopsAndBounds(t *testing.T) {
	name := filepath.Join(t.TempDir(), "runs.csv")
	if err := os.WriteFile(name, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f, err := OpenRegular(ctx, name, 2<<20)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<10)
	if _, err := f.Read(buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := f.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
	f.Close()
	if _, err := ReadRegularContext(ctx, name, 2<<20); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadRegularContext after cancel: %v, want context.Canceled", err)
	}

	f, err = OpenRegular(context.Background(), name, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("grown")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	var tl *TooLargeError
	if b, err := io.ReadAll(f); !errors.As(err, &tl) || tl.Max != 1<<20 || len(b) > 1<<20 {
		t.Errorf("read %d bytes of a grown file, error %v; want a TooLargeError at 1 MiB", len(b), err)
	}
}
