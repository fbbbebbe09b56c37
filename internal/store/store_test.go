package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const (
	hashA = "aaaaaaaaaaaa1111111111111111111111111111111111111111111111111111"
	hashB = "bbbbbbbbbbbb2222222222222222222222222222222222222222222222222222"
)

// lockHelperEnv makes the test binary, re-executed, a process that holds a
// folder's lock until it is killed.
const lockHelperEnv = "STORE_TEST_HOLD_LOCK"

// held keeps the helper's open folder from the garbage collector.
var held *Dir

func TestMain(m *testing.M) {
	if dir := os.Getenv(lockHelperEnv); dir != "" {
		d, err := Open(dir, Options{Hash: hashA})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
		fmt.Println("locked")
		// Until killed: asleep on a timer, which the runtime does not take
		// for a deadlock (select {} was, and the helper died at once,
		// dropping the lock before the test's Open on a busy machine), with
		// the Dir reachable (a collected Dir's file closes, dropping it too).
		held = d
		for {
			time.Sleep(time.Hour)
		}
	}
	os.Exit(m.Run())
}

// put writes files (name → contents) under dir; a name ending in / is a folder.
func put(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for n, c := range files {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// manifestJSON is a manifest of hash listing files (nil: a legacy one).
func manifestJSON(t *testing.T, hash string, files []string) string {
	t.Helper()
	m := map[string]any{"tool": "offload", "version": "test", "experiment": "sweep-load", "scenario_sha256": hash,
		"started": "2026-01-02T03:04:05Z", "complete": true, "runs": 2, "runs_done": 2}
	if files != nil {
		m["files"] = files
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tree maps every path under dir to its contents ("/" for a folder).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return fs.SkipAll
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case e.IsDir():
			got[rel+"/"] = "/"
		case e.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got[rel] = string(b)
		default:
			got[rel] = e.Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func mustOpen(t *testing.T, dir string, o Options) *Dir {
	t.Helper()
	d, err := Open(dir, o)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func writeString(t *testing.T, d *Dir, name, s string) {
	t.Helper()
	if err := d.WriteFile(name, func(w io.Writer) error { _, err := io.WriteString(w, s); return err }); err != nil {
		t.Fatal(err)
	}
}

func readManifestFile(t *testing.T, dir string) Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := parseManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOpenRules(t *testing.T) {
	writes := []string{"runs.csv", "summary.csv", "mean_latency.png", "traces/"}
	for _, tc := range []struct {
		name  string
		files map[string]string // nil: the folder does not exist
		sub   string            // Open dir/sub instead of dir
		o     Options
		kind  Kind     // 0: accepted
		want  []string // in the message
		not   []string // not in the message
	}{
		{name: "missing folder", sub: "a/b/c", o: Options{Hash: hashA}},
		{name: "empty folder", files: map[string]string{}, o: Options{Hash: hashA}},
		{name: "stale lock file only", files: map[string]string{lockName: "12345\n"}, o: Options{Hash: hashA}},
		{name: "same hash", files: map[string]string{ManifestName: manifestJSON(t, hashA, []string{"runs.csv"}), "runs.csv": "x"}, o: Options{Hash: hashA, Writes: writes}},
		{name: "same hash resume", files: map[string]string{ManifestName: manifestJSON(t, hashA, []string{"runs.csv"}), "runs.csv": "x"}, o: Options{Hash: hashA, Resume: true, Writes: writes}},
		{name: "other hash", files: map[string]string{ManifestName: manifestJSON(t, hashA, []string{"runs.csv"}), "runs.csv": "x"}, o: Options{Hash: hashB, Writes: writes},
			kind: OtherScenario, want: []string{"another scenario", "sweep-load", "sha256 aaaaaaaaaaaa…", "--force"}, not: []string{"aaaaaaaaaaaa1"}},
		{name: "other hash force", files: map[string]string{ManifestName: manifestJSON(t, hashA, []string{"runs.csv"}), "runs.csv": "x"}, o: Options{Hash: hashB, Force: true, Writes: writes}},
		{name: "other hash resume", files: map[string]string{ManifestName: manifestJSON(t, hashA, nil)}, o: Options{Hash: hashB, Resume: true},
			kind: ResumeMismatch, want: []string{"--resume", "aaaaaaaaaaaa…", "bbbbbbbbbbbb…"}, not: []string{"--force"}},
		{name: "other hash resume force", files: map[string]string{ManifestName: manifestJSON(t, hashA, nil)}, o: Options{Hash: hashB, Resume: true, Force: true},
			kind: ResumeMismatch, not: []string{"--force"}},
		{name: "plain folder", files: map[string]string{"notes.txt": "mine", "data/x.csv": "1"}, o: Options{Hash: hashA, Writes: writes},
			kind: NotOffload, want: []string{"notes.txt", "data/", "--force"}},
		{name: "plain folder force", files: map[string]string{"notes.txt": "mine", "data/x.csv": "1", "other.png": "p"}, o: Options{Hash: hashA, Force: true, Writes: writes}},
		{name: "plain folder resume", files: map[string]string{"notes.txt": "mine"}, o: Options{Hash: hashA, Resume: true},
			kind: NotOffload},
		{name: "foreign runs.csv", files: map[string]string{"runs.csv": "theirs", "notes.txt": "x"}, o: Options{Hash: hashA, Writes: writes},
			kind: ForeignFiles, want: []string{"runs.csv was not written by offload"}, not: []string{"--force", "notes.txt"}},
		{name: "foreign runs.csv force", files: map[string]string{"runs.csv": "theirs", "summary.csv": "theirs"}, o: Options{Hash: hashA, Force: true, Writes: writes},
			kind: ForeignFiles, want: []string{"runs.csv, summary.csv were not"}, not: []string{"--force"}},
		{name: "foreign traces", files: map[string]string{"traces/cell0_a_0.csv": "theirs"}, o: Options{Hash: hashA, Force: true, Writes: writes},
			kind: ForeignFiles, want: []string{"traces/cell0_a_0.csv"}},
		{name: "traces is a file", files: map[string]string{"traces": "theirs"}, o: Options{Hash: hashA, Force: true, Writes: writes},
			kind: ForeignFiles, want: []string{"traces was not"}},
		{name: "empty traces folder", files: map[string]string{"traces/": ""}, o: Options{Hash: hashA, Force: true, Writes: writes}},
		{name: "foreign file beside a manifest", files: map[string]string{ManifestName: manifestJSON(t, hashA, []string{"summary.csv"}), "summary.csv": "x", "runs.csv": "theirs"},
			o: Options{Hash: hashA, Force: true, Writes: writes}, kind: ForeignFiles, want: []string{"runs.csv"}, not: []string{"summary.csv"}},
		{name: "unreadable manifest", files: map[string]string{ManifestName: "{not json"}, o: Options{Hash: hashA, Force: true},
			kind: ForeignFiles, want: []string{"manifest.json was not written by offload"}, not: []string{"--force"}},
		{name: "another tool's manifest", files: map[string]string{ManifestName: `{"tool":"other"}`}, o: Options{Hash: hashA, Force: true},
			kind: ForeignFiles, want: []string{`tool "other"`}},
		{name: "manifest is a folder", files: map[string]string{ManifestName + "/": ""}, o: Options{Hash: hashA, Force: true},
			kind: ForeignFiles, want: []string{"not a regular file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if tc.files != nil {
				put(t, dir, map[string]string{"./": ""})
				put(t, dir, tc.files)
			}
			target := dir
			if tc.sub != "" {
				target = filepath.Join(dir, filepath.FromSlash(tc.sub))
			}
			before := tree(t, dir)
			d, err := Open(target, tc.o)
			if tc.kind == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
					t.Fatalf("folder not there: %v", err)
				}
				if err := d.Close(); err != nil {
					t.Fatal(err)
				}
				if err := d.Close(); err != nil {
					t.Fatalf("second Close: %v", err)
				}
				after := tree(t, dir)
				delete(before, lockName) // a stale lock file goes on Close
				for n, c := range before {
					if after[n] != c {
						t.Errorf("%s changed by Open/Close: %q → %q", n, c, after[n])
					}
				}
				return
			}
			if err == nil {
				d.Close()
				t.Fatal("accepted")
			}
			var r *Refusal
			if !errors.As(err, &r) || !errors.Is(err, ErrRefused) {
				t.Fatalf("error %v (%T) is not a Refusal", err, err)
			}
			if r.Kind != tc.kind {
				t.Errorf("kind %d, want %d: %v", r.Kind, tc.kind, err)
			}
			if r.ForceHelps() != strings.Contains(err.Error(), "--force") && tc.kind != ResumeMismatch {
				t.Errorf("ForceHelps %v but message %q", r.ForceHelps(), err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(err.Error(), w) {
					t.Errorf("message %q has %q", err, w)
				}
			}
			if after := tree(t, dir); !mapsEqual(before, after) {
				t.Errorf("refused Open changed the folder:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestOpenCreatesNothingOnError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x", "y")
	if _, err := Open(dir, Options{Hash: hashA, Writes: []string{"../up"}}); err == nil {
		t.Fatal("a write outside the folder was accepted")
	}
	if _, err := os.Stat(filepath.Dir(dir)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("failed Open left %s: %v", filepath.Dir(dir), err)
	}
	file := filepath.Join(t.TempDir(), "f")
	put(t, filepath.Dir(file), map[string]string{"f": "x"})
	if _, err := Open(file, Options{Hash: hashA}); err == nil || !strings.Contains(err.Error(), file+" is a regular file, not a folder") {
		t.Fatalf("Open of a file: %v", err)
	}
	// A folder under a file: the file is named, not the stat error.
	if _, err := Open(filepath.Join(file, "sub"), Options{Hash: hashA}); err == nil || !strings.Contains(err.Error(), file+" is a regular file, not a folder") {
		t.Fatalf("Open under a file: %v", err)
	}
	if _, err := Open("", Options{}); err == nil {
		t.Fatal("empty name accepted")
	}
}

func TestForceReplacesOnlyOwned(t *testing.T) {
	dir := t.TempDir()
	owned := []string{"mean_latency.png", "runs.csv", "summary.csv", "traces/cell0_hybrid_0.csv"}
	put(t, dir, map[string]string{
		ManifestName: manifestJSON(t, hashA, owned),
		"runs.csv":   "old runs", "summary.csv": "old sum", "mean_latency.png": "old plot",
		"traces/cell0_hybrid_0.csv": "old trace",
		"notes.txt":                 "mine", "other.png": "my plot", "traces/mine.txt": "my trace notes",
	})
	d := mustOpen(t, dir, Options{Hash: hashB, Force: true, Writes: []string{"runs.csv", "summary.csv"}})
	if m, ok := d.Old(); !ok || m.ScenarioHash != hashA || !slices.Equal(m.Files, owned) {
		t.Fatalf("Old() = %+v, %v", m, ok)
	}
	// No new result under the old scenario's manifest.
	if err := d.WriteFile("runs.csv", func(w io.Writer) error { return nil }); err == nil {
		t.Fatal("a result was written before the new manifest")
	}
	if err := d.RemoveStale(nil); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(Manifest{Experiment: "mape", Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	writeString(t, d, "runs.csv", "new runs")
	if err := d.WriteFile("other.png", func(w io.Writer) error { return nil }); !errors.Is(err, ErrForeign) {
		t.Fatalf("overwrite of a foreign plot: %v", err)
	}
	if err := d.Remove("notes.txt", "summary.csv", "never-there.csv"); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("removal of a foreign file: %v", err)
	}
	if err := d.WriteManifest(Manifest{Experiment: "mape", ScenarioHash: hashA}); err == nil {
		t.Fatal("a manifest of another hash than the folder was opened for")
	}
	if err := d.WriteManifest(Manifest{Experiment: "mape", Complete: true}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	got := tree(t, dir)
	delete(got, ManifestName)
	want := map[string]string{"runs.csv": "new runs", "notes.txt": "mine", "other.png": "my plot",
		"traces/": "/", "traces/mine.txt": "my trace notes"}
	if !mapsEqual(got, want) {
		t.Errorf("folder %v, want %v", got, want)
	}
	if m := readManifestFile(t, dir); !slices.Equal(m.Files, []string{"runs.csv"}) || m.ScenarioHash != hashB || m.Tool != Tool {
		t.Errorf("manifest %+v", m)
	}
	if err := d.WriteFile("x", func(io.Writer) error { return nil }); err == nil {
		t.Error("write after Close")
	}
}

func TestPlainFolderUntouched(t *testing.T) {
	dir := t.TempDir()
	mine := map[string]string{"notes.txt": "mine", "data/x.csv": "1,2", "plot.png": "my plot"}
	put(t, dir, mine)
	d := mustOpen(t, dir, Options{Hash: hashA, Force: true, Experiment: "burst", Writes: []string{"runs.csv", "summary.csv", "traces/"}})
	if _, ok := d.Old(); ok {
		t.Error("Old() of a plain folder")
	}
	if err := d.RemoveStale(nil); err != nil {
		t.Fatal(err)
	}
	writeString(t, d, "runs.csv", "r")
	writeString(t, d, "traces/cell0_p_0.csv", "t")
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	got := tree(t, dir)
	for n, c := range mine {
		if got[n] != c {
			t.Errorf("%s: %q, want %q", n, got[n], c)
		}
	}
	if m := readManifestFile(t, dir); !slices.Equal(m.Files, []string{"runs.csv", "traces/cell0_p_0.csv"}) || m.Experiment != "burst" || m.ScenarioHash != hashA {
		t.Errorf("manifest %+v", m)
	}
	// Now it is offload's folder: a rerun needs no --force, and its own
	// traces are not in the way.
	d = mustOpen(t, dir, Options{Hash: hashA, Writes: []string{"runs.csv", "traces/"}})
	if !d.Owns("runs.csv") || d.Owns("notes.txt") || d.Owns("plot.png") {
		t.Error("ownership after reopen")
	}
}

func TestRemoveStaleKeepsTraces(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir, Options{Hash: hashA})
	for _, n := range []string{"runs.csv", "summary.csv", "mean_latency.png", "traces/cell0_p_0.csv", "traces/cell1_p_0.csv"} {
		writeString(t, d, n, n)
	}
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	d.Close()

	// A rerun without --trace: derived files go, runs.csv and traces stay.
	d = mustOpen(t, dir, Options{Hash: hashA})
	keepRuns := func(n string) bool { return n == "runs.csv" || strings.HasPrefix(n, "traces/") }
	if err := d.RemoveStale(keepRuns); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	got := tree(t, dir)
	for _, n := range []string{"runs.csv", "traces/cell0_p_0.csv", "traces/cell1_p_0.csv"} {
		if _, ok := got[n]; !ok {
			t.Errorf("%s removed", n)
		}
	}
	for _, n := range []string{"summary.csv", "mean_latency.png"} {
		if _, ok := got[n]; ok {
			t.Errorf("%s kept", n)
		}
	}
	// summary.csv written again is not gone; mean_latency.png is.
	writeString(t, d, "summary.csv", "again")
	if gone := d.Gone(); !slices.Equal(gone, []string{"mean_latency.png"}) {
		t.Errorf("gone %v, want the plot not written again", gone)
	}
	// Told to: the traces go, and their folder with them.
	if err := d.RemoveStale(func(n string) bool { return n == "runs.csv" }); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	got = tree(t, dir)
	if _, ok := got["traces/"]; ok {
		t.Errorf("traces/ kept: %v", got)
	}
	if m := readManifestFile(t, dir); !slices.Equal(m.Files, []string{"runs.csv"}) {
		t.Errorf("files %v", m.Files)
	}
}

func TestLockSameProcess(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir, Options{Hash: hashA})
	_, err := Open(dir, Options{Hash: hashA})
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v", err)
	}
	want := fmt.Sprintf("another offload process is writing %s (pid %d)", dir, os.Getpid())
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, lockName)); err != nil {
		t.Errorf("the refused Open disturbed the lock file: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, lockName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock file left after Close: %v", err)
	}
	mustOpen(t, dir, Options{Hash: hashA}).Close()
}

// TestLockExclusive races Opens and Closes of one folder: at no time may two
// Dirs hold it, which is what removing the lock file on Close must not break.
func TestLockExclusive(t *testing.T) {
	dir := t.TempDir()
	var holders, max, got atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				d, err := Open(dir, Options{Hash: hashA})
				if errors.Is(err, ErrLocked) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				got.Add(1)
				n := holders.Add(1)
				for {
					m := max.Load()
					if n <= m || max.CompareAndSwap(m, n) {
						break
					}
				}
				holders.Add(-1)
				if err := d.Close(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if max.Load() != 1 || got.Load() == 0 {
		t.Errorf("max holders %d, opens %d", max.Load(), got.Load())
	}
}

func TestLockChildProcess(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	t.Cleanup(func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	_, err = Open(dir, Options{Hash: hashA})
	want := "another offload process is writing " + dir + " (pid " + strconv.Itoa(cmd.Process.Pid) + ")"
	if !errors.Is(err, ErrLocked) || err.Error() != want {
		t.Fatalf("Open while the child holds the lock: %v; want %q", err, want)
	}
	// A crash (SIGKILL: no Close) leaves the lock file but not the lock.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed = true
	if _, err := os.Stat(filepath.Join(dir, lockName)); err != nil {
		t.Fatalf("expected the dead child's lock file: %v", err)
	}
	d := mustOpen(t, dir, Options{Hash: hashA})
	b, _ := os.ReadFile(filepath.Join(dir, lockName))
	if string(b) != strconv.Itoa(os.Getpid())+"\n" {
		t.Errorf("lock file says %q", b)
	}
	d.Close()
}

// temps lists what looks like a temporary file under dir.
func temps(t *testing.T, dir string) []string {
	var found []string
	for n := range tree(t, dir) {
		if strings.Contains(n, ".tmp-") {
			found = append(found, n)
		}
	}
	return found
}

func TestAtomicWriteLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir, Options{Hash: hashA})
	writeString(t, d, "runs.csv", "good")
	boom := errors.New("boom")

	// WriteFile whose writer fails: old contents stay, no temp file.
	err := d.WriteFile("runs.csv", func(w io.Writer) error {
		_, _ = io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("WriteFile: %v", err)
	}
	// Create then Abort, in a subfolder.
	f, err := d.Create("traces/cell0_p_0.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("partial")); err != nil {
		t.Fatal(err)
	}
	if err := f.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err == nil {
		t.Error("Close after Abort succeeded")
	}
	// Create whose write fails (the temporary file's descriptor is closed
	// under it): Close reports it and removes the temporary file.
	f, err = d.Create("traces/cell1_p_0.csv")
	if err != nil {
		t.Fatal(err)
	}
	_ = f.tmp.Close()
	_, werr := f.Write(make([]byte, 1<<17)) // past the buffer: reaches the file
	if werr == nil {
		t.Fatal("write to a closed file succeeded")
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Error("write after an error succeeded")
	}
	if err := f.Close(); err == nil {
		t.Error("Close after a write error succeeded")
	}
	if got := temps(t, dir); len(got) > 0 {
		t.Errorf("temporary files left: %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "runs.csv")); string(b) != "good" {
		t.Errorf("runs.csv = %q after a failed write", b)
	}
	for _, n := range []string{"traces/cell0_p_0.csv", "traces/cell1_p_0.csv"} {
		if d.Owns(n) {
			t.Errorf("%s owned though never written", n)
		}
	}
	// A streaming write that succeeds.
	f, err = d.Create("traces/deep/cell2_p_0.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort() // a no-op after Close
	fmt.Fprintf(f, "id\n1\n")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "traces", "deep", "cell2_p_0.csv")); string(b) != "id\n1\n" {
		t.Errorf("streamed file %q", b)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "runs.csv")); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestBadNames(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	d := mustOpen(t, dir, Options{Hash: hashA, Force: true})
	for _, n := range []string{"", "/abs", "../up", "a/../b", "a//b", "dir/", ManifestName, lockName, journalName, "new\nline", "link/x.csv"} {
		if err := d.WriteFile(n, func(io.Writer) error { return nil }); err == nil {
			t.Errorf("WriteFile(%q) accepted", n)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("wrote through a link: %v", entries)
	}
}

// TestJournal: files written after the last WriteManifest (a crash, here a
// Close without it) are still offload's at the next Open.
func TestJournal(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir, Options{Hash: hashA})
	writeString(t, d, "scenario.yaml", "s")
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	writeString(t, d, "traces/cell0_p_0.csv", "t")
	writeString(t, d, "runs.csv", "r")
	d.Close() // no final manifest
	if m := readManifestFile(t, dir); !slices.Equal(m.Files, []string{"scenario.yaml"}) {
		t.Fatalf("files %v", m.Files)
	}
	d = mustOpen(t, dir, Options{Hash: hashA, Writes: []string{"runs.csv", "traces/"}})
	for _, n := range []string{"scenario.yaml", "runs.csv", "traces/cell0_p_0.csv"} {
		if !d.Owns(n) {
			t.Errorf("%s not owned after the crash", n)
		}
	}
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, journalName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("journal left after WriteManifest: %v", err)
	}
	if m := readManifestFile(t, dir); len(m.Files) != 3 {
		t.Errorf("files %v", m.Files)
	}
	d.Close()

	// The same in a folder that never got a manifest.
	dir = t.TempDir()
	d = mustOpen(t, dir, Options{Hash: hashA})
	writeString(t, d, "runs.csv", "r")
	d.Close()
	mustOpen(t, dir, Options{Hash: hashA, Writes: []string{"runs.csv"}}).Close()
}

// TestRefresh: the manifest written last is written again with the files
// written since, and the journal goes; before any manifest, nothing is
// written.
func TestRefresh(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir, Options{Hash: hashA})
	writeString(t, d, "runs.csv", "r")
	if err := d.Refresh(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Refresh before any manifest wrote one: %v", err)
	}
	m := Manifest{Experiment: "sweep-load", Command: []string{"offload", "sweep-load"}, RunsDone: 4, Complete: true,
		Extra: map[string]any{"shard": "1/2"}}
	if err := d.WriteManifest(m); err != nil {
		t.Fatal(err)
	}
	m.Command[1], m.Extra["shard"], m.RunsDone = "changed", "changed", 5 // the caller's later changes are not the manifest's
	writeString(t, d, "summary.csv", "s")
	writeString(t, d, "mean_latency.png", "p")
	if err := d.Refresh(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, journalName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("journal left after Refresh: %v", err)
	}
	got := readManifestFile(t, dir)
	if want := []string{"mean_latency.png", "runs.csv", "summary.csv"}; !slices.Equal(got.Files, want) {
		t.Errorf("files %v, want %v", got.Files, want)
	}
	if got.Experiment != "sweep-load" || !slices.Equal(got.Command, []string{"offload", "sweep-load"}) || got.RunsDone != 4 ||
		!got.Complete || got.Extra["shard"] != "1/2" || got.ScenarioHash != hashA {
		t.Errorf("manifest changed by Refresh: %+v", got)
	}
	d.Close()
	if err := d.Refresh(); err == nil {
		t.Error("Refresh after Close: no error")
	}
}

func TestConcurrentWrites(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir, Options{Hash: hashA})
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 10 {
				f, err := d.Create(fmt.Sprintf("traces/cell%d_p_%d.csv", w, i))
				if err != nil {
					t.Error(err)
					return
				}
				fmt.Fprintf(f, "%d,%d\n", w, i)
				if err := f.Close(); err != nil {
					t.Error(err)
				}
				if i%3 == 0 {
					if err := d.WriteManifest(Manifest{}); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if err := d.WriteManifest(Manifest{}); err != nil {
		t.Fatal(err)
	}
	if m := readManifestFile(t, dir); len(m.Files) != 80 || !slices.IsSorted(m.Files) {
		t.Errorf("%d files, sorted %v", len(m.Files), slices.IsSorted(m.Files))
	}
}

// TestDebris: the temporary files of a killed run are offload's litter, not
// foreign files: they neither refuse the folder nor survive the next Open.
func TestDebris(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, map[string]string{
		ManifestName:                      manifestJSON(t, hashA, []string{"runs.csv", "traces/cell0_p_0.csv"}),
		"runs.csv":                        "r",
		".runs.csv.tmp-123456":            "half",
		"traces/cell0_p_0.csv":            "t",
		"traces/.cell1_p_0.csv.tmp-98765": "half",
		".cell2_p_0.csv.tmp-notours":      "kept: not CreateTemp's name",
	})
	d := mustOpen(t, dir, Options{Hash: hashA, Writes: []string{"runs.csv", "traces/"}})
	d.Close()
	got := tree(t, dir)
	for _, n := range []string{".runs.csv.tmp-123456", "traces/.cell1_p_0.csv.tmp-98765"} {
		if _, ok := got[n]; ok {
			t.Errorf("debris %s kept", n)
		}
	}
	if _, ok := got[".cell2_p_0.csv.tmp-notours"]; !ok {
		t.Error("a file not of CreateTemp's pattern was removed")
	}

	// A folder with nothing but debris is empty.
	dir = t.TempDir()
	put(t, dir, map[string]string{".runs.csv.tmp-1": "half"})
	mustOpen(t, dir, Options{Hash: hashA}).Close()
	if got := tree(t, dir); len(got) != 0 {
		t.Errorf("left %v", got)
	}
}

// TestLinkedFolderNotFollowed: a folder of owned files that became a link
// (to somewhere else) does not make the files there offload's.
func TestLinkedFolderNotFollowed(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	put(t, outside, map[string]string{"cell0_p_0.csv": "theirs"})
	put(t, dir, map[string]string{ManifestName: manifestJSON(t, hashA, []string{"traces/cell0_p_0.csv"})})
	if err := os.Symlink(outside, filepath.Join(dir, "traces")); err != nil {
		t.Fatal(err)
	}
	d := mustOpen(t, dir, Options{Hash: hashA})
	if d.Owns("traces/cell0_p_0.csv") {
		t.Error("owns a file through a link")
	}
	if err := d.RemoveStale(nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("traces/cell0_p_0.csv"); err == nil {
		t.Error("Remove through a link succeeded")
	}
	if _, err := os.Stat(filepath.Join(outside, "cell0_p_0.csv")); err != nil {
		t.Errorf("removed through a link: %v", err)
	}
	d.Close()
	if _, err := Open(dir, Options{Hash: hashA, Writes: []string{"traces/"}}); !errors.Is(err, ErrRefused) {
		t.Errorf("traces as a link: %v", err)
	}
}

// TestManifestFIFO: a FIFO named manifest.json neither hangs Open nor passes
// for offload's.
func TestManifestFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ManifestName), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{Hash: hashA, Force: true})
	var r *Refusal
	if !errors.As(err, &r) || r.Kind != ForeignFiles || !errors.Is(r.Cause, ErrNotRegular) {
		t.Fatalf("Open: %v", err)
	}
}
