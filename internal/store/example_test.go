package store_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/offload-sim/offload/internal/store"
)

// A command's life with its folder: open (refused or locked: nothing was
// written), clear what the previous run derived, claim the folder with the
// new manifest, write the results, and record them.
func ExampleOpen() {
	tmp, _ := os.MkdirTemp("", "store-example")
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "results", "sweep-load")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)

	o := store.Options{Hash: "0123456789abcdef", Experiment: "sweep-load",
		Writes: []string{"runs.csv", "summary.csv", "mean_latency.png", "traces/"}}
	if _, err := store.Open(dir, o); err != nil {
		fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	}
	o.Force = true // notes.txt stays; the results go beside it
	d, err := store.Open(dir, o)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	sameScenario := func() bool { m, ok := d.Old(); return ok && m.ScenarioHash == o.Hash }()
	keep := func(name string) bool {
		// A rerun of the same scenario keeps its traces (still valid) and,
		// with --resume, its runs; everything else is derived again.
		return sameScenario && (strings.HasPrefix(name, "traces/") || (o.Resume && name == "runs.csv"))
	}
	_ = d.RemoveStale(keep)
	m := store.Manifest{Command: []string{"offload", "sweep-load"}, Runs: 2}
	_ = d.WriteManifest(m)
	_ = d.WriteFile("runs.csv", func(w io.Writer) error { _, err := io.WriteString(w, "policy,seed\n"); return err })
	m.RunsDone, m.Complete = 2, true
	_ = d.WriteManifest(m)
	b, _ := os.ReadFile(filepath.Join(dir, store.ManifestName))
	fmt.Println(strings.Contains(string(b), `"files": [
    "runs.csv"
  ]`))
	// Output:
	// DIR holds files that offload did not write (notes.txt); --force writes the results beside them and leaves them as they are
	// true
}
