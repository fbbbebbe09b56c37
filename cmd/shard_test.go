package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
)

// TestParseShard reads --shard and --shards under every environment: the
// explicit form, Slurm arrays (whole, rerun of some tasks with --shards,
// not from 0, step ≠ 1, ids with holes), a Kubernetes Indexed Job with and
// without --shards, both at once, and neither.
func TestParseShard(t *testing.T) {
	slurm := func(id, count, min, max, step string) map[string]string {
		return map[string]string{experiment.EnvSlurmID: id, experiment.EnvSlurmCount: count, experiment.EnvSlurmMin: min, experiment.EnvSlurmMax: max, experiment.EnvSlurmStep: step}
	}
	for _, c := range []struct {
		name   string
		flag   string
		shards int
		env    map[string]string
		want   experiment.Shard
		err    string // a part of the message; "" for success
	}{
		{"none", "", 0, nil, experiment.Shard{}, ""},
		{"none, env ignored", "", 0, slurm("1", "4", "0", "3", "1"), experiment.Shard{}, ""},
		{"explicit", "2/3", 0, nil, experiment.Shard{Index: 2, Count: 3}, ""},
		{"explicit, env ignored", "0/1", 0, map[string]string{experiment.EnvK8sIndex: "5"}, experiment.Shard{Index: 0, Count: 1}, ""},
		{"k = K", "3/3", 0, nil, experiment.Shard{}, "0 ≤ k < K"},
		{"negative", "-1/3", 0, nil, experiment.Shard{}, "0 ≤ k < K"},
		{"K = 0", "0/0", 0, nil, experiment.Shard{}, "0 ≤ k < K"},
		{"not a fraction", "2", 0, nil, experiment.Shard{}, "want k/K"},
		{"junk", "a/b", 0, nil, experiment.Shard{}, "want k/K"},
		{"--shards without auto", "", 3, nil, experiment.Shard{}, "is for --shard auto"},
		{"--shards with k/K", "1/3", 3, nil, experiment.Shard{}, "gives K already"},
		{"--shards negative", "auto", -2, nil, experiment.Shard{}, "must be ≥ 1"},
		{"slurm", "auto", 0, slurm("2", "4", "0", "3", "1"), experiment.Shard{Index: 2, Count: 4}, ""},
		{"slurm, one task", "auto", 0, slurm("0", "1", "0", "0", "1"), experiment.Shard{Index: 0, Count: 1}, ""},
		{"slurm, not from 0", "auto", 0, slurm("3", "3", "1", "3", "1"), experiment.Shard{}, "SLURM_ARRAY_TASK_MIN=\"1\""},
		{"slurm, step 2", "auto", 0, slurm("2", "2", "0", "2", "2"), experiment.Shard{}, "SLURM_ARRAY_TASK_STEP=\"2\""},
		{"slurm, no step", "auto", 0, slurm("1", "2", "0", "1", ""), experiment.Shard{}, "SLURM_ARRAY_TASK_STEP=\"\""},
		{"slurm, ids with a hole", "auto", 0, slurm("5", "3", "0", "5", "1"), experiment.Shard{}, "not 0…2"},
		{"slurm, no count", "auto", 0, map[string]string{experiment.EnvSlurmID: "1"}, experiment.Shard{}, "not a task count"},
		{"slurm rerun with --shards", "auto", 4, slurm("3", "2", "1", "3", ""), experiment.Shard{Index: 3, Count: 4}, ""},
		{"slurm id ≥ --shards", "auto", 2, slurm("3", "4", "0", "3", "1"), experiment.Shard{}, "not a shard number 0…1"},
		{"slurm id junk", "auto", 0, slurm("x", "4", "0", "3", "1"), experiment.Shard{}, "not a shard number"},
		{"kubernetes", "auto", 4, map[string]string{experiment.EnvK8sIndex: "3"}, experiment.Shard{Index: 3, Count: 4}, ""},
		{"kubernetes without --shards", "auto", 0, map[string]string{experiment.EnvK8sIndex: "1"}, experiment.Shard{}, "add --shards K"},
		{"kubernetes index ≥ K", "auto", 4, map[string]string{experiment.EnvK8sIndex: "4"}, experiment.Shard{}, "not a shard number 0…3"},
		{"both", "auto", 4, map[string]string{experiment.EnvK8sIndex: "1", experiment.EnvSlurmID: "1"}, experiment.Shard{}, "both"},
		{"neither", "auto", 4, nil, experiment.Shard{}, "neither"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := experiment.ParseShard(c.flag, c.shards, func(k string) string { return c.env[k] })
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("error %v, want %v", err, c.want)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, %v; want an error with %q", got, err, c.err)
			case got != c.want:
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

// shardCase is an experiment small enough to run four times in a test.
type shardCase struct {
	name string
	args []string
}

var shardCases = []shardCase{
	{"run", []string{"run", "--seeds", "2", "--tasks", "1500", "--set", "warmup=0", "--policy", "hybrid,jsq,oracle",
		"--set", "sweep={param: arrivals.rate, values: [40, 120]}"}},
	{"sweep-load", []string{"sweep-load", "--seeds", "2", "--tasks", "1500", "--set", "warmup=0", "--policy", "hybrid,edge-first", "--set", "sweep.values=[40, 120]"}},
	{"edge-capacity", []string{"edge-capacity", "--seeds", "2", "--tasks", "1500", "--set", "warmup=0", "--policy", "hybrid,random", "--set", "sweep.values=[2, 8]"}},
	{"mape", []string{"mape", "--seeds", "3", "--tasks", "1500", "--set", "warmup=0", "--set", "sweep.values=[40, 120]"}},
	{"burst", []string{"burst", "--seeds", "2", "--policy", "hybrid,edge-first", "--set", "duration=150", "--set", "warmup_time=10",
		"--set", "arrivals.bursts=[{start: 40, every: 60, length: 15, factor: 3}]", "--window", "10"}},
}

// mustRun runs the CLI and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	// SVG figures: what is compared is the same drawing, without
	// rasterising and compressing 3 Mpx per figure.
	code, stdout, stderr := run(t, context.Background(), append(args, "--quiet", "-j", "2", "--format", "svg")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	return stdout
}

// sameFiles checks that every file of the single run (its manifest and
// offload's control files aside) is in the merged folder with the same
// bytes, and that the merged folder has no other results.
func sameFiles(t *testing.T, whole, merged string) {
	t.Helper()
	names := func(dir string) []string {
		var ns []string
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if n := e.Name(); n != "manifest.json" && !strings.HasPrefix(n, ".offload") {
				ns = append(ns, n)
			}
		}
		return ns
	}
	w, m := names(whole), names(merged)
	if strings.Join(w, " ") != strings.Join(m, " ") {
		t.Fatalf("files differ:\nsingle run %v\nmerged     %v", w, m)
	}
	for _, n := range w {
		a, _ := os.ReadFile(filepath.Join(whole, n))
		b, _ := os.ReadFile(filepath.Join(merged, n))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the single run and the merge", n)
		}
	}
}

// TestShardedEqualsWhole runs every experiment whole and as shards 0/3,
// 1/3, 2/3, merges the shards, and compares every file byte for byte. Only
// mape runs unless OFFLOAD_LONG=1 (and never under -short): it has a
// sidecar, and the concurrency is the same in every experiment.
func TestShardedEqualsWhole(t *testing.T) {
	for _, c := range shardCases {
		t.Run(c.name, func(t *testing.T) {
			if (testing.Short() || os.Getenv("OFFLOAD_LONG") == "") && c.name != "mape" {
				t.Skip("long: mape stands for the experiments; set OFFLOAD_LONG=1")
			}
			dir := t.TempDir()
			whole := filepath.Join(dir, "whole")
			mustRun(t, append(c.args, "-o", whole)...)
			var shards []string
			for k := range 3 {
				s := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
				out := mustRun(t, append(c.args, "-o", s, "--shard", fmt.Sprintf("%d/3", k))...)
				if !strings.Contains(out, "summary.csv and the plots come from `offload merge") {
					t.Errorf("shard %d says: %s", k, out)
				}
				if _, err := os.Stat(filepath.Join(s, "summary.csv")); err == nil {
					t.Errorf("shard %d wrote summary.csv", k)
				}
				shards = append(shards, s)
			}
			merged := filepath.Join(dir, "merged")
			// The shards in another order: merge orders them itself.
			code, _, stderr := run(t, context.Background(), "merge", "--format", "svg", "-o", merged, shards[2], shards[0], shards[1])
			if code != 0 {
				t.Fatalf("merge exit %d: %s", code, stderr)
			}
			sameFiles(t, whole, merged)
		})
	}
}

// tinyArgs is a plan of 2 cells × 2 policies × 2 replicates = 8 runs.
var tinyArgs = []string{"run", "--seeds", "2", "--tasks", "1000", "--set", "warmup=0", "--policy", "hybrid,jsq",
	"--set", "sweep={param: arrivals.rate, values: [40, 120]}"}

// TestMoreShardsThanRuns: with K = 11 over 8 runs, three shards are empty;
// they are complete all the same, and merge.
func TestMoreShardsThanRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: eleven runs of the CLI")
	}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	mustRun(t, append(tinyArgs, "-o", whole)...)
	var shards []string
	for k := range 11 {
		s := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
		mustRun(t, append(tinyArgs, "-o", s, "--shard", fmt.Sprintf("%d/11", k))...)
		shards = append(shards, s)
	}
	if body := readFile(t, filepath.Join(shards[9], "runs.csv")); strings.Count(body, "\n") != 1 {
		t.Errorf("shard 9/11 of 8 runs: runs.csv %q, want the header alone", body)
	}
	merged := filepath.Join(dir, "merged")
	if code, _, stderr := run(t, context.Background(), append([]string{"merge", "--format", "svg", "-o", merged}, shards...)...); code != 0 {
		t.Fatalf("merge exit %d: %s", code, stderr)
	}
	sameFiles(t, whole, merged)
}

