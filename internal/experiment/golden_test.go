package experiment

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/simulated_runs.csv from the current output")

// TestGoldenRuns pins the random streams and the engine: a tiny plan's
// runs.csv must match the committed bytes. A change here means every
// published number changes too; regenerate with -update only on purpose,
// and say why in the commit.
func TestGoldenRuns(t *testing.T) {
	sc := defaultAt(t, 80, 2000, 2, "policies=[hybrid, jsq-s, edge-first, random, oracle]")
	runs := execute(t, sc, 2) // untimed: decision_ns stays empty
	plan, err := NewPlan("golden", sc)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := results.WriteRuns(&got, plan.Columns(), runs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "testdata", "golden", "simulated_runs.csv")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("runs differ from %s: the random streams or the engine changed\ngot:\n%s", path, got.String())
	}
}
