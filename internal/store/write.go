package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// WriteFile writes name (a relative slash path; its folders are created as
// needed) through write, atomically, and records it as offload's. It refuses
// a name that exists as a file offload did not write (errors.Is ErrForeign).
// On error an existing file of that name is left as it was, and no
// temporary file remains.
func (d *Dir) WriteFile(name string, write func(io.Writer) error) error {
	f, err := d.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		_ = f.Abort()
		return fmt.Errorf("write %s: %w", d.full(name), err)
	}
	return f.Close()
}

// File is a file being written by Create: its bytes go to a temporary file
// beside the target, which Close renames into place. A File is not safe for
// concurrent use; distinct Files are.
type File struct {
	d    *Dir
	name string
	tmp  *os.File
	w    *bufio.Writer
	err  error // the first write error
	done bool
	res  error // Close's result, for a second Close
}

// Create starts an atomic write of name for a file too big to hold in memory
// (a per-task trace): the caller writes, then Close renames the whole file
// into place, while Abort (or a Close after a failed Write) removes it, so
// that a file under its final name is always complete. Writes are buffered.
// The same checks as WriteFile's apply, at Create and again at Close.
func (d *Dir) Create(name string) (*File, error) {
	if err := d.writable(name); err != nil {
		return nil, err
	}
	if err := d.mkParents(name); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(d.full(name)), "."+path.Base(name)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", d.full(name), err)
	}
	return &File{d: d, name: name, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

// Write writes to the temporary file; after an error it writes nothing more
// and returns that error again.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("write %s: %w", f.d.full(f.name), os.ErrClosed)
	}
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.w.Write(p)
	if err != nil {
		f.err = err
	}
	return n, err
}

// Close completes the file: flush, fsync, record the name as offload's,
// rename over the target, fsync the folder. After a failed Write, or on any
// error, it removes the temporary file instead and returns the error; a
// second Close returns the first one's result.
func (f *File) Close() error {
	if f.done {
		return f.res
	}
	f.done = true
	f.res = f.finish()
	return f.res
}

// Abort abandons the file: the temporary file is removed and the target left
// as it was. It is a no-op after Close or Abort, so `defer f.Abort()` is
// safe beside an explicit Close.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	f.res = fmt.Errorf("write %s: aborted", f.d.full(f.name))
	_ = f.tmp.Close()
	return ignoreMissing(os.Remove(f.tmp.Name()))
}

func (f *File) finish() (err error) {
	target := f.d.full(f.name)
	defer func() {
		if err != nil {
			_ = f.tmp.Close() // already failing; the first error is the one to report
			_ = os.Remove(f.tmp.Name())
			err = fmt.Errorf("write %s: %w", target, err)
		}
	}()
	if f.err != nil {
		return f.err
	}
	if err := f.w.Flush(); err != nil {
		return err
	}
	// 0644 like results a user will share; CreateTemp makes 0600.
	if err := f.tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := f.tmp.Sync(); err != nil {
		return err
	}
	if err := f.tmp.Close(); err != nil {
		return err
	}
	if err := f.d.claim(f.name); err != nil {
		return err
	}
	if err := os.Rename(f.tmp.Name(), target); err != nil {
		return err
	}
	return syncDir(filepath.Dir(target))
}

// writable checks that name may be written now.
func (d *Dir) writable(name string) error {
	if !validName(name) {
		return fmt.Errorf("output folder %s: %q is not a relative slash path inside the folder", d.path, name)
	}
	if reserved(name) {
		return fmt.Errorf("output folder %s: %s is the folder's own (WriteManifest writes the manifest)", d.path, name)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return errClosed
	}
	if d.needManifest {
		return fmt.Errorf("output folder %s: %s still names another scenario; WriteManifest (after RemoveStale) comes before the first result", d.path, ManifestName)
	}
	return d.foreignLocked(name)
}