// editManifest rewrites a folder's manifest.json through a map.
func editManifest(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, "manifest.json")
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, p)), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRefuses: a missing, an incomplete, a foreign and a duplicated
// (different) shard, and a whole run, are each refused with exit 2, a
// message of their own and nothing written; a shard repeated byte for byte
// (a retry) is accepted.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for k := range 3 {
		s := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
		mustRun(t, append(tinyArgs, "-o", s, "--shard", fmt.Sprintf("%d/3", k))...)
		shards = append(shards, s)
	}
	clone := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.CopyFS(p, os.DirFS(shards[1])); err != nil {
			t.Fatal(err)
		}
		return p
	}
	incomplete := clone("incomplete")
	editManifest(t, incomplete, func(m map[string]any) { m["complete"], m["runs_done"] = false, 1 })
	foreign := filepath.Join(dir, "foreign")
	mustRun(t, append(tinyArgs, "--seed", "8", "-o", foreign, "--shard", "1/3")...)
	retried := clone("retried")
	differs := clone("differs")
	runs := readFile(t, filepath.Join(differs, "runs.csv"))
	lines := strings.Split(runs, "\n")
	lines[1] = strings.Replace(lines[1], ",0.", ",1.", 1) // one value of one run changed
	writeFile(t, differs, "runs.csv", strings.Join(lines, "\n"))
	whole := filepath.Join(dir, "whole")
	mustRun(t, append(tinyArgs, "-o", whole)...)
	other := filepath.Join(dir, "other-k")
	mustRun(t, append(tinyArgs, "-o", other, "--shard", "1/4")...)

	for _, c := range []struct {
		name string
		dirs []string
		want []string
	}{
		{"missing", []string{shards[0], shards[2]}, []string{"missing shards 1 of 3 (given: 0, 2)",
			"sbatch --array=1 --export=ALL,OFFLOAD_SHARDS=3 deploy/slurm/offload-array.sbatch " + dir + " run --seeds 2"}},
		{"incomplete", []string{shards[0], incomplete, shards[2]}, []string{incomplete + " (shard 1/3) is incomplete, 1 of 3 runs done", "--resume"}},
		{"foreign", []string{shards[0], foreign, shards[2]}, []string{foreign + " is a shard of another scenario"}},
		{"duplicated", []string{shards[0], shards[1], differs, shards[2]}, []string{"shard 1/3 is given twice, as " + shards[1] + " and " + differs + ", and their runs.csv differ"}},
		{"whole", []string{shards[0], whole}, []string{whole + " holds a whole run, not a shard"}},
		{"other K", []string{shards[0], other, shards[2]}, []string{"disagree on the shard count K (4 against 3)"}},
		{"not a folder", []string{shards[0], filepath.Join(dir, "nowhere")}, []string{"is not a results folder"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "merged-"+c.name)
			code, _, stderr := run(t, context.Background(), append([]string{"merge", "-o", out}, c.dirs...)...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q lacks %q", stderr, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused merge wrote %s", out)
			}
		})
	}
	merged := filepath.Join(dir, "merged")
	if code, _, stderr := run(t, context.Background(), "merge", "--format", "svg", "-o", merged, shards[0], shards[1], retried, shards[2]); code != 0 {
		t.Fatalf("a shard repeated byte for byte was refused: %s", stderr)
	}
	sameFiles(t, whole, merged)
}

