package cmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/testbed"
	"go.uber.org/goleak"
)

// tiny is a two-tier scenario that emulates in a fraction of a second.
const tiny = `name: tiny
seed: 3
seeds: 1
duration: 1
arrivals: {rate: 100}
workload: {size: {dist: exponential, mean: 1}}
tiers:
  - {name: edge, kind: edge, servers: 2, speed: 200}
  - {name: cloud, kind: cloud, servers: 4, speed: 200, delay: {mean: 0.01, cv: 0.2}}
policies: [jsq-s, oracle]
`

func TestEmulateFlags(t *testing.T) {
	var got *emulateOptions
	c := newEmulateCmd(IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, func(o *emulateOptions) error { got = o; return nil })
	c.SetArgs([]string{"-f", "x.yaml", "--policy", "hybrid,jsq", "--duration", "30s", "--warmup", "1s", "--time-scale", "0.5",
		"-o", "out", "--quiet", "--tier", "edge=http://h:1", "--tier", "cloud=http://h:2", "--rate", "80", "--seed", "4", "--seeds", "3", "--timeout", "2s"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.sf.file != "x.yaml" || strings.Join(got.policies, ",") != "hybrid,jsq" || got.duration != 30*time.Second || got.warmup != time.Second ||
		got.timeScale != 0.5 || got.dir != "out" || !got.quiet || len(got.tiers) != 2 || got.rate != 80 || got.sf.seed != 4 || got.sf.seeds != 3 || got.timeout != 2*time.Second {
		t.Errorf("options %+v", got)
	}
}

func TestEmulateBadInputExit2(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "tiny.yaml", tiny)
	sweep := writeFile(t, dir, "sweep.yaml", tiny+"sweep: {param: arrivals.rate, values: [50, 100]}\n")
	servers := writeFile(t, dir, "servers.yaml", tiny+"sweep: {param: tiers.edge.servers, values: [1, 2]}\n")
	for _, args := range [][]string{
		{"--duration", "0s"},
		{"--time-scale", "-1"},
		{"--timeout", "0s"},
		{"--format", "gif"},
		{"--tier", "edge"},
		{"--tier", "fog=http://127.0.0.1:1"},
		{"--tier", "edge=http://127.0.0.1:1"}, // nothing listens there
		{"--rate", "-5"},
		{"--policy", "nope"},
		{"-f", sweep},                  // a rate sweep needs --rate
		{"-f", servers, "--rate", "5"}, // only a rate can be picked
	} {
		if args[0] != "-f" {
			args = append([]string{"-f", f}, args...)
		}
		out := filepath.Join(dir, "out")
		code, _, stderr := run(t, context.Background(), append([]string{"emulate", "-o", out}, args...)...)
		if code != ExitUsage || stderr == "" {
			t.Errorf("%q: exit %d (%s), want 2 with a message", args, code, stderr)
		}
	}
}

// readCSV returns a CSV's rows as maps from header to cell.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(readFile(t, path))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A short emulation end to end: files, accounting, the table; one tier on an
// external server given with --tier; no goroutine left behind.
func TestEmulateEndToEnd(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	dir := t.TempDir()
	f := writeFile(t, dir, "tiny.yaml", tiny)
	s, err := testbed.NewServer(testbed.ServerConfig{Name: "cloud", Servers: 4, Speed: 200, TimeScale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	cloud := httptest.NewServer(s)
	defer cloud.Close()
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, context.Background(), "emulate", "-f", f, "-o", out, "--duration", "300ms", "--warmup", "50ms",
		"--time-scale", "0.5", "--tier", "cloud="+cloud.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"requests: sent ", "emulated mean (s)", "jsq-s", "oracle", "Why they differ", "comparison.csv"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	runs := readCSV(t, filepath.Join(out, "runs.csv"))
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	for _, r := range runs {
		sent, c, rej, fail := atoi(t, r["sent"]), atoi(t, r["completed"]), atoi(t, r["rejected"]), atoi(t, r["failed"])
		if sent == 0 || sent != c+rej+fail || r["mean_latency_s"] == "" {
			t.Errorf("run %v: want sent = completed + rejected + failed > 0", r)
		}
	}
	if st := s.State(); st.Completed == 0 {
		t.Error("the external cloud tier served nothing")
	}
	if cmp := readCSV(t, filepath.Join(out, "comparison.csv")); len(cmp) != 2 || cmp[0]["simulated_mean_s"] == "" {
		t.Errorf("comparison %v", cmp)
	}
	// The external tier must match the scenario's.
	code, _, stderr = run(t, context.Background(), "emulate", "-f", f, "-o", out, "--duration", "300ms", "--tier", "cloud="+cloud.URL)
	if code != ExitUsage || !strings.Contains(stderr, "time-scale") {
		t.Errorf("mismatched external tier: exit %d, %s", code, stderr)
	}
}

// rank is built for a clear verdict: the single edge server gets 1.5 times
// its capacity under edge-first, so its queue grows for the whole run, while
// hybrid can shed the excess to the eight cloud servers 20 ms away.
const rank = `name: rank
seed: 5
seeds: 1
duration: 2
arrivals: {rate: 150}
workload: {size: {dist: deterministic, mean: 1}}
tiers:
  - {name: edge, kind: edge, servers: 1, speed: 100}
  - {name: cloud, kind: cloud, servers: 8, speed: 100, delay: {mean: 0.02, cv: 0}}
policies: [edge-first, hybrid]
`

// The loopback emulation ranks edge-first against hybrid as the simulator
// does (DESIGN §6 claim 6 in small). Real time: skipped under -short and
// -race.
func TestEmulateRankingAgreesWithSimulator(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("real-time loopback emulation (about 7 s): not under -short or -race")
	}
	dir := t.TempDir()
	f := writeFile(t, dir, "rank.yaml", rank)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, context.Background(), "emulate", "-f", f, "-o", out, "--duration", "2s", "--warmup", "500ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Log("\n" + stdout)
	mean := map[string][2]float64{}
	for _, r := range readCSV(t, filepath.Join(out, "comparison.csv")) {
		emu, _ := strconv.ParseFloat(r["emulated_mean_s"], 64)
		sim, _ := strconv.ParseFloat(r["simulated_mean_s"], 64)
		mean[r["policy"]] = [2]float64{emu, sim}
	}
	ef, hy := mean["edge-first"], mean["hybrid"]
	for k, side := range []string{"emulated", "simulated"} {
		if !(ef[k] > 3*hy[k]) {
			t.Errorf("%s mean latency: edge-first %v s, hybrid %v s; want edge-first far worse", side, ef[k], hy[k])
		}
	}
}
