package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// legacyManifest is one written by offload before this package (no files).
const legacyManifest = `{
  "tool": "offload",
  "version": "v0.9.0",
  "command": ["offload", "sweep-load", "-o", "results/sweep"],
  "experiment": "sweep-load",
  "seed": 42,
  "seeds": 10,
  "scenario_sha256": "aaaaaaaaaaaa1111111111111111111111111111111111111111111111111111",
  "started": "2026-01-02T03:04:05Z",
  "finished": "2026-01-02T04:05:06Z",
  "complete": true,
  "runs": 300,
  "runs_done": 300,
  "time_decisions": false
}
`

func TestManifestJSON(t *testing.T) {
	m, err := parseManifest([]byte(legacyManifest))
	if err != nil {
		t.Fatal(err)
	}
	want := Manifest{Tool: "offload", Version: "v0.9.0", Command: []string{"offload", "sweep-load", "-o", "results/sweep"},
		Experiment: "sweep-load", Seed: 42, Seeds: 10, ScenarioHash: hashA,
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Finished: time.Date(2026, 1, 2, 4, 5, 6, 0, time.UTC),
		Complete: true, Runs: 300, RunsDone: 300}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("legacy manifest read as\n%+v\nwant\n%+v", m, want)
	}
	if m.Files != nil {
		t.Fatal("legacy Files not nil")
	}
	// Round trip, with the keys of the legacy manifest kept as they were.
	m.Files = []string{"runs.csv", "traces/cell0_p_0.csv"}
	m.Extra = map[string]any{"shard": "1/4"}
	b, err := encodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tool", "version", "command", "experiment", "seed", "seeds", "scenario_sha256", "started", "finished", "complete", "runs", "runs_done", "time_decisions", "files", "extra"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("key %q missing from %s", k, b)
		}
	}
	back, err := parseManifest(b)
	if err != nil || !reflect.DeepEqual(back, m) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	// An unfinished, empty one: no finished, no extra, files [] (not null,
	// which would read back as legacy).
	b, err = encodeManifest(Manifest{Tool: Tool})
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, "finished") || strings.Contains(s, "extra") || !strings.Contains(s, `"files": []`) || !strings.HasSuffix(s, "}\n") {
		t.Errorf("empty manifest %s", s)
	}
	if _, err := parseManifest([]byte(`{"tool":"else"}`)); err == nil {
		t.Error("another tool's manifest accepted")
	}
}

func TestLegacyFolder(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, map[string]string{
		ManifestName: legacyManifest,
		"runs.csv":   "r", "summary.csv": "s", "scenario.yaml": "y", "claims.md": "c",
		"mean_latency.png": "p", "share_edge.svg": "p", "mape.pdf": "p",
		"notes.txt": "mine", "data/runs.csv": "mine", "data/x.png": "mine",
		"traces/cell0_hybrid_1.csv": "t", "traces/cell12_edge-only_0.csv": "t",
	})
	d := mustOpen(t, dir, Options{Hash: hashA, Writes: []string{"runs.csv", "summary.csv", "traces/"}})
	for n, want := range map[string]bool{
		"runs.csv": true, "summary.csv": true, "scenario.yaml": true, "claims.md": true,
		"mean_latency.png": true, "share_edge.svg": true, "mape.pdf": true,
		"traces/cell0_hybrid_1.csv": true, "traces/cell12_edge-only_0.csv": true,
		"notes.txt": false, "data/runs.csv": false, "data/x.png": false, "mape.csv": false, // mape.csv is not there
	} {
		if d.Owns(n) != want {
			t.Errorf("Owns(%s) = %v, want %v", n, !want, want)
		}
	}
	if m, ok := d.Old(); !ok || m.Files != nil || m.Experiment != "sweep-load" {
		t.Errorf("Old() = %+v, %v", m, ok)
	}
	if err := d.RemoveStale(func(n string) bool { return n == "runs.csv" }); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(Manifest{Experiment: "sweep-load"}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	got := tree(t, dir)
	delete(got, ManifestName)
	want := map[string]string{"runs.csv": "r", "notes.txt": "mine", "data/": "/", "data/runs.csv": "mine", "data/x.png": "mine"}
	if !mapsEqual(got, want) {
		t.Errorf("after RemoveStale: %v", got)
	}
	if m := readManifestFile(t, dir); !slices.Equal(m.Files, []string{"runs.csv"}) {
		t.Errorf("files %v", m.Files)
	}

	// A legacy folder whose traces/ holds a file the old offload did not
	// write: in the way of a --trace run.
	dir = t.TempDir()
	put(t, dir, map[string]string{ManifestName: legacyManifest, "traces/cell0_p_0.csv": "t", "traces/README": "mine"})
	_, err := Open(dir, Options{Hash: hashA, Writes: []string{"traces/"}})
	if r, ok := err.(*Refusal); !ok || r.Kind != ForeignFiles || !slices.Equal(r.Files, []string{"traces/README"}) {
		t.Errorf("legacy traces with a foreign file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, lockName)); err == nil {
		t.Error("refused Open left its lock file")
	}
}
