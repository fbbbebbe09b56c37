package cmd

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// needPython skips a test of the Python examples where python3 is missing,
// except under OFFLOAD_PYTHON=1 (CI), where a missing python3 fails it, so
// that the examples cannot go untested unnoticed.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("OFFLOAD_PYTHON") == "1" {
			t.Fatalf("OFFLOAD_PYTHON=1 but python3 is missing: %v", err)
		}
		t.Skip("python3 not found (CI sets OFFLOAD_PYTHON=1 and installs it)")
	}
}

// examples is examples/policies/, the example programs' folder.
func examples(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "examples", "policies"))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// The three example programs run beside the built-in policies: the
// smallest one's runs.csv rows equal the built-in edge-first's, labels
// aside; the learning one gets done messages and so has a MAPE; and the
// file is byte-identical for -j 1 and -j 2 (their randomness comes from
// the seed they are given).
func TestExamplePolicies(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	needPython(t)
	dir := t.TempDir()
	args := []string{"run", "-f", filepath.Join(examples(t), "scenario.yaml"), "--tasks", "2000", "--seeds", "2", "--quiet"}
	var csv [2][]byte
	for i, j := range []string{"1", "2"} {
		out := filepath.Join(dir, "j"+j)
		code, _, stderr := run(t, context.Background(), append(args, "-o", out, "-j", j)...)
		if code != 0 {
			t.Fatalf("-j %s: exit %d: %s", j, code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "runs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		csv[i] = b
	}
	if !bytes.Equal(csv[0], csv[1]) {
		t.Errorf("runs.csv differs between -j 1 and -j 2:\n%s\n---\n%s", csv[0], csv[1])
	}
	rows := readCSV(t, filepath.Join(dir, "j2", "runs.csv"))
	byLabel := map[string][]map[string]string{}
	for _, r := range rows {
		byLabel[r["policy"]] = append(byLabel[r["policy"]], r)
	}
	for _, l := range []string{"edge-first", "edge-first-py", "power-of-two-py", "bandit-py"} {
		if len(byLabel[l]) != 2 {
			t.Fatalf("%s: %d rows, want 2", l, len(byLabel[l]))
		}
	}
	for i, py := range byLabel["edge-first-py"] {
		builtin := byLabel["edge-first"][i]
		for k, v := range builtin {
			if k != "policy" && py[k] != v {
				t.Errorf("replicate %d, %s: edge_first.py %q, edge-first %q", i, k, py[k], v)
			}
		}
	}
	for _, r := range byLabel["bandit-py"] {
		if r["mape"] == "" {
			t.Errorf("bandit.py sends pred_latency, yet its mape is empty: %v", r)
		}
	}
	if r := byLabel["power-of-two-py"][0]; r["mape"] != "" {
		t.Errorf("power_of_two.py predicts nothing, yet mape = %s", r["mape"])
	}
	if _, err := os.Stat(filepath.Join(dir, "j2", "policies", "bandit-py-cell0-rep1.log")); err != nil {
		t.Errorf("the program's stderr log: %v", err)
	}
}

// flaky writes garbage at task 100 of replicate 1 while the file "fail"
// sits beside it, and behaves otherwise.
const flaky = `import json, os, sys
fail = False
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        fail = m["run"]["replicate"] == 1 and os.path.exists("fail")
        print("{}", flush=True)
    elif m["type"] == "decide":
        if fail and m["task"] == 100:
            print("tier one, please", flush=True)
        else:
            print(json.dumps({"tier": m["task"] % len(m["tiers"])}), flush=True)
    elif m["type"] == "end":
        break
`

const execScenario = `name: ext
seed: 3
seeds: 3
tasks: 400
warmup: 100
arrivals: {rate: 60}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25, delay: {mean: 0.005, cv: 0.2}}
  - {name: cloud, kind: cloud, servers: 16, speed: 50, delay: {mean: 0.06, cv: 0.2}}
`

// A program that writes malformed JSON fails its run with a message naming
// the label, the run, the task and what it wrote; the command exits 1 and
// keeps the finished runs, and --resume runs the rest once it behaves.
func TestExecFailureAndResume(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	writeFile(t, dir, "flaky.py", flaky)
	writeFile(t, dir, "fail", "")
	f := writeFile(t, dir, "s.yaml", execScenario+"policies: [jsq, {name: exec, as: flaky, command: [python3, flaky.py]}]\n")
	out := filepath.Join(dir, "out")
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "-j", "1", "--quiet")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	for _, w := range []string{"policy flaky", "replicate 1", "task 100", `"tier one, please"`, "not valid JSON", "flaky-cell0-rep1.log"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q: %s", w, stderr)
		}
	}
	// -j 1 runs replicate by replicate, each replicate's policies in
	// order: jsq and flaky of replicate 0, then jsq of replicate 1 before
	// flaky fails.
	if rows := readCSV(t, filepath.Join(out, "runs.csv")); len(rows) != 3 {
		t.Fatalf("%d finished runs kept, want 3: %v", len(rows), rows)
	}
	if err := os.Remove(filepath.Join(dir, "fail")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = run(t, context.Background(), "run", "-f", f, "-o", out, "-j", "2", "--quiet", "--resume")
	if code != 0 {
		t.Fatalf("--resume: exit %d: %s", code, stderr)
	}
	if rows := readCSV(t, filepath.Join(out, "runs.csv")); len(rows) != 6 {
		t.Errorf("after --resume: %d runs, want 6", len(rows))
	}
}

// stubborn ignores SIGTERM, leaves its pid in "pid", and never answers.
const stubborn = `import json, os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open("pid", "w") as f:
    f.write(str(os.getpid()))
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print("{}", flush=True)
    else:
        time.sleep(3600)
`

// A program that exceeds its timeout fails the run, and does not outlive
// the command even though it ignores SIGTERM. The timeout does not cover
// Python's start-up (the answer to start has a limit of its own), and the
// program never answers a decide, so no machine is too slow for it.
func TestExecTimeoutKillsStubbornProgram(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	writeFile(t, dir, "stubborn.py", stubborn)
	f := writeFile(t, dir, "s.yaml", execScenario+"policies: [{name: exec, as: stuck, command: [python3, stubborn.py], timeout: 500ms}]\n")
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", filepath.Join(dir, "out"), "-j", "1", "--seeds", "1", "--quiet")
	if code != 1 || !strings.Contains(stderr, "no answer within the timeout of 500ms") || !strings.Contains(stderr, "task 0") {
		t.Fatalf("exit %d, want 1 with the timeout: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, 0); err == nil && !zombie(pid) {
		t.Errorf("the program (pid %d) outlived the command", pid)
	}
}

// zombie reports a process that has exited but not been reaped yet.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] == "Z"
}

// A bad exec entry is bad input: exit 2, naming the option.
func TestExecBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ entry, want string }{
		{"{name: exec, as: x}", "option command is required"},
		{"{name: exec, as: x, command: []}", "command"},
		{"{name: exec, as: x, command: [./p, 0.5]}", `element 1 is 0.5, not a string`},
		{"{name: exec, as: x, command: [./p], timeout: soon}", `"soon" is not allowed`},
		{"{name: exec, as: x, command: [./p], timeout: 0s}", "out of range"},
		{"{name: exec, as: x, command: [./p], tiemout: 1s}", `unknown option "tiemout"`},
	} {
		f := writeFile(t, dir, "s.yaml", execScenario+"policies: ["+c.entry+"]\n")
		code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", filepath.Join(dir, "out"), "--quiet")
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %s; want %d and %q", c.entry, code, stderr, ExitUsage, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("%s: an output folder was written", c.entry)
		}
	}
}

