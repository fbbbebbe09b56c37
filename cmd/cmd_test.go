package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/runner"
)

// small is a quick three-tier scenario with a two-point sweep.
const small = `name: small
seed: 7
seeds: 3
tasks: 3000
warmup: 300
arrivals: {rate: 60}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25, delay: {mean: 0.005, cv: 0.2}}
  - {name: cloud, kind: cloud, servers: 16, speed: 50, delay: {mean: 0.06, cv: 0.2}}
policies: [hybrid, jsq, edge-first, random, oracle]
sweep: {param: arrivals.rate, values: [40, 120]}
`

// run executes the CLI in-process and returns its exit status and streams.
func run(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Execute(ctx, args, IO{Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBadInputExit2 checks that bad input exits 2 with a message naming the
// problem, and leaves no output folder behind.
func TestBadInputExit2(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.yaml", small)
	bad := writeFile(t, dir, "bad.yaml", strings.Replace(small, "servers: 4", "servers: 0", 1))
	unknown := writeFile(t, dir, "unknown.yaml", strings.Replace(small, "seeds: 3", "seedz: 3", 1))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"run", "-f", filepath.Join(dir, "nope.yaml")}, "no such file"},
		{"bad servers", []string{"run", "-f", bad}, "servers"},
		{"unknown key", []string{"run", "-f", unknown}, "seedz"},
		{"seeds 0", []string{"run", "-f", good, "--seeds", "0"}, "--seeds 0"},
		{"jobs -1", []string{"run", "-f", good, "-j", "-1"}, "-j -1"},
		{"tasks abc", []string{"run", "-f", good, "--tasks", "abc"}, "abc"},
		{"bad set path", []string{"run", "-f", good, "--set", "tiers.fog.servers=3"}, "fog"},
		{"bad set value", []string{"run", "-f", good, "--set", "tiers.edge.speed=-3"}, "speed"},
		{"unknown policy", []string{"run", "-f", good, "--policy", "fastest"}, "fastest"},
		{"format", []string{"run", "-f", good, "--format", "gif"}, "gif"},
		{"positional", []string{"run", good}, "no arguments"},
		{"unknown flag", []string{"run", "--frobnicate"}, "frobnicate"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"validate bad", []string{"validate", "-f", bad}, "servers"},
		{"device file", []string{"run", "-f", "/dev/zero"}, "not a regular file"},
		{"folder as file", []string{"run", "-f", dir}, "not a regular file"},
		{"tasks overflow", []string{"run", "-f", good, "--set", "tasks=99999999999"}, "out of range"},
		{"servers overflow", []string{"run", "-f", good, "--set", "tiers.edge.servers=99999999999"}, "out of range"},
		{"memory", []string{"run", "-f", good, "--tasks", "100000000", "--max-memory", "1MiB"}, "needs about"}, // 16 MB a run: latencies bounded at 10⁶
		{"rate overflow", []string{"run", "-f", good, "--set", "arrivals.rate=1e300", "--set", "sweep=null"}, "out of range"},
		{"precision 0", []string{"run", "-f", good, "--precision", "0"}, "--precision 0"},
		{"precision 1", []string{"run", "-f", good, "--precision", "1"}, "--precision 1"},
		{"max-seeds 1", []string{"run", "-f", good, "--precision", "0.1", "--max-seeds", "1"}, "--max-seeds 1"},
		{"max-seeds alone", []string{"run", "-f", good, "--max-seeds", "50"}, "--max-seeds"},
		{"precision-on p50", []string{"run", "-f", good, "--precision", "0.1", "--precision-on", "p50"}, "--precision-on"},
		{"precision shard", []string{"run", "-f", good, "--precision", "0.1", "--shard", "0/2"}, "--shard 0/2 with --precision"},
		{"cv overflow", []string{"run", "-f", good, "--set", "workload.size={dist: lognormal, mean: 1, cv: 1e200}"}, "workload.size.cv"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			code, _, stderr := run(t, context.Background(), append(c.args, "-o", out)...)
			if c.args[0] == "validate" || c.name == "unknown command" {
				code, _, stderr = run(t, context.Background(), c.args...)
			}
			if code != ExitUsage {
				t.Errorf("exit %d, want %d; stderr: %s", code, ExitUsage, stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not mention %q", stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("output folder %s was created", out)
			}
		})
	}
}