// TestShardResume: --resume inside a shard folder runs only the shard's
// missing runs and gives the same bytes; a --resume with another shard is
// refused.
func TestShardResume(t *testing.T) {
	dir := t.TempDir()
	full, part := filepath.Join(dir, "full"), filepath.Join(dir, "part")
	mustRun(t, append(tinyArgs, "-o", full, "--shard", "1/2")...)
	mustRun(t, append(tinyArgs, "-o", part, "--shard", "1/2")...)
	// As if interrupted after the first run: one row kept, incomplete.
	lines := strings.SplitAfter(readFile(t, filepath.Join(part, "runs.csv")), "\n")
	writeFile(t, part, "runs.csv", lines[0]+lines[1])
	editManifest(t, part, func(m map[string]any) { m["complete"], m["runs_done"] = false, 1 })
	code, _, stderr := run(t, context.Background(), append(tinyArgs, "-o", part, "--shard", "0/2", "--resume", "--quiet")...)
	if code != ExitUsage || !strings.Contains(stderr, "holds shard 1/2, not shard 0/2") {
		t.Errorf("--resume with another shard: exit %d, %q", code, stderr)
	}
	mustRun(t, append(tinyArgs, "-o", part, "--shard", "1/2", "--resume")...)
	for _, n := range []string{"runs.csv", "scenario.yaml"} {
		if readFile(t, filepath.Join(full, n)) != readFile(t, filepath.Join(part, n)) {
			t.Errorf("%s differs after --resume in a shard", n)
		}
	}
}

