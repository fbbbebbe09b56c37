package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
)

// TestShardKeyRoundTrip: the manifest's {"k", "K"} decode into their own
// fields although they differ only in case.
func TestShardKeyRoundTrip(t *testing.T) {
	m := Manifest{Extra: shardExtra(Spec{Name: "run"}, Args{Window: 2.5}, experiment.Shard{Index: 2, Count: 5}, 12)}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Manifest
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	info, ok, err := readShardInfo(back)
	if err != nil || !ok || info.Shard != (shardKey{2, 5}) || info.Spec != "run" || info.PlanRuns != 12 ||
		len(info.Indices) != 2 || info.Indices[1] != 7 || info.Args.Window != 2.5 {
		t.Errorf("read back %+v, %v, %v from %s", info, ok, err, b)
	}
}

// TestArrayList writes missing shards as sbatch --array takes them.
func TestArrayList(t *testing.T) {
	for in, want := range map[string]string{"1": "1", "1 3": "1,3", "0 1 2 5 7 8": "0-2,5,7-8"} {
		var ks []int
		for _, f := range strings.Fields(in) {
			ks = append(ks, int(f[0]-'0'))
		}
		if got := arrayList(ks); got != want {
			t.Errorf("arrayList(%v) = %q, want %q", ks, got, want)
		}
	}
}

// TestArrayScriptExists: merge's rerun line names a script that is there.
func TestArrayScriptExists(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(arrayScript))); err != nil {
		t.Error(err)
	}
}
