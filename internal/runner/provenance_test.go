package runner

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestMergedProvenanceCommands: the merged folder's record of the shards'
// command and of the merge, every path relative to the merged folder, the
// flags that concern one shard left out, flag values kept as they are.
func TestMergedProvenanceCommands(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "study", "merged")
	shard := []string{"/usr/local/bin/offload", "run", "-f", filepath.Join(root, "study", "s.yaml"), "--shard", "1/4", "--shards=4",
		"-o", filepath.Join(root, "out", "shard-1"), "--resume", "--set", "seeds=4", "--out=" + root, "--format", "svg", "--trace=" + filepath.Join(root, "t.csv")}
	want := []string{"offload", "run", "-f", "../s.yaml", "--set", "seeds=4", "--format", "svg", "--trace=../../t.csv"}
	if got := mergedCommand(shard, dir); !slices.Equal(got, want) {
		t.Errorf("mergedCommand = %q, want %q", got, want)
	}
	merge := []string{"offload", "merge", "--format", "svg", "-o", dir, "--force", filepath.Join(root, "out", "shard-0"), "--out=" + dir}
	want = []string{"offload", "merge", "--format", "svg", "-o", ".", "--force", "../../out/shard-0", "--out=."}
	if got := mergeCommand(merge, dir); !slices.Equal(got, want) {
		t.Errorf("mergeCommand = %q, want %q", got, want)
	}
	if got := scenarioFlag([]string{"offload", "run", "--file=a/b.yaml"}); got != "a/b.yaml" {
		t.Errorf("scenarioFlag(--file=) = %q", got)
	}
	if got := scenarioFlag([]string{"offload", "run", "-fa.yaml"}); got != "a.yaml" {
		t.Errorf("scenarioFlag(-fX) = %q", got)
	}
	if got := scenarioFlag([]string{"offload", "sweep-load", "--force"}); got != "" {
		t.Errorf("scenarioFlag without -f = %q", got)
	}
}