// TestRunWritesFiles runs a small sweep and checks every file and the
// sanity of its numbers.
func TestRunWritesFiles(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", small)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "--trace", "--policy", "hybrid,edge-first")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"runs.csv", "summary.csv", "scenario.yaml", "manifest.json", "mean_latency.png", "p95_latency.png", "p95_large.png"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("missing %s", name)
		}
		if !strings.Contains(stdout, name) && strings.HasSuffix(name, ".csv") {
			t.Errorf("stdout does not name %s:\n%s", name, stdout)
		}
	}
	traces, _ := filepath.Glob(filepath.Join(out, "traces", "*.csv"))
	if len(traces) != 2*2*3 {
		t.Errorf("%d traces, want 12", len(traces))
	}
	// Each trace names its cell by the swept value (the sweep is over
	// arrivals.rate: 40 and 120).
	for _, want := range []string{"arrivals.rate=40_hybrid_0.csv", "arrivals.rate=120_edge-first_2.csv"} {
		if _, err := os.Stat(filepath.Join(out, "traces", want)); err != nil {
			t.Errorf("no trace %s among %v", want, traces)
		}
	}
	tr := readFile(t, traces[0])
	if !strings.HasPrefix(tr, "id,arrival_s,size,tier,delay_s,wait_s,service_s,latency_s,measured\n") || strings.Count(tr, "\n") < 3000 {
		t.Errorf("trace %s looks wrong: %d lines", traces[0], strings.Count(tr, "\n"))
	}
	runs := readFile(t, filepath.Join(out, "runs.csv"))
	if got := strings.Count(runs, "\n"); got != 1+2*2*3 {
		t.Errorf("runs.csv has %d lines, want 13", got)
	}
	// The manifest lists every file the run wrote, the summary and plots
	// written after its runs included, and no journal is left: a copy of
	// the folder without its dot files is still offload's.
	var m struct{ Files []string }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	err := filepath.WalkDir(out, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if rel != "manifest.json" && rel != ".offload.lock" {
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(onDisk)
	if !slices.Equal(m.Files, onDisk) {
		t.Errorf("manifest files %v\nbut the folder holds %v", m.Files, onDisk)
	}
}

// TestDeterministicAcrossWorkers: -j 1 and -j 4 write the same bytes, and a
// second run writes them again.
func TestDeterministicAcrossWorkers(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", small)
	var got []string
	for i, j := range []string{"1", "4", "4"} {
		out := filepath.Join(dir, "out"+string(rune('a'+i)))
		if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "-j", j, "--quiet", "--format", "svg"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got = append(got, readFile(t, filepath.Join(out, "runs.csv"))+readFile(t, filepath.Join(out, "summary.csv"))+readFile(t, filepath.Join(out, "scenario.yaml")))
	}
	if got[0] != got[1] || got[1] != got[2] {
		t.Error("outputs differ between -j 1, -j 4 and a repeat")
	}
}

// TestRefusesOtherScenario: a folder holding another scenario's results is
// not overwritten without --force.
func TestRefusesOtherScenario(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", small)
	out := filepath.Join(dir, "out")
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "--policy", "jsq", "--seeds", "1", "--format", "svg"); code != 0 {
		t.Fatal(stderr)
	}
	before := readFile(t, filepath.Join(out, "runs.csv"))
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "--policy", "random", "--seeds", "1", "--format", "svg")
	if code != ExitUsage || !strings.Contains(stderr, "another scenario") || !strings.Contains(stderr, "the scenarios differ in: policies\n") {
		t.Errorf("exit %d, stderr %q; want 2 and a refusal naming the field that differs (policies)", code, stderr)
	}
	if readFile(t, filepath.Join(out, "runs.csv")) != before {
		t.Error("runs.csv changed")
	}
	if code, _, _ := run(t, context.Background(), "run", "-f", f, "-o", out, "--policy", "random", "--seeds", "1", "--force"); code != 0 {
		t.Error("--force did not overwrite")
	}
}

