package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes dir/name through write so that a reader (or a
// --resume after a crash) sees either the old file or the complete new one,
// never a prefix: it writes a temporary file in dir (same file system, so the
// rename is atomic), syncs it, and renames it over name. On any error the
// temporary file is removed and an existing dir/name is left as it was. The
// file gets mode 0644, like results a user will share.
func WriteFileAtomic(dir, name string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(dir, name), err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close() // already failed; the first error is the one to report
			_ = os.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", filepath.Join(dir, name), err)
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes the rename itself durable. Some systems cannot sync a
// directory (it is refused with EINVAL or similar); the file is complete and
// renamed by then, so only an open failure is reported.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	_ = d.Sync()
	return d.Close()
}

// Folder is where the plot functions write their file: an output folder
// that records what it wrote (internal/store's Dir), or a plain Dir.
type Folder interface {
	WriteFile(name string, write func(io.Writer) error) error
}

// Dir is a plain folder: WriteFile writes atomically with WriteFileAtomic.
type Dir string

// WriteFile implements Folder.
func (d Dir) WriteFile(name string, write func(io.Writer) error) error {
	return WriteFileAtomic(string(d), name, write)
}