// The same programs drive the HTTP emulation: a short emulate of the
// smallest and the learning example.
func TestExecEmulate(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	needPython(t)
	dir := t.TempDir()
	src := examples(t)
	for _, n := range []string{"edge_first.py", "bandit.py"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, n, string(b))
	}
	f := writeFile(t, dir, "s.yaml", tiny[:strings.Index(tiny, "policies:")]+
		"policies: [edge-first, {name: exec, as: edge-first-py, command: [python3, edge_first.py]}, {name: exec, as: bandit-py, command: [python3, bandit.py]}]\n")
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, context.Background(), "emulate", "-f", f, "-o", out, "--duration", "300ms", "--warmup", "50ms", "--time-scale", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	runs := readCSV(t, filepath.Join(out, "runs.csv"))
	seen := map[string]bool{}
	for _, r := range runs {
		seen[r["policy"]] = true
		if atoi(t, r["completed"]) == 0 || r["valid"] != "1" {
			t.Errorf("run %v: want completed tasks, valid", r)
		}
	}
	if !seen["edge-first-py"] || !seen["bandit-py"] {
		t.Errorf("emulated runs %v: want the two programs'", runs)
	}
	if _, err := os.Stat(filepath.Join(out, "policies", "bandit-py-cell0-rep0.log")); err != nil {
		t.Errorf("the program's stderr log in the emulation's folder: %v", err)
	}
}
