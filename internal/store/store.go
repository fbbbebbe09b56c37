package store

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Options say what a command is about to write into a folder.
type Options struct {
	// Hash is the scenario hash of the new results.
	Hash string
	// Force may replace offload's own files of another scenario, and write
	// beside unrelated files in a folder without a manifest. It never
	// touches a file offload did not write.
	Force bool
	// Resume keeps the runs already here, so the folder's hash must be Hash
	// (or Extends).
	Resume bool
	// Extends, with Resume, is the hash of a scenario whose runs the new one
	// contains (the same scenario with fewer replicates): a folder of that
	// hash is resumed too, its runs kept, and the manifest must be replaced
	// before anything else is written.
	Extends string
	// Experiment names the new results; WriteManifest uses it when the
	// manifest it is given has none.
	Experiment string
	// Writes are the names the command will write (runs.csv, summary.csv,
	// mean_latency.png; a folder as "traces/"), so that a foreign file of one
	// of those names refuses the folder before the first run rather than at
	// the end of a long one.
	Writes []string
}

// Dir is an output folder opened for writing: locked against other offload
// processes, and knowing which of its files are offload's. Its methods are
// safe for concurrent use (the runs of -j write traces side by side).
type Dir struct {
	path string
	opts Options
	old  Manifest
	// hasOld: the folder had an offload manifest when opened.
	hasOld bool

	mu      sync.Mutex
	lock    *os.File // nil once closed
	owned   map[string]bool
	journal *os.File // .offload.files, opened at the first new name
	// needManifest: the folder's manifest is of another scenario, and no
	// result may be written before WriteManifest replaces it.
	needManifest bool
	// last is the manifest WriteManifest wrote last in this session, for
	// Refresh; wrote says there is one.
	last  Manifest
	wrote bool
	// stale lists what RemoveStale removed, for Gone.
	stale []string
}

// Open opens dir for results described by o, creating it if needed; the
// package comment gives the rules. On error nothing has been created or
// changed on disk, and the error is a *Refusal (errors.Is ErrRefused), a
// *LockedError (errors.Is ErrLocked), or an I/O error.
func Open(dir string, o Options) (_ *Dir, err error) {
	if dir == "" {
		return nil, errors.New("output folder: empty name")
	}
	writes := make([]string, 0, len(o.Writes))
	for _, w := range o.Writes {
		if !validName(strings.TrimSuffix(w, "/")) {
			return nil, fmt.Errorf("output folder: Options.Writes: %q is not a relative slash path inside the folder", w)
		}
		if !reserved(strings.TrimSuffix(w, "/")) { // the manifest is checked on its own
			writes = append(writes, w)
		}
	}
	created, err := mkdirs(dir)
	if err != nil {
		return nil, err
	}
	lk, err := lock(dir)
	if err != nil {
		if !errors.Is(err, ErrLocked) { // if locked, the folder is another process's now
			removeDirs(created)
		}
		return nil, err
	}
	d := &Dir{path: dir, opts: o, lock: lk, owned: map[string]bool{}}
	defer func() {
		if err != nil {
			_ = unlock(lk)
			removeDirs(created)
		}
	}()
	if err := d.inspect(writes); err != nil {
		return nil, err
	}
	d.sweepDebris(writes)
	return d, nil
}

// debrisName is the name of a temporary file of an atomic write:
// os.CreateTemp's "."+name+".tmp-<digits>", as Dir and chart.WriteFileAtomic
// make them. One left behind is debris of a killed offload (the file it was
// to become never took its place); counting it as foreign would refuse the
// next run over offload's own litter.
var debrisName = regexp.MustCompile(`^\..+\.tmp-[0-9]+$`)

func isDebris(e fs.DirEntry) bool { return e.Type().IsRegular() && debrisName.MatchString(e.Name()) }

// sweepDebris removes the debris in the folder, in its folders of owned
// files and under the folders the command writes. It runs only once Open has
// accepted the folder and holds the lock, so no live write's temporary file
// can be among them; it is best effort, as debris harms nothing.
func (d *Dir) sweepDebris(writes []string) {
	dirs := map[string]bool{".": true}
	for n := range d.owned {
		dirs[path.Dir(n)] = true
	}
	for dir := range dirs {
		if !d.realParents(dir + "/x") {
			continue
		}
		entries, _ := os.ReadDir(d.full(dir))
		for _, e := range entries {
			if isDebris(e) {
				_ = os.Remove(filepath.Join(d.full(dir), e.Name()))
			}
		}
	}
	for _, w := range writes {
		sub, ok := strings.CutSuffix(w, "/")
		if fi, err := os.Lstat(d.full(sub)); !ok || err != nil || !fi.IsDir() || !d.realParents(w+"x") {
			continue
		}
		_ = filepath.WalkDir(d.full(sub), func(p string, e fs.DirEntry, err error) error {
			if err == nil && isDebris(e) {
				_ = os.Remove(p)
			}
			return nil
		})
	}
}

