package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/store"
)

// Folder is an output folder as OpenFolder opens it (store.Dir): its
// files written atomically, its lock held until Close. Named here so
// that a command's package that writes through the runner need not
// import the store for the type alone.
type Folder = store.Dir

// ErrBadInput marks an error the user can fix (exit status 2): cmd maps
// every error that wraps it to a usage error.
var ErrBadInput = errors.New("bad input")

// BadInputf formats a bad-input error.
func BadInputf(format string, args ...any) error {
	return &inputError{fmt.Errorf(format, args...)}
}

// inputError wraps a message so that errors.Is(err, ErrBadInput) holds
// while the text stays the message alone.
type inputError struct{ err error }

func (e *inputError) Error() string        { return e.err.Error() }
func (e *inputError) Unwrap() error        { return e.err }
func (e *inputError) Is(target error) bool { return target == ErrBadInput }

// BadInput marks err as bad input.
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	return &inputError{err}
}

// Manifest records what produced a folder of results (internal/store's).
type Manifest = store.Manifest

// ManifestFile is the name of a results folder's manifest.
const ManifestFile = store.ManifestName

// openDir opens an output folder for results of the scenario with this
// hash (internal/store: refused when it holds another scenario's results
// without force, foreign files in the way, or another process writing it)
// and removes the stale files of an earlier command: everything offload
// wrote there before, except the runs of this scenario under --resume, and
// the traces unless this command writes traces of its own. Every refusal is
// bad input, with nothing written.
func openDir(dir, hash, experiment string, force, resume, trace, timed bool, writes, runFiles []string) (*store.Dir, error) {
	return openDirExtending(dir, hash, "", experiment, force, resume, trace, timed, writes, runFiles)
}

// openDirExtending is openDir that, under --resume, also takes a folder of
// the scenario hash extends (the same scenario with fewer replicates) and
// keeps its runs: they are runs of the new plan.
func openDirExtending(dir, hash, extends, experiment string, force, resume, trace, timed bool, writes, runFiles []string) (*store.Dir, error) {
	d, err := store.Open(dir, store.Options{Hash: hash, Extends: extends, Force: force, Resume: resume, Experiment: experiment, Writes: writes})
	if err != nil {
		if errors.Is(err, store.ErrRefused) || errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrForeign) || errors.Is(err, store.ErrNotFolder) {
			return nil, BadInput(err)
		}
		return nil, err
	}
	old, had := d.Old()
	same := had && (old.ScenarioHash == hash || extends != "" && old.ScenarioHash == extends)
	if resume && same && old.TimeDecisions != timed {
		d.Close()
		return nil, BadInputf("--resume: -o %s was run with --time-decisions=%v; resume with the same setting", dir, old.TimeDecisions)
	}
	keep := func(name string) bool {
		if strings.HasPrefix(name, "traces/") {
			return !trace || (resume && same)
		}
		if strings.HasPrefix(name, policyLogDir) { // the finished runs' logs stay with their rows
			return resume && same
		}
		return resume && same && slices.Contains(runFiles, name)
	}
	if err := d.RemoveStale(keep); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// ReadManifest reads dir's manifest (store.ReadManifest: a regular file
// of bounded size, offload's); a refused file is bad input.
func ReadManifest(dir string) (Manifest, error) {
	m, _, err := store.ReadManifest(dir)
	return m, refused(err)
}

// maxResultFile bounds the read of a results file (runs.csv of a
// paper-scale sweep is about 300 kB; a trace is never read here).
const maxResultFile = 1 << 30

// ReadResult reads a file of a results folder as the scenario Reader reads
// a scenario (store.ReadRegularContext): only a regular file of at most
// maxResultFile bytes, so that a link to /dev/zero, a FIFO or a huge file
// is refused at once (bad input), and the read ends once ctx is done.
func ReadResult(ctx context.Context, path string) ([]byte, error) {
	b, err := store.ReadRegularContext(ctx, path, maxResultFile)
	return b, refused(err)
}

// refused marks as bad input the refusals of store's regular-file readers:
// not a regular file, or over its size limit.
func refused(err error) error {
	var big *store.TooLargeError
	if errors.Is(err, store.ErrNotRegular) || errors.As(err, &big) {
		return BadInput(err)
	}
	return err
}

// readIfExists opens name in the folder and hands it to read; a missing
// file is not an error (nothing to resume) and read is not called.
func readIfExists(ctx context.Context, d *store.Dir, name string, read func(io.Reader) error) error {
	if !d.Owns(name) {
		return nil // nothing of ours to resume from
	}
	return readPath(ctx, filepath.Join(d.Path(), name), read)
}

// readPath hands the file at path to read, naming the path in read's
// error; a missing file is no error, and read is not called. The file is
// opened as ReadResult reads one.
func readPath(ctx context.Context, path string, read func(io.Reader) error) error {
	f, err := store.OpenRegular(ctx, path, maxResultFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return refused(err)
	}
	defer f.Close()
	if err := read(f); err != nil {
		return refused(fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

// Reader hands a file of a results folder to read, by its name in the
// folder; a file that is not there is no error, and read is not called. It
// lets --resume (an open store.Dir) and merge (shard folders it only reads,
// without taking their lock) share one reading code.
type Reader func(name string, read func(io.Reader) error) error

// dirReader reads the files offload owns in an open folder.
func dirReader(ctx context.Context, d *store.Dir) Reader {
	return func(name string, read func(io.Reader) error) error { return readIfExists(ctx, d, name, read) }
}

// folderReader reads the files of a folder that merge does not write.
func folderReader(ctx context.Context, dir string) Reader {
	return func(name string, read func(io.Reader) error) error {
		return readPath(ctx, filepath.Join(dir, name), read)
	}
}

// OpenFolder opens an output folder for a command that is not a Spec (the
// HTTP emulation, a reproduction's root): the same guard, lock and
// stale-file removal as an experiment's, for the names it writes; resume
// keeps a folder of the same hash.
func OpenFolder(dir, hash, experiment string, force, resume bool, writes []string) (*store.Dir, error) {
	return openDir(dir, hash, experiment, force, resume, false, false, writes, nil)
}

// AddToFolder opens a results folder to add files to it (a report, a
// comparison, a re-plot) under its own manifest: the same guard and lock
// as an experiment's, but nothing is removed, since the folder's results
// are what the new files are made from. writes are the names to be
// written; a foreign file of one of them refuses the folder. The caller
// writes, then calls WriteManifest with Old() to record the new files.
func AddToFolder(dir string, writes []string) (*store.Dir, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, BadInputf("%s: no offload manifest (%v): not a results folder", dir, err)
	}
	d, err := store.Open(dir, store.Options{Hash: m.ScenarioHash, Experiment: m.Experiment, Writes: writes})
	if err != nil {
		if errors.Is(err, store.ErrRefused) || errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrForeign) || errors.Is(err, store.ErrNotFolder) {
			return nil, BadInput(err)
		}
		return nil, err
	}
	return d, nil
}

// SameDir reports whether a and b name the same folder.
func SameDir(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