// TestInterruptAndResume: an interrupted run keeps what finished, exits 130,
// and --resume completes it into the same bytes as an uninterrupted run.
// The interrupt comes when the first run has finished, a point of the
// command rather than a time, so that it lands between runs on any machine:
// with two workers the other run in flight is cut short or finishes, and
// the rest of the 30 are not started.
func TestInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", small)
	full := filepath.Join(dir, "full")
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", full, "-j", "2", "--format", "svg"); code != 0 {
		t.Fatal(stderr)
	}
	part := filepath.Join(dir, "part")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	code := Execute(ctx, []string{"run", "-f", f, "-o", part, "-j", "2", "--format", "svg"}, IO{Out: &bytes.Buffer{}, Err: &stderr,
		onRun: func(done, _ int) {
			if done == 1 {
				cancel()
			}
		}})
	if code != ExitInterrupted {
		t.Fatalf("interrupted run exited %d, want %d: %s", code, ExitInterrupted, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(part, "summary.csv")); err == nil {
		t.Error("an interrupted run wrote summary.csv")
	}
	if m, err := runner.ReadManifest(part); err != nil || m.Complete || m.RunsDone < 1 || m.RunsDone >= m.Runs {
		t.Errorf("manifest after interruption: %+v, %v", m, err)
	}
	// plot says why there is nothing to plot yet, and what finishes it.
	if code, _, stderr := run(t, context.Background(), "plot", part, "--y", "mean_latency_s", "-o", filepath.Join(dir, "p.svg")); code != ExitUsage || !strings.Contains(stderr, "did not finish") || !strings.Contains(stderr, "--resume") {
		t.Errorf("plot of the interrupted folder: exit %d, %s; want 2 naming --resume", code, stderr)
	}
	if code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", part, "-j", "1", "--resume", "--format", "svg"); code != 0 {
		t.Fatalf("resume exited %d: %s", code, stderr)
	}
	for _, name := range []string{"runs.csv", "summary.csv", "scenario.yaml"} {
		if readFile(t, filepath.Join(full, name)) != readFile(t, filepath.Join(part, name)) {
			t.Errorf("%s differs after resume", name)
		}
	}
}

// TestValidatePrintsResolved: validate fills in defaults.
func TestValidatePrintsResolved(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), "validate", "--set", "tiers.edge.servers=8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"rho_max: 0.99", "servers: 8", "large_quantile: 0.9"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("resolved scenario lacks %q:\n%s", want, stdout)
		}
	}
}

// TestAblationAsTwoEntries: two entries of one policy run side by side
// under common random numbers, each under its own label. At 10 tasks/s the
// edge is never busy, so hybrid with ε = 0 makes edge-first's decisions:
// its rows must equal edge-first's, number for number, while hybrid with
// the default ε = 0.05 explores and differs.
func TestAblationAsTwoEntries(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", strings.Replace(small, "sweep: {param: arrivals.rate, values: [40, 120]}", "", 1))
	out := filepath.Join(dir, "out")
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "--set", "arrivals.rate=10",
		"--set", "policies=[hybrid, {name: hybrid, as: hybrid-eps0, epsilon: 0}, edge-first]")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := map[string][]string{}
	lines := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(out, "runs.csv"))), "\n")
	for _, line := range lines[1:] {
		fields := strings.Split(line, ",")
		key := fields[3] + "/" + fields[4] // label/replicate
		rows[key] = fields[5:]
	}
	// Every column but mape (edge-first predicts nothing) is equal.
	mape := slices.Index(strings.Split(lines[0], ","), "mape") - 5
	for rep := range 3 {
		r := strconv.Itoa(rep)
		e0, ef, h := rows["hybrid-eps0/"+r], rows["edge-first/"+r], rows["hybrid/"+r]
		if len(e0) == 0 || len(ef) == 0 || len(h) == 0 {
			t.Fatalf("replicate %d: rows missing: %v", rep, rows)
		}
		for i := range e0 {
			if i != mape && e0[i] != ef[i] {
				t.Errorf("replicate %d column %d: hybrid-eps0 %s, edge-first %s", rep, i, e0[i], ef[i])
			}
		}
		if h[1] == e0[1] {
			t.Errorf("replicate %d: hybrid with ε = 0.05 has hybrid-eps0's mean latency %s", rep, h[1])
		}
	}
	resolved := readFile(t, filepath.Join(out, "scenario.yaml"))
	if !strings.Contains(resolved, "as: hybrid-eps0") {
		t.Errorf("scenario.yaml does not keep the entry:\n%s", resolved)
	}
}

// pathological is the slowest arrival process the bounds admit that still
// looks harmless: one task every 1000 s on average, through bursts every
// 0.2 s, so that placing one arrival walks about ten thousand burst edges.
const pathological = `name: slow
seeds: 1
duration: 90000000
arrivals:
  rate: 0.001
  bursts: [{start: 0, every: 0.2, length: 0.1, factor: 2}]
tiers:
  - {name: edge, kind: edge, servers: 1, speed: 10}
policies: [edge-first]
`