// ErrNotFolder is matched by Open's error when the folder, or one of its
// parents, exists as something else (a regular file, say): bad input,
// with nothing written.
var ErrNotFolder = errors.New("not a folder")

// mkdirs creates dir and its missing parents, returning those it created,
// outermost first, so that a failed Open can take them back.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for p := filepath.Clean(dir); ; {
		fi, err := os.Stat(p)
		if err == nil {
			if fi.Mode().IsRegular() {
				// Said outright: -o naming an existing file is a slip
				// (a typo, or the file meant for -f).
				return nil, fmt.Errorf("output folder %s: %s is a regular file, %w: give -o a folder", dir, p, ErrNotFolder)
			}
			if !fi.IsDir() {
				return nil, fmt.Errorf("output folder %s: %s is %w", dir, p, ErrNotFolder)
			}
			break
		}
		// ENOTDIR: some parent is a file; going up finds it and says so.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return nil, fmt.Errorf("output folder %s: %w", dir, err)
		}
		missing = append(missing, p)
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	var created []string
	for _, p := range slices.Backward(missing) {
		if err := os.Mkdir(p, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // another process's: not ours to remove
			}
			removeDirs(created)
			return nil, fmt.Errorf("output folder %s: %w", dir, err)
		}
		created = append(created, p)
	}
	return created, nil
}

// removeDirs removes the folders mkdirs created, innermost first; os.Remove
// leaves any that something else has written into since.
func removeDirs(created []string) {
	for _, p := range slices.Backward(created) {
		_ = os.Remove(p)
	}
}

// inspect reads the folder's manifest and ownership record and applies the
// rules of Open.
func (d *Dir) inspect(writes []string) error {
	o := d.opts
	notOurs := d.readOld()
	if err := d.loadOwned(); err != nil {
		return err
	}
	foreign, more := d.inTheWay(writes)
	if notOurs != nil {
		foreign = append([]string{ManifestName}, foreign...)
		if len(foreign) > maxListed {
			foreign, more = foreign[:maxListed], more+1
		}
	}
	if len(foreign) > 0 {
		return &Refusal{Kind: ForeignFiles, Dir: d.path, Hash: o.Hash, Files: foreign, More: more, Cause: notOurs}
	}
	if d.hasOld {
		return d.reuse()
	}
	if o.Force {
		return nil
	}
	if others, more, err := d.unowned(); err != nil {
		return err
	} else if len(others) > 0 {
		return &Refusal{Kind: NotOffload, Dir: d.path, Hash: o.Hash, Files: others, More: more}
	}
	return nil
}

// readOld reads the folder's manifest, if there is one of offload's, into
// d.old; it returns why a manifest.json there is not offload's.
func (d *Dir) readOld() (notOurs error) {
	b, err := ReadRegular(filepath.Join(d.path, ManifestName), maxManifest)
	switch {
	case err == nil:
		if d.old, notOurs = parseManifest(b); notOurs == nil {
			d.hasOld = true
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		notOurs = err
	}
	return notOurs
}

// reuse applies Open's rules to a folder that holds offload's manifest:
// the same scenario, one it extends on resume, or another only with Force.
func (d *Dir) reuse() error {
	o := d.opts
	if d.old.ScenarioHash == o.Hash {
		return nil
	}
	old := d.old
	old.Files = slices.Clone(old.Files)
	switch {
	case o.Resume && o.Extends != "" && d.old.ScenarioHash == o.Extends:
		d.needManifest = true
		return nil
	case o.Resume:
		return &Refusal{Kind: ResumeMismatch, Dir: d.path, Old: &old, Hash: o.Hash}
	case !o.Force:
		return &Refusal{Kind: OtherScenario, Dir: d.path, Old: &old, Hash: o.Hash}
	}
	d.needManifest = true
	return nil
}

// loadOwned gathers the names offload wrote here: the manifest's Files (or
// the legacy set) and the journal of a session that ended before its last
// WriteManifest. Only names that are regular files now count: a name the
// user deleted, or replaced by a folder or a link, is no longer offload's.
func (d *Dir) loadOwned() error {
	var names []string
	if d.hasOld {
		if d.old.Files == nil {
			legacy, err := legacyFiles(d.path)
			if err != nil {
				return fmt.Errorf("output folder %s: %w", d.path, err)
			}
			names = legacy
		} else {
			names = slices.Clone(d.old.Files)
		}
	}
	// The journal is written only by Dir, after an Open that succeeded; a
	// line that is not a valid name is ignored (a torn last line).
	if b, err := ReadRegular(filepath.Join(d.path, journalName), maxManifest); err == nil {
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			names = append(names, sc.Text())
		}
	}
	for _, n := range names {
		if !validName(n) || reserved(n) {
			continue
		}
		if fi, err := os.Lstat(d.full(n)); err == nil && fi.Mode().IsRegular() && d.realParents(n) {
			d.owned[n] = true
		}
	}
	return nil
}

