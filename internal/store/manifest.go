package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// ManifestName is the file that makes a folder offload's: what produced it,
// and which of its files are offload's own.
const ManifestName = "manifest.json"

// Tool is Manifest.Tool of every manifest offload writes; a manifest.json
// with another tool is another program's, hence foreign.
const Tool = "offload"

// Control files of the package itself. They are neither results nor foreign,
// never listed in Files, and cannot be written through Dir.
const (
	lockName    = ".offload.lock"
	journalName = ".offload.files"
)

// maxManifest bounds the read of a manifest.json: a manifest of ten thousand
// traces is under a MiB, and a huge or endless file there is not offload's.
const maxManifest = 64 << 20

// Manifest records what produced a folder and which files in it are
// offload's own. The JSON keys up to time_decisions are those of the
// manifests written before this package, so that old and new offload read
// each other's folders.
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
	// Extra leaves room for later keys (a shard, the devices) without a new
	// field, and so without a format change, each time.
	Extra map[string]any `json:"extra,omitempty"`
	// Files lists, sorted, the relative slash paths of every file offload
	// wrote in the folder (traces/… included; manifest.json itself is
	// implicit). WriteManifest fills it. A manifest without the key is a
	// legacy one (see the package comment); an empty folder's is [].
	Files []string `json:"files"`
}

// parseManifest reads an offload manifest; anything else (bad JSON, another
// tool's file) is an error, so that the caller treats the file as foreign.
func parseManifest(b []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, err
	}
	if m.Tool != Tool {
		return Manifest{}, fmt.Errorf("tool %q, not %s", m.Tool, Tool)
	}
	return m, nil
}

// encodeManifest writes the manifest as the old offload did (two-space
// indent, a final newline); Files is never null, since null means legacy.
func encodeManifest(m Manifest) ([]byte, error) {
	if m.Files == nil {
		m.Files = []string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// legacyNames are the derived files an offload from before this package
// wrote and cleared by name.
var legacyNames = []string{
	"runs.csv", "summary.csv", "mape.csv", "series_runs.csv", "mape_summary.csv",
	"timeseries.csv", "bursts.csv", "comparison.csv", "claims.md", "scenario.yaml",
}

// legacyTrace is the name of a per-run trace of that offload (cmd/trace.go).
var legacyTrace = regexp.MustCompile(`^traces/cell[0-9]+_[^/]+_[0-9]+\.csv$`)

// legacyOwned says whether an offload from before this package wrote name.
func legacyOwned(name string) bool {
	if slices.Contains(legacyNames, name) || legacyTrace.MatchString(name) {
		return true
	}
	if strings.Contains(name, "/") {
		return false
	}
	switch path.Ext(name) {
	case ".png", ".svg", ".pdf":
		return true
	}
	return false
}

// legacyFiles lists the files of a legacy folder that legacyOwned claims.
func legacyFiles(dir string) ([]string, error) {
	var names []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && legacyOwned(e.Name()) {
			names = append(names, e.Name())
		}
	}
	// A traces that is a symlink or a file is not the old offload's folder.
	if fi, err := os.Lstat(filepath.Join(dir, "traces")); err != nil || !fi.IsDir() {
		return names, nil
	}
	entries, err = os.ReadDir(filepath.Join(dir, "traces"))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if n := "traces/" + e.Name(); e.Type().IsRegular() && legacyOwned(n) {
			names = append(names, n)
		}
	}
	return names, nil
}

// ReadManifest reads dir's manifest.json with ReadRegular's checks (a
// regular file of at most 64 MiB) and returns it with its bytes; a file
// that is not an offload manifest is an error.
func ReadManifest(dir string) (Manifest, []byte, error) {
	name := filepath.Join(dir, ManifestName)
	b, err := ReadRegular(name, maxManifest)
	if err != nil {
		return Manifest{}, nil, err
	}
	m, err := parseManifest(b)
	if err != nil {
		return Manifest{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, b, nil
}

// ShellJoin writes a command's words as one line a POSIX shell reads back
// as the same words: a manifest's Command, shown to be copied and run.
func ShellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