// TestInterruptWithinASecond: SIGINT (a cancelled context) stops a run of
// the slowest kind within a second, exit 130. Wall clock: OFFLOAD_WALLCLOCK=1.
func TestInterruptWithinASecondWallclock(t *testing.T) {
	if os.Getenv("OFFLOAD_WALLCLOCK") != "1" {
		t.Skip("wall-clock test: set OFFLOAD_WALLCLOCK=1 to run it")
	}
	dir := t.TempDir()
	f := writeFile(t, dir, "slow.yaml", pathological)
	ctx, cancel := context.WithCancel(context.Background())
	var stopped time.Time
	time.AfterFunc(500*time.Millisecond, func() { stopped = time.Now(); cancel() })
	code, _, stderr := run(t, ctx, "run", "-f", f, "-o", filepath.Join(dir, "out"), "-j", "1")
	if took := time.Since(stopped); code != ExitInterrupted || took > time.Second {
		t.Errorf("exit %d %s after the interrupt, %v later; want 130 within a second", code, stderr, took)
	}
}

// TestTwoWritersOneFolder: while one offload writes a folder, a second one
// (another scenario) is refused at once, and the first finishes untouched.
// The first is held after its first run until the second has been
// refused, so that it is writing then on any machine.
func TestTwoWritersOneFolder(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", small)
	out := filepath.Join(dir, "out")
	holding, release := make(chan struct{}), make(chan struct{})
	first := make(chan int)
	go func() {
		first <- Execute(context.Background(), []string{"run", "-f", f, "-o", out, "-j", "1"}, IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{},
			onRun: func(done, _ int) {
				if done == 1 {
					close(holding)
					<-release
				}
			}})
	}()
	select {
	case <-holding:
	case code := <-first:
		t.Fatalf("the first writer exited %d before its first run finished", code)
	}
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "--seeds", "1", "--force")
	close(release)
	if code != ExitUsage || !strings.Contains(stderr, "another offload process is writing") {
		t.Errorf("second writer: exit %d, %q; want 2 and a message naming the other process", code, stderr)
	}
	if code := <-first; code != 0 {
		t.Errorf("first writer exited %d", code)
	}
	if m, err := runner.ReadManifest(out); err != nil || !m.Complete || m.Seeds != 3 {
		t.Errorf("the first run's manifest %+v, %v: want it complete, 3 replicates", m, err)
	}
}

// TestErrorsSayOffloadOnce: a message names the program once, and a bad
// value given with --set is blamed on the flag, not on the embedded file.
func TestErrorsSayOffloadOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mape", "--scale", "x"}, "offload: mape: unknown flag: --scale"},
		{[]string{"--bogus"}, "offload: unknown flag: --bogus"},
		{[]string{"report", "a", "b"}, "offload: report takes one results folder"},
		{[]string{"validate", "x.yaml"}, "offload: validate takes no arguments"},
		{[]string{"merge"}, "offload: merge: give the shard folders"},
		{[]string{"mape", "--set", "tasks=-1", "-o", t.TempDir()}, "offload: --set tasks: -1 is not allowed"},
		{[]string{"run", "--tasks", "99999999999", "-o", t.TempDir()}, "offload: --tasks: 99999999999 is out of range"},
	} {
		code, _, stderr := run(t, context.Background(), c.args...)
		if code != ExitUsage || !strings.HasPrefix(stderr, c.want) || strings.Contains(stderr, "offload: offload") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message starting %q", c.args, code, stderr, c.want)
		}
	}
}

// TestRegularFileNotFolder: a regular file where a folder is wanted is said
// to be one, whether it is -o, a parent of -o or a folder to read.
func TestRegularFileNotFolder(t *testing.T) {
	file := writeFile(t, t.TempDir(), "notes.txt", "mine")
	for _, args := range [][]string{
		{"run", "--seeds", "1", "--tasks", "100", "-o", file},
		{"run", "--seeds", "1", "--tasks", "100", "-o", filepath.Join(file, "sub")},
		{"report", file},
		{"compare", file, "--baseline", "hybrid"},
	} {
		code, _, stderr := run(t, context.Background(), args...)
		if code != ExitUsage || !strings.Contains(stderr, file+" is a regular file, not a") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the file named as a regular file", args, code, stderr)
		}
	}
}

