package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/offload-sim/offload/internal/report"
	"github.com/spf13/cobra"
)

// outputFlags say where results go and how a run behaves.
type outputFlags struct {
	dir           string // -o
	force         bool   // overwrite another scenario's results
	resume        bool   // run only what runs.csv lacks
	quiet         bool   // no progress bar
	jobs          int    // -j: parallel runs
	format        string // plot format
	trace         bool   // per-task CSVs
	timeDecisions bool   // decision_ns
}

func (o *outputFlags) register(c *cobra.Command, defaultDir string) {
	fl := c.Flags()
	fl.StringVarP(&o.dir, "out", "o", defaultDir, "output `folder`")
	fl.BoolVar(&o.force, "force", false, "write into a folder that holds another scenario's results")
	fl.BoolVar(&o.resume, "resume", false, "keep the runs already in the folder's runs.csv and run only the missing ones")
	fl.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fl.IntVarP(&o.jobs, "jobs", "j", 0, "parallel runs (0: all cores)")
	fl.StringVar(&o.format, "format", "png", "plot format: png, svg or pdf")
	fl.BoolVar(&o.timeDecisions, "time-decisions", false, "measure each decision's wall-clock cost (decision_ns; not reproducible)")
}

// check validates the flags before anything is written.
func (o *outputFlags) check() error {
	if o.jobs < 0 {
		return badInputf("-j %d: must be ≥ 0 (0 means all %d cores)", o.jobs, runtime.NumCPU())
	}
	if o.jobs == 0 {
		o.jobs = runtime.NumCPU()
	}
	if !slices.Contains(report.Formats, o.format) {
		return badInputf("--format %q: allowed: png, svg, pdf", o.format)
	}
	if o.dir == "" {
		return badInputf("-o: empty folder name")
	}
	return nil
}

// manifest records what produced a folder of results.
type manifest struct {
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

const manifestFile = "manifest.json"

// prepareDir makes sure dir may receive results of the scenario with this
// hash: a folder holding another scenario's results, or files that are not
// results at all, is refused without --force.
func prepareDir(dir, hash string, force bool) error {
	m, err := readManifest(dir)
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
			return badInputf("-o %s: unreadable %s (%v); use --force to overwrite", dir, manifestFile, err)
		}
	}
	return os.MkdirAll(dir, 0o755)
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

func writeManifest(dir string, m manifest) error {
	return report.WriteFileAtomic(dir, manifestFile, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
}

// resumeCheck refuses --resume into a folder whose scenario (or
// --time-decisions) differs.
func resumeCheck(dir, hash string, timeDecisions bool) error {
	m, err := readManifest(dir)
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
var (
	runFiles     = []string{"runs.csv", "mape.csv", "series_runs.csv"}
	derivedFiles = []string{"summary.csv", "mape_summary.csv", "timeseries.csv", "bursts.csv", "comparison.csv", "claims.md"}
)

// clearOutputs removes a results folder's derived files and plots, and its
// runs too when runs is set. The folder has been checked to hold offload
// results (or nothing) by prepareDir.
func clearOutputs(dir string, runs bool) error {
	names := derivedFiles
	if runs {
		names = append(append([]string(nil), runFiles...), derivedFiles...)
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

func fmtPath(dir, name string) string { return filepath.Join(dir, name) }

func noteWritten(w io.Writer, paths ...string) {
	for _, p := range paths {
		fmt.Fprintln(w, "wrote", p)
	}
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