// foreignLocked is the error for a name that exists but is not offload's.
func (d *Dir) foreignLocked(name string) error {
	if d.owned[name] && d.realParents(name) {
		return nil
	}
	_, err := os.Lstat(d.full(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s: %w; it is left as it is", d.full(name), ErrForeign)
}

// claim records name as offload's just before its rename: in memory, and
// for a new name in the journal, synced, so that a crash after the rename
// leaves the file known as offload's to the next Open.
func (d *Dir) claim(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return errClosed
	}
	if err := d.foreignLocked(name); err != nil { // appeared while we wrote
		return err
	}
	if d.owned[name] {
		return nil
	}
	if d.journal == nil {
		j, err := os.OpenFile(d.full(journalName), os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if err != nil {
			return err
		}
		d.journal = j
	}
	if _, err := d.journal.WriteString(name + "\n"); err != nil {
		return err
	}
	if err := d.journal.Sync(); err != nil {
		return err
	}
	d.owned[name] = true
	return nil
}

// realParents says whether every folder on name's path inside the folder is
// a real folder (or missing), not a link that leads elsewhere.
func (d *Dir) realParents(name string) bool {
	dir := path.Dir(name)
	if dir == "." {
		return true
	}
	p := d.path
	for _, c := range strings.Split(dir, "/") {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return true
		}
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// mkParents creates the folders of name inside the folder. An existing one
// must be a real folder: a link could lead the write out of the folder.
func (d *Dir) mkParents(name string) error {
	dir := path.Dir(name)
	if dir == "." {
		return nil
	}
	p := d.path
	for _, c := range strings.Split(dir, "/") {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if err = os.Mkdir(p, 0o755); errors.Is(err, fs.ErrExist) {
				fi, err = os.Lstat(p) // a concurrent Create made it
			}
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", d.full(name), err)
		}
		if fi != nil && !fi.IsDir() {
			return fmt.Errorf("write %s: %s is not a folder", d.full(name), p)
		}
	}
	return nil
}

// Remove removes offload's files of these names; a missing file is fine. A
// name that exists but is not offload's is left and reported (errors.Is
// ErrForeign); the others are removed all the same.
func (d *Dir) Remove(names ...string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return errClosed
	}
	var errs []error
	for _, n := range names {
		if !validName(n) || reserved(n) {
			errs = append(errs, fmt.Errorf("output folder %s: remove %q: not a result file name", d.path, n))
			continue
		}
		if !d.owned[n] {
			if err := d.foreignLocked(n); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		errs = append(errs, d.removeLocked(n))
	}
	return errors.Join(errs...)
}

// RemoveStale removes every file offload owns here (from the old manifest or
// written in this session) for which keep is false; a nil keep keeps
// nothing. It is how a rerun clears the plots and derived files of the
// previous one without a list of names: the caller keeps runs.csv for
// --resume, and traces/… unless it means them to go (a rerun without
// --trace of the same scenario has no reason to delete valid traces; a new
// scenario's has every reason).
func (d *Dir) RemoveStale(keep func(name string) bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return errClosed
	}
	var errs []error
	for _, n := range slices.Sorted(maps.Keys(d.owned)) {
		if keep == nil || !keep(n) {
			err := d.removeLocked(n)
			if err == nil {
				d.stale = append(d.stale, n)
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Gone lists, in name order, the files RemoveStale removed that this
// session has not written again: an earlier command's outputs (a report,
// a comparison, a re-plot) that the folder no longer holds, for the
// caller to say so.
func (d *Dir) Gone() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var gone []string
	for _, n := range d.stale {
		if !d.owned[n] {
			gone = append(gone, n)
		}
	}
	return gone
}

// removeLocked removes an owned file, and the folders above it that this
// leaves empty (a folder that held only offload's files is offload's).
func (d *Dir) removeLocked(name string) error {
	if !d.realParents(name) { // a folder swapped for a link: not ours to follow
		delete(d.owned, name)
		return fmt.Errorf("remove %s: a folder on its path is not a real folder; left as it is", d.full(name))
	}
	if err := ignoreMissing(os.Remove(d.full(name))); err != nil {
		return err
	}
	delete(d.owned, name)
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if os.Remove(d.full(dir)) != nil {
			break // not empty (or not there): stop
		}
	}
	return nil
}

// WriteManifest writes manifest.json atomically, with Files from the
// ownership record; then the journal, folded in, goes. An empty Tool,
// ScenarioHash or Experiment is filled in (offload, Options.Hash,
// Options.Experiment); another hash than Options.Hash is refused, since the
// folder was checked for that one.
func (d *Dir) WriteManifest(m Manifest) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.writeManifest(m)
}

// Refresh writes the manifest that WriteManifest wrote last in this
// session again, its Files now naming every file written since (a run's
// summary and plots come after the manifest that says it is complete),
// and drops the journal: what a command calls once it has written its last
// file, so that the manifest lists them all. Without such a manifest it
// does nothing. The values of the manifest's Extra are not copied: a
// caller builds them for the manifest and does not change them after.
func (d *Dir) Refresh() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return errClosed
	}
	if !d.wrote {
		return nil
	}
	return d.writeManifest(d.last)
}

func (d *Dir) writeManifest(m Manifest) error {
	if d.lock == nil {
		return errClosed
	}
	if m.Tool == "" {
		m.Tool = Tool
	}
	if m.ScenarioHash == "" {
		m.ScenarioHash = d.opts.Hash
	}
	if m.Experiment == "" {
		m.Experiment = d.opts.Experiment
	}
	if m.ScenarioHash != d.opts.Hash {
		return fmt.Errorf("output folder %s: manifest of scenario sha256 %.12s…, but the folder was opened for %.12s…", d.path, m.ScenarioHash, d.opts.Hash)
	}
	m.Files = slices.Sorted(maps.Keys(d.owned))
	b, err := encodeManifest(m)
	if err != nil {
		return err
	}
	if err := writeAtomic(d.path, ManifestName, b); err != nil {
		return err
	}
	d.needManifest = false
	d.last, d.wrote = m, true
	d.last.Command, d.last.Files, d.last.Extra = slices.Clone(m.Command), nil, maps.Clone(m.Extra)
	if d.journal != nil {
		_ = d.journal.Close()
		d.journal = nil
	}
	return ignoreMissing(os.Remove(d.full(journalName)))
}

// writeAtomic writes a small file of the folder itself.
func writeAtomic(dir, name string, b []byte) error {
	return WriteAtomic(dir, name, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// WriteAtomic writes dir/name through write so that a reader (or a
// --resume after a crash) sees either the old file or the complete new one,
// never a prefix: a temporary file in dir (same file system, so the rename
// is atomic), synced, renamed over name, the folder synced. On any error the
// temporary file is removed and an existing dir/name is left as it was. The
// file gets mode 0644, like results a user will share. It is the one atomic
// write of the module; Dir adds the ownership record on top.
func WriteAtomic(dir, name string, write func(io.Writer) error) (err error) {
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

// syncDir makes a rename durable. Some systems cannot sync a folder; the
// file is complete and renamed by then, so only an open failure counts.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	_ = f.Sync()
	return f.Close()
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
