//go:build unix

package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// escaper is a policy that, in replicate 1 while the file "fail" sits beside
// it, starts a child in a session of its own (outside the program's
// process group) that holds its stdin, stdout and stderr, writes the
// child's pid to "child", and at task 100 either stalls (writing "stalled")
// or exits 3 (when the file "exit" is there). Elsewhere it behaves.
const escaper = `import json, os, subprocess, sys, time
fail = False
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        fail = m["run"]["replicate"] == 1 and os.path.exists("fail")
        if fail:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True)
            with open("child", "w") as f:
                f.write(str(child.pid))
        print("{}", flush=True)
    elif m["type"] == "decide":
        if fail and m["task"] == 100:
            if os.path.exists("exit"):
                sys.exit(3)
            open("stalled", "w").close()
            time.sleep(3600)
        print(json.dumps({"tier": m["task"] % len(m["tiers"])}), flush=True)
    elif m["type"] == "end":
        break
`

// A policy program whose child escaped its process group, holding its
// pipes, cannot make offload hang: a stall fails the run at the timeout
// and an exit fails it with the exit status (exit 1 both), an interruption
// ends the command with 130, and --resume then finishes the runs. Killing
// the program's group ends no read here; offload ends its own waits.
func TestEscapedChildCannotHangOffload(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	needPython(t)
	for _, c := range []struct {
		name, timeout string
		exit          bool
		cancel        bool
		code          int
		want          string
	}{
		{"stall", "2s", false, false, ExitFailure, "no answer within the timeout of 2s"},
		// The program exits 3; its exit is named when it came before the
		// timeout's kill (Python's own exit can take longer on a busy machine).
		{"exit", "2s", true, false, ExitFailure, "no answer within the timeout of 2s"},
		{"interrupt", "1h", false, true, ExitInterrupted, "interrupted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "escaper.py", escaper)
			writeFile(t, dir, "fail", "")
			if c.exit {
				writeFile(t, dir, "exit", "")
			}
			// The escaped child outlives offload, as documented; end it.
			t.Cleanup(func() { killPidIn(filepath.Join(dir, "child")) })
			f := writeFile(t, dir, "s.yaml", execScenario+"policies: [jsq, {name: exec, as: esc, command: [python3, escaper.py], timeout: "+c.timeout+"}]\n")
			out := filepath.Join(dir, "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var canceled time.Time
			if c.cancel {
				go func() { // interrupt once the program stalls
					for ctx.Err() == nil {
						if _, err := os.Stat(filepath.Join(dir, "stalled")); err == nil {
							canceled = time.Now()
							cancel()
							return
						}
						time.Sleep(10 * time.Millisecond)
					}
				}()
			}
			code, stderr := runBoundedCtx(t, ctx, "run", "-f", f, "-o", out, "-j", "1", "--quiet")
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, %s; want %d and %q", code, stderr, c.code, c.want)
			}
			if c.cancel && os.Getenv("OFFLOAD_WALLCLOCK") == "1" {
				if took := time.Since(canceled); took > time.Second {
					t.Errorf("exit %v after the interrupt; want within a second", took)
				}
			}
			resumeRest(t, dir, f, out)
		})
	}
}

// SIGINT and SIGTERM to an offload process stuck on such a program end it
// with status 130 (within a second: checked with OFFLOAD_WALLCLOCK=1), and
// --resume then finishes the runs.
func TestSignalsEndEscapedRun(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	needPython(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "escaper.py", escaper)
			writeFile(t, dir, "fail", "")
			t.Cleanup(func() { killPidIn(filepath.Join(dir, "child")) })
			f := writeFile(t, dir, "s.yaml", execScenario+"policies: [jsq, {name: exec, as: esc, command: [python3, escaper.py], timeout: 1h}]\n")
			out := filepath.Join(dir, "out")
			path, args, env := offloadCommand("run", "-f", f, "-o", out, "-j", "1", "--quiet")
			c := exec.Command(path, args...)
			c.Env = env
			var stderr strings.Builder
			c.Stderr = &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			for { // until the program stalls
				if _, err := os.Stat(filepath.Join(dir, "stalled")); err == nil {
					break
				}
				select {
				case err := <-done:
					t.Fatalf("offload ended before the program stalled: %v: %s", err, stderr.String())
				case <-time.After(10 * time.Millisecond):
				}
			}
			sent := time.Now()
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(2 * time.Minute): // generous: without the fix it never ends
				_ = c.Process.Kill()
				t.Fatalf("offload did not end after %v", sig)
			}
			took := time.Since(sent)
			if code := c.ProcessState.ExitCode(); code != ExitInterrupted {
				t.Fatalf("exit %d after %v, want %d: %s", code, sig, ExitInterrupted, stderr.String())
			}
			if os.Getenv("OFFLOAD_WALLCLOCK") == "1" && took > time.Second {
				t.Errorf("exit %v after %v; want within a second", took, sig)
			}
			resumeRest(t, dir, f, out)
		})
	}
}