// TestEveryCommandHasAnExample: --help of every command shows how to call
// it, the first thing a newcomer looks for.
func TestEveryCommandHasAnExample(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.Hidden && c.Name() != "help" && c.Name() != "completion" && c.Runnable() && strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no Example", c.CommandPath())
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(NewRoot(IO{}))
}

// TestCompletion: shell completion offers policy names for --policy (the
// last item of a list), the scales for --scale, folders for report, and
// for plot --y the columns of the folder's summary.csv (before the folder
// is given, those every run has).
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	head := "experiment,param,value,policy,runs,mean_latency_s,mean_latency_s_ci95,share_fog,share_fog_ci95,unstable\n"
	if err := os.WriteFile(filepath.Join(dir, "summary.csv"), []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"__complete", "plot", dir, "--y", "sh"}, []string{"share_fog\n"}, []string{"mean_latency_s\n", "share_fog_ci95"}},
		{[]string{"__complete", "plot", dir, "--y", ""}, []string{"mean_latency_s\n", "share_fog\n"}, []string{"unstable", "_ci95"}},
		{[]string{"__complete", "plot", "--y", "p9"}, []string{"p95_latency_s\n", "p99_latency_s\n"}, nil},
		{[]string{"__complete", "sweep-load", "--policy", "hybrid,j"}, []string{"hybrid,jsq\n", "hybrid,jsq-s\n"}, []string{"hybrid,hybrid"}},
		{[]string{"__complete", "emulate", "--policy", "edge"}, []string{"edge-first\n"}, nil},
		{[]string{"__complete", "mape", "--router", ""}, []string{"hybrid\n", "oracle\n"}, nil},
		{[]string{"__complete", "reproduce", "--scale", ""}, []string{"ci\n", "paper\n"}, nil},
		{[]string{"__complete", "compare", "x", "--baseline", "hy"}, []string{"hybrid\n"}, nil},
	} {
		code, stdout, stderr := run(t, context.Background(), c.args...)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(stdout, w) {
				t.Errorf("%v: exit %d, completions %q (%s); want %q", c.args, code, stdout, stderr, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(stdout, w) {
				t.Errorf("%v: completions %q offer %q", c.args, stdout, w)
			}
		}
	}
}

// TestTableMarksUnstable: the printed table marks a row whose policy
// overloads a tier, and only that row.
func TestTableMarksUnstable(t *testing.T) {
	// edge-first alone is unstable at 150 tasks/s.
	checkUnstable(t, "edge-first", "sweep-load", "--tasks", "2000", "--seeds", "2", "--set", "warmup=0",
		"--set", "sweep.values=[150]", "--policy", "hybrid,edge-first")
	// burst's table too: random overloads the local tier at its base load.
	checkUnstable(t, "random", "burst", "--seeds", "1", "--set", "duration=400", "--policy", "hybrid,random")
}

// checkUnstable runs the command, whose table has two rows, and checks
// that its header ends with the unstable column and that the row of the
// policy named, alone, is marked.
func checkUnstable(t *testing.T, unstable string, args ...string) {
	t.Helper()
	code, stdout, stderr := run(t, context.Background(), append(args, "--quiet", "-o", t.TempDir())...)
	if code != 0 {
		t.Fatal(stderr)
	}
	lines := strings.Split(stdout, "\n")
	if !strings.HasSuffix(lines[0], "  unstable") {
		t.Errorf("%s: header %q lacks the unstable column", args[0], lines[0])
	}
	for _, l := range lines[1:3] {
		want := strings.Contains(l, unstable)
		if strings.HasSuffix(l, "  yes") != want {
			t.Errorf("%s: row %q marked %v, want %v (%s alone is unstable)", args[0], l, !want, want, unstable)
		}
	}
}

// TestWarnsOfShortRuns: a run too short to mean anything is said so on
// stderr, and it still runs.
func TestWarnsOfShortRuns(t *testing.T) {
	code, _, stderr := run(t, context.Background(), "run", "--tasks", "500", "--seeds", "1", "--quiet", "-o", t.TempDir())
	if code != 0 || !strings.Contains(stderr, "offload: warning: default: 500 measured tasks per run: fewer than 1000") {
		t.Errorf("exit %d, stderr %q; want 0 and the short-run warning", code, stderr)
	}
}
