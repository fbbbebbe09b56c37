package reproduce

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
)

// TestShardedReproduce runs a miniature reproduce whole and as two shards,
// merges the shards, and compares every experiment's files byte for byte
// (decision's runs.csv and summary.csv carry wall-clock decision_ns, and
// claims.md claim 5 with them, so those are compared only for presence).
// Three reproductions and a merge make it a long test: it runs with
// OFFLOAD_LONG=1 (cmd's TestShardedEqualsWhole checks a sharded run in the
// default test).
func TestShardedReproduce(t *testing.T) {
	if testing.Short() || os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: three miniature reproductions; set OFFLOAD_LONG=1")
	}
	small := map[string][]string{
		"sweep-load":    {"sweep.values=[40, 120]", "tasks=1000", "warmup=0", "policies=[hybrid, jsq]"},
		"edge-capacity": {"sweep.values=[2, 8]", "tasks=1000", "warmup=0", "policies=[hybrid, edge-first]"},
		"mape":          {"sweep.values=[40, 120]", "tasks=1000", "warmup=0"},
		"burst":         {"duration=150", "warmup_time=10", "arrivals.bursts=[{start: 40, every: 60, length: 15, factor: 3}]", "policies=[hybrid, edge-first, random]"},
		"decision":      {"tasks=1000", "warmup=0"},
		"exploration":   {"sweep.values=[40, 120]", "tasks=1000", "warmup=0"},
	}
	dir := t.TempDir()
	rep := func(out string, sh experiment.Shard) {
		t.Helper()
		var buf bytes.Buffer
		_, err := Reproduce(context.Background(), Options{Scale: "ci", Sets: []string{"seeds=2"}, Extra: small, Load: load},
			runner.Options{Dir: out, Workers: 2, Format: "svg", Shard: sh, Out: &buf, Err: &buf})
		if err != nil {
			t.Fatal(err)
		}
	}
	whole := filepath.Join(dir, "whole")
	rep(whole, experiment.Shard{})
	var shards []string
	for k := range 2 {
		s := filepath.Join(dir, "shard-"+string(rune('0'+k)))
		rep(s, experiment.Shard{Index: k, Count: 2})
		if _, err := os.Stat(filepath.Join(s, "claims.md")); err == nil {
			t.Errorf("shard %d wrote claims.md", k)
		}
		shards = append(shards, s)
	}
	merged := filepath.Join(dir, "merged")
	var buf bytes.Buffer
	if err := Merge(context.Background(), shards, runner.Options{Dir: merged, Format: "svg", Out: &buf, Err: &buf}); err != nil {
		t.Fatal(err)
	}
	for _, e := range steps() {
		sub := e.exp.Name
		es, err := os.ReadDir(filepath.Join(whole, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range es {
			n := f.Name()
			if n == "manifest.json" || strings.HasPrefix(n, ".offload") {
				continue
			}
			a, _ := os.ReadFile(filepath.Join(whole, sub, n))
			b, err := os.ReadFile(filepath.Join(merged, sub, n))
			if err != nil {
				t.Errorf("merged %s lacks %s", sub, n)
				continue
			}
			timed := sub == "decision" && (n == "runs.csv" || n == "summary.csv")
			if !timed && !bytes.Equal(a, b) {
				t.Errorf("%s/%s differs between the single run and the merge", sub, n)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(merged, "claims.md"))
	if err != nil || !bytes.Contains(md, []byte("## Claim 4: ")) {
		t.Errorf("merged claims.md: %v", err)
	}
	if !bytes.Contains(md, []byte("hybrid − hybrid-eps0")) {
		t.Errorf("merged claims.md lacks claim 1's exploration evidence:\n%s", md)
	}
	// Shards from before the exploration experiment still merge: without
	// it, claim 1 has no evidence, and nothing else changes.
	for _, s := range shards {
		if err := os.RemoveAll(filepath.Join(s, explorationName)); err != nil {
			t.Fatal(err)
		}
	}
	old := filepath.Join(dir, "merged-old")
	if err := Merge(context.Background(), shards, runner.Options{Dir: old, Format: "svg", Out: &buf, Err: &buf}); err != nil {
		t.Fatalf("shards without %s: %v", explorationName, err)
	}
	if md, err := os.ReadFile(filepath.Join(old, "claims.md")); err != nil || bytes.Contains(md, []byte("hybrid-eps0")) {
		t.Errorf("claims.md of shards without %s: %v; want it without the evidence", explorationName, err)
	}
	var m runner.Manifest
	b, _ := os.ReadFile(filepath.Join(merged, runner.ManifestFile))
	if err := json.Unmarshal(b, &m); err != nil || !m.Complete || m.Extra["shards"] == nil {
		t.Errorf("merged root manifest %s (%v): want complete, with the shards listed", b, err)
	}
}