// resumeRest takes the file "fail" away, so that escaper behaves, and
// checks that --resume finishes the six runs of the scenario f into out.
func resumeRest(t *testing.T, dir, f, out string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, "fail")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, context.Background(), "run", "-f", f, "-o", out, "-j", "2", "--quiet", "--resume")
	if code != 0 {
		t.Fatalf("--resume: exit %d: %s", code, stderr)
	}
	if rows := readCSV(t, filepath.Join(out, "runs.csv")); len(rows) != 6 {
		t.Errorf("after --resume: %d runs, want 6", len(rows))
	}
}

// killPidIn kills the process whose pid the file holds, if any.
func killPidIn(name string) {
	if b, err := os.ReadFile(name); err == nil {
		if pid, err := strconv.Atoi(string(b)); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// manyDevices is a run of 1,000 devices, each with its own program.
const manyDevices = `name: many
seed: 3
seeds: 1
tasks: 3000
warmup: 0
devices: 1000
arrivals: {rate: 600}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 40, speed: 25, delay: {mean: 0.005, cv: 0.2}}
  - {name: cloud, kind: cloud, servers: 160, speed: 50, delay: {mean: 0.06, cv: 0.2}}
policies: [{name: exec, as: sh, command: [/bin/sh, policy.sh]}]
`

// A run of 1,000 devices, each with an exec program, runs under a 4 GB
// address-space cap (ulimit -v 4000000): the programs hold no OS thread
// each (a thread per waiting program, with cgo's 8 MiB stacks, aborted it).
func TestManyExecDevicesUnderMemoryCap(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	if raceOn {
		t.Skip("the race detector's shadow memory does not fit the cap")
	}
	dir := t.TempDir()
	writeFile(t, dir, "policy.sh", `while read -r l; do case "$l" in *'"type":"start"'*) echo '{"feedback": false}';; *'"type":"decide"'*) echo '{"tier": 1}';; *'"type":"end"'*) exit 0;; esac; done`)
	f := writeFile(t, dir, "s.yaml", manyDevices)
	out := filepath.Join(dir, "out")
	path, args, env := offloadCommand("run", "-f", f, "-o", out, "-j", "1", "--quiet")
	c := exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" "$@"`, path}, args...)...)
	c.Env = env
	b, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %.2000s", err, b)
	}
	if rows := readCSV(t, filepath.Join(out, "runs.csv")); len(rows) != 1 || rows[0]["tasks"] != "3000" {
		t.Errorf("runs.csv %v, want one run of 3000 tasks", rows)
	}
}

// A plan whose exec programs need more open files than the process may
// hold is refused before anything is written, naming the limit (it failed
// part-way with "too many open files"): 100 devices under ulimit -n 256.
func TestExecPlanOverDescriptorLimit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "policy.sh", `while read -r l; do case "$l" in *'"type":"start"'*) echo '{"feedback": false}';; *'"type":"decide"'*) echo '{"tier": 1}';; *'"type":"end"'*) exit 0;; esac; done`)
	f := writeFile(t, dir, "s.yaml", strings.Replace(manyDevices, "devices: 1000", "devices: 100", 1))
	out := filepath.Join(dir, "out")
	path, args, env := offloadCommand("run", "-f", f, "-o", out, "-j", "1", "--quiet")
	c := exec.Command("/bin/sh", append([]string{"-c", `ulimit -n 256 && exec "$0" "$@"`, path}, args...)...)
	c.Env = env
	b, err := c.CombinedOutput()
	if code := c.ProcessState.ExitCode(); code != ExitUsage || !strings.Contains(string(b), "100 exec programs at once") || !strings.Contains(string(b), "limit of 256 (ulimit -n)") {
		t.Errorf("exit %d (%v): %s; want %d naming the limit", code, err, b, ExitUsage)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an output folder was written")
	}
}

// offloadCommand is the test binary as offload (TestMain, env_test.go),
// with args.
func offloadCommand(args ...string) (path string, argv []string, env []string) {
	return os.Args[0], args, append(os.Environ(), "OFFLOAD_TEST_AS_MAIN=1")
}
