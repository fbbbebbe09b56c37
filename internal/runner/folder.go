package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/offload-sim/offload/internal/report"
)

// ErrBadInput marks an error the user can fix (exit status 2): cmd maps
// every error that wraps it to a usage error.
var ErrBadInput = errors.New("bad input")

// badInputf formats a bad-input error.
func badInputf(format string, args ...any) error {
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

// Manifest records what produced a folder of results.
type Manifest struct {
	Tool         string    `json:"tool"`
	Version      string    `json:"version"`
	Command      []string  `json:"command"`
	Experiment   string    `json:"experiment"`
	Seed         uint64    `json:"seed"`
	Seeds        int       `json:"seeds"`
	ScenarioHash string    `json:"scenario_sha256"`
	Started      time.Time `json:"started"`
	Finished     time.Time `json:"finished,omitzero"`
	Complete     bool      `json:"complete"`
	Runs         int       `json:"runs"`
	RunsDone     int       `json:"runs_done"`
	// TimeDecisions records --time-decisions, which the scenario hash does
	// not cover: a resume must not mix timed and untimed runs.
	TimeDecisions bool `json:"time_decisions"`
}

// ManifestFile is the name of a results folder's manifest.
const ManifestFile = "manifest.json"

// Version is the tool's version as the binary knows it: the module version
// of a released build, else the VCS revision that `go build` stamps into
// the binary (with "+dirty" for uncommitted changes), else "devel" (as for
// `go run`, or a build with -buildvcs=false).
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		return rev + dirty
	}
	return "devel"
}

// PrepareDir makes sure dir may receive results of the scenario with this
// hash: a folder holding another scenario's results, or files that are not
// results at all, is refused without force.
func PrepareDir(dir, hash string, force bool) error {
	m, err := ReadManifest(dir)
	switch {
	case err == nil:
		if m.ScenarioHash != hash && !force {
			return badInputf("-o %s holds results of another scenario (%s, sha256 %.12s…); use another -o or --force", dir, m.Experiment, m.ScenarioHash)
		}
	case errors.Is(err, fs.ErrNotExist):
		entries, _ := os.ReadDir(dir)
		if len(entries) > 0 && !force {
			return badInputf("-o %s exists and does not hold offload results; use another -o or --force", dir)
		}
	default:
		if !force {
			return badInputf("-o %s: unreadable %s (%v); use --force to overwrite", dir, ManifestFile, err)
		}
	}
	return os.MkdirAll(dir, 0o755)
}

// ReadManifest reads dir's manifest.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

// WriteManifest writes dir's manifest atomically.
func WriteManifest(dir string, m Manifest) error {
	return report.WriteFileAtomic(dir, ManifestFile, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
}

// ResumeCheck refuses --resume into a folder whose scenario (or
// --time-decisions) differs.
func ResumeCheck(dir, hash string, timeDecisions bool) error {
	m, err := ReadManifest(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // nothing to resume: a fresh run
		}
		return badInputf("--resume: %v", err)
	}
	if m.ScenarioHash != hash {
		return badInputf("--resume: -o %s holds another scenario's results (sha256 %.12s…, this one %.12s…)", dir, m.ScenarioHash, hash)
	}
	if m.TimeDecisions != timeDecisions {
		return badInputf("--resume: -o %s was run with --time-decisions=%v; resume with the same setting", dir, m.TimeDecisions)
	}
	return nil
}

// runFiles hold the runs themselves (kept by --resume); derivedFiles are
// made from them at the end of a command.
func runFiles() []string { return []string{"runs.csv", "mape.csv", "series_runs.csv"} }
func derivedFiles() []string {
	return []string{"summary.csv", "mape_summary.csv", "timeseries.csv", "bursts.csv", "comparison.csv", "claims.md"}
}

// ClearOutputs removes a results folder's derived files and plots, and its
// runs too when runs is set. The folder has been checked to hold offload
// results (or nothing) by PrepareDir.
func ClearOutputs(dir string, runs bool) error {
	names := derivedFiles()
	if runs {
		names = append(runFiles(), names...)
		if err := os.RemoveAll(filepath.Join(dir, "traces")); err != nil {
			return err
		}
	}
	for _, ext := range report.Formats {
		plots, _ := filepath.Glob(filepath.Join(dir, "*."+ext))
		for _, p := range plots {
			names = append(names, filepath.Base(p))
		}
	}
	for _, n := range names {
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// readIfExists opens dir/name and hands it to read; a missing file is not an
// error (nothing to resume) and read is not called.
func readIfExists(dir, name string, read func(io.Reader) error) error {
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if err := read(f); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
	}
	return nil
}
