package cmd

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pool3 is three alike backends 1 ms away, at ρ = 0.5.
const pool3 = `name: pool3
seed: 2
seeds: 1
duration: 1
arrivals: {rate: 150}
workload: {size: {dist: exponential, mean: 1}}
tiers:
  - {name: s0, kind: edge, servers: 2, speed: 50, delay: {mean: 0.001, cv: 0}}
  - {name: s1, kind: edge, servers: 2, speed: 50, delay: {mean: 0.001, cv: 0}}
  - {name: s2, kind: edge, servers: 2, speed: 50, delay: {mean: 0.001, cv: 0}}
policies: [round-robin, least-conn, p2c, jsq]
`

func TestEmulateBalancerBadInput(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "pool3.yaml", pool3)
	for _, args := range [][]string{
		{"--balancer", "envoy"},
		{"--balancer", "haproxy", "--policy", "jsq"},                 // no counterpart
		{"--balancer", "haproxy", "--tier", "s0=http://127.0.0.1:1"}, // tiers that cannot apply the delays
	} {
		out := filepath.Join(dir, "out")
		code, _, stderr := run(t, context.Background(), append([]string{"emulate", "-f", f, "-o", out}, args...)...)
		if code != ExitUsage || !strings.Contains(stderr, "balancer") {
			t.Errorf("%q: exit %d (%s), want 2 naming --balancer", args, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: %s written", args, out)
		}
	}
}

// A balancer that fails to start is exit 1, its log quoted: here a
// stand-in haproxy on the PATH that complains and exits.
func TestEmulateBalancerFailsToStart(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, bin, "haproxy", "#!/bin/sh\necho '[ALERT] a stand-in that refuses to run' >&2\nexit 1\n")
	if err := os.Chmod(filepath.Join(bin, "haproxy"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	f := writeFile(t, dir, "pool3.yaml", pool3)
	code, _, stderr := run(t, context.Background(), "emulate", "-f", f, "-o", filepath.Join(dir, "out"), "--policy", "least-conn",
		"--balancer", "haproxy", "--duration", "100ms", "--warmup", "0s", "--quiet")
	if code != ExitFailure || !strings.Contains(stderr, "a stand-in that refuses to run") || !strings.Contains(stderr, "haproxy:leastconn") {
		t.Errorf("exit %d, stderr:\n%s\nwant 1 quoting the balancer's log", code, stderr)
	}
}

// The real HAProxy and nginx in front of three tiers: every counterpart
// runs, every request is accounted for and placed at the tier that served
// it, and round-robin spreads the tasks evenly. Long (real programs, wall
// clock): OFFLOAD_LONG=1; skipped where a program is not installed.
func TestEmulateRealBalancers(t *testing.T) {
	if os.Getenv("OFFLOAD_LONG") == "" {
		t.Skip("long: set OFFLOAD_LONG=1")
	}
	for _, p := range []string{"haproxy", "nginx"} {
		if _, err := exec.LookPath(p); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/sbin", p)); err != nil {
				t.Skipf("%s is not installed (apt-get install haproxy nginx)", p)
			}
		}
	}
	dir := t.TempDir()
	f := writeFile(t, dir, "pool3.yaml", pool3)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, context.Background(), "emulate", "-f", f, "-o", out, "--balancer", "haproxy,nginx",
		"--duration", "1s", "--warmup", "200ms", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	runs := readCSV(t, filepath.Join(out, "runs.csv"))
	var labels []string
	for _, r := range runs {
		labels = append(labels, r["policy"])
		sent, c, rej, fail := atoi(t, r["sent"]), atoi(t, r["completed"]), atoi(t, r["rejected"]), atoi(t, r["failed"])
		if sent < 100 || sent != c+rej+fail || fail != 0 || r["valid"] != "1" {
			t.Errorf("%s: sent %d = %d + %d + %d, valid %s: want every request completed", r["policy"], sent, c, rej, fail, r["valid"])
		}
		sum, shares := 0.0, []float64{}
		for _, k := range []string{"share_s0", "share_s1", "share_s2"} {
			x, _ := strconv.ParseFloat(r[k], 64)
			sum, shares = sum+x, append(shares, x)
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: shares %v sum to %v", r["policy"], shares, sum)
		}
		if strings.HasSuffix(r["policy"], "round_robin") || strings.HasSuffix(r["policy"], "roundrobin") {
			tasks := float64(atoi(t, r["tasks"]))
			for _, x := range shares {
				if math.Abs(x-1.0/3) > 2/tasks {
					t.Errorf("%s: shares %v: want a third each, to a task", r["policy"], shares)
				}
			}
		}
	}
	want := "round-robin,least-conn,p2c,jsq,haproxy:roundrobin,haproxy:leastconn,haproxy:random2,nginx:round_robin,nginx:least_conn,nginx:random2"
	if got := strings.Join(labels, ","); got != want {
		t.Errorf("runs %s, want %s", got, want)
	}
	if cmp := readCSV(t, filepath.Join(out, "comparison.csv")); len(cmp) != 10 || cmp[9]["simulated_mean_s"] == "" {
		t.Errorf("comparison: %v", cmp)
	}
}