// inTheWay lists the names of writes that exist but are not offload's (for a
// folder entry, the files under it that are not), at most maxListed of them.
func (d *Dir) inTheWay(writes []string) (names []string, more int) {
	add := func(n string) bool {
		if slices.Contains(names, n) {
			return true
		}
		if len(names) == maxListed {
			more++
			return more < 1000 // enough to say "and many more"; stop walking
		}
		names = append(names, n)
		return true
	}
	for _, w := range writes {
		if !strings.HasSuffix(w, "/") {
			if fi, err := os.Lstat(d.full(w)); err == nil && !(fi.Mode().IsRegular() && d.owned[w]) {
				add(w)
			}
			continue
		}
		sub := strings.TrimSuffix(w, "/")
		fi, err := os.Lstat(d.full(sub))
		if err != nil {
			continue
		}
		if !fi.IsDir() { // a file or a link where offload needs a folder
			add(sub)
			continue
		}
		d.foreignIn(w, add)
	}
	slices.Sort(names)
	return names, more
}

// foreignIn hands add every file in folder w ("name/") that offload did
// not write, or w itself if it cannot be read; it stops when add says so.
func (d *Dir) foreignIn(w string, add func(string) bool) {
	_ = filepath.WalkDir(d.full(strings.TrimSuffix(w, "/")), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			add(w) // unreadable: not known to be offload's alone
			return fs.SkipAll
		}
		if e.IsDir() || isDebris(e) {
			return nil
		}
		rel, rerr := filepath.Rel(d.path, p)
		if rerr != nil {
			return rerr
		}
		if rel = filepath.ToSlash(rel); !d.owned[rel] && !add(rel) {
			return fs.SkipAll
		}
		return nil
	})
}

// unowned lists the folder's top-level entries that are not offload's: not
// owned files, not control files, not folders that hold owned files.
func (d *Dir) unowned() (names []string, more int, err error) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, 0, fmt.Errorf("output folder %s: %w", d.path, err)
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case n == lockName || n == journalName || d.owned[n] || isDebris(e):
			continue
		case e.IsDir():
			if d.ownsUnder(n + "/") {
				continue
			}
			n += "/"
		}
		if len(names) == maxListed {
			more++
			continue
		}
		names = append(names, n)
	}
	return names, more, nil
}

// ownsUnder says whether an owned name starts with prefix.
func (d *Dir) ownsUnder(prefix string) bool {
	for n := range d.owned {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// Path is the folder, as given to Open.
func (d *Dir) Path() string { return d.path }

// Old is the manifest the folder had when opened, if it had one of offload;
// its Files are those of the manifest (nil for a legacy one).
func (d *Dir) Old() (Manifest, bool) {
	m := d.old
	m.Command = slices.Clone(m.Command)
	m.Files = slices.Clone(m.Files)
	return m, d.hasOld
}

// Owns says whether name is one of offload's files here (from the old
// manifest, or written in this session).
func (d *Dir) Owns(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.owned[name]
}

// Close releases the lock; it is idempotent. A journal of names written
// since the last WriteManifest stays, for the next Open.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == nil {
		return nil
	}
	var errs []error
	if d.journal != nil {
		errs = append(errs, d.journal.Close())
		d.journal = nil
	}
	errs = append(errs, unlock(d.lock))
	d.lock = nil
	return errors.Join(errs...)
}

// errClosed is the error of a use of a closed Dir.
var errClosed = errors.New("output folder: already closed")

// full is the OS path of a name.
func (d *Dir) full(name string) string { return filepath.Join(d.path, filepath.FromSlash(name)) }

// validName says whether name is a clean relative slash path inside the
// folder, without control characters (the journal is one name a line).
func validName(name string) bool {
	if name == "" || path.Clean(name) != name || !filepath.IsLocal(filepath.FromSlash(name)) {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// reserved names are the package's own: written only by WriteManifest or
// not at all.
func reserved(name string) bool {
	return name == ManifestName || name == lockName || name == journalName
}