// TestShardAutoFromEnvironment wires --shard auto to the environment the
// command is given: a Kubernetes index with --shards, and refusals.
func TestShardAutoFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	exec := func(vars map[string]string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Execute(context.Background(), append(append(append([]string(nil), tinyArgs...), "--quiet"), args...), IO{Out: &out, Err: &errb, Env: env(vars)})
		return code, errb.String()
	}
	s := filepath.Join(dir, "k8s")
	if code, stderr := exec(map[string]string{experiment.EnvK8sIndex: "1"}, "-o", s, "--shard", "auto", "--shards", "3"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if m := readFile(t, filepath.Join(s, "manifest.json")); !strings.Contains(m, `"k": 1`) || !strings.Contains(m, `"K": 3`) {
		t.Errorf("manifest of shard 1/3 from JOB_COMPLETION_INDEX: %s", m)
	}
	no := filepath.Join(dir, "none")
	if code, stderr := exec(nil, "-o", no, "--shard", "auto"); code != ExitUsage || !strings.Contains(stderr, "neither") {
		t.Errorf("--shard auto without a scheduler: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(no); err == nil {
		t.Error("a refused --shard auto wrote its folder")
	}
}

// TestMergedProvenance: a merged folder records the shards' own command
// (without the flags that concern one shard) as what made it, the merge
// beside it, and every path relative to itself: nothing of the merging
// machine's layout, so that the folder can be shared as it is.
func TestMergedProvenance(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for k := range 2 {
		s := filepath.Join(dir, "runs", fmt.Sprintf("shard-%d", k))
		mustRun(t, append(tinyArgs, "-o", s, "--shard", fmt.Sprintf("%d/2", k), "--resume")...)
		shards = append(shards, s)
	}
	merged := filepath.Join(dir, "study", "merged")
	if code, _, stderr := run(t, context.Background(), append([]string{"merge", "--format", "svg", "-o", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, context.Background(), "report", merged); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	var m struct {
		Command []string `json:"command"`
		Extra   struct {
			MergeCommand []string `json:"merge_command"`
			Shards       []struct {
				Dir string `json:"dir"`
			} `json:"shards"`
		} `json:"extra"`
	}
	b := readFile(t, filepath.Join(merged, "manifest.json"))
	if err := json.Unmarshal([]byte(b), &m); err != nil {
		t.Fatal(err)
	}
	if want := append(append([]string{"offload"}, tinyArgs...), "--quiet", "-j", "2", "--format", "svg"); !slices.Equal(m.Command, want) {
		t.Errorf("command %q, want the shards' own %q", m.Command, want)
	}
	if want := []string{"offload", "merge", "--format", "svg", "-o", ".", "../../runs/shard-0", "../../runs/shard-1"}; !slices.Equal(m.Extra.MergeCommand, want) {
		t.Errorf("merge_command %q, want %q", m.Extra.MergeCommand, want)
	}
	if len(m.Extra.Shards) != 2 || m.Extra.Shards[1].Dir != "../../runs/shard-1" {
		t.Errorf("shards %+v, want their folders relative to the merged one", m.Extra.Shards)
	}
	page := readFile(t, filepath.Join(merged, "report.html"))
	for name, s := range map[string]string{"manifest.json": b, "report.html": page} {
		if strings.Contains(s, dir) {
			t.Errorf("%s holds the merging machine's path %s", name, dir)
		}
	}
	if !strings.Contains(page, "from 2 shards by offload merge --format svg -o . ../../runs/shard-0 ../../runs/shard-1") {
		t.Error("report.html does not say how the folder was merged")
	}
}

// TestMergeStudyWithItsTrace: the shards of a study that replays a trace
// of the user's, beside its scenario file, merge into the whole run's
// runs.csv, merge reading the trace where the shards did; a trace changed
// since is refused (its digest is in the scenario hash).
func TestMergeStudyWithItsTrace(t *testing.T) {
	dir := t.TempDir()
	study := filepath.Join(dir, "study")
	if err := os.MkdirAll(study, 0o755); err != nil {
		t.Fatal(err)
	}
	var tr strings.Builder
	tr.WriteString("arrival_s,size\n")
	for i := range 400 {
		fmt.Fprintf(&tr, "%g,%g\n", 0.02*float64(i), 0.5+float64(i%7)/6)
	}
	sc := `name: study
seed: 3
seeds: 2
warmup: 50
trace: {file: trace.csv, rate: 40}
workload: {large_quantile: 0.9}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 2, speed: 25, delay: {mean: 0.005, cv: 0.2}}
policies: [hybrid, jsq]
`
	for name, body := range map[string]string{"trace.csv": tr.String(), "scenario.yaml": sc} {
		if err := os.WriteFile(filepath.Join(study, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(study, "scenario.yaml")
	whole := filepath.Join(dir, "whole")
	mustRun(t, "run", "-f", file, "-o", whole)
	var shards []string
	for k := range 2 {
		s := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
		mustRun(t, "run", "-f", file, "-o", s, "--shard", fmt.Sprintf("%d/2", k))
		shards = append(shards, s)
	}
	merged := filepath.Join(dir, "merged")
	if code, _, stderr := run(t, context.Background(), append([]string{"merge", "-o", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if a, b := readFile(t, filepath.Join(whole, "runs.csv")), readFile(t, filepath.Join(merged, "runs.csv")); a != b {
		t.Error("the merged runs.csv differs from the whole run's")
	}
	// The same number of rows, other sizes.
	changed := strings.ReplaceAll(tr.String(), ",0.5\n", ",0.6\n")
	if err := os.WriteFile(filepath.Join(study, "trace.csv"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, context.Background(), append([]string{"merge", "-o", filepath.Join(dir, "again")}, shards...)...)
	if code != ExitUsage || !strings.Contains(stderr, "sha256") {
		t.Errorf("merge over a changed trace: exit %d, %q; want %d and the hash that differs", code, stderr, ExitUsage)
	}
}
