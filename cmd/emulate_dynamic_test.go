package cmd

import (
	"context"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// downEdge is an edge that is down for 3 of the 10 model seconds a run lasts
// (half a second of wall clock at time-scale 0.05), beside a cloud.
const downEdge = `name: downEdge
seed: 11
seeds: 1
duration: 1
arrivals: {rate: 30}
workload: {size: {dist: exponential, mean: 1}}
tiers:
  - {name: edge, kind: edge, servers: 2, speed: 200, episodes: [{start: 2, end: 5, down: true}]}
  - {name: cloud, kind: cloud, servers: 4, speed: 200, delay: {mean: 0.01, cv: 0}}
policies: [edge-first]
`

// emulateShort runs a half-second emulation of the scenario at time-scale
// 0.05 (10 model seconds) and returns its runs.csv and comparison.csv
// rows.
func emulateShort(t *testing.T, yaml string, args ...string) (runs, cmp []map[string]string) {
	t.Helper()
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", yaml)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := run(t, context.Background(), append([]string{"emulate", "-f", f, "-o", out, "--duration", "500ms", "--warmup", "0s",
		"--time-scale", "0.05", "--quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	return readCSV(t, filepath.Join(out, "runs.csv")), readCSV(t, filepath.Join(out, "comparison.csv"))
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A down episode on the testbed: the edge refuses what edge-first sends it
// for 3 of 10 s, those tasks are counted lost (as the simulator counts
// them), and the run stays valid, since the scenario scheduled the
// failures. With a retry, those it refuses go to the cloud instead (those
// present when it fails are still lost: no timeout tells the dispatcher).
func TestEmulateDownEpisode(t *testing.T) {
	runs, _ := emulateShort(t, downEdge)
	r := runs[0]
	sent, c, rej, fail := atoi(t, r["sent"]), atoi(t, r["completed"]), atoi(t, r["rejected"]), atoi(t, r["failed"])
	if r["valid"] != "1" || sent != c+rej+fail || rej == 0 {
		t.Errorf("run %v: want valid, the refusals among the rejected", r)
	}
	// 3 of the 10 s down: the tasks that reach the edge then, about 0.3
	// of them (each request carries its model instant, so the client's
	// lag does not move them), and those present when it fails, more on
	// a busy machine.
	if lost := num(t, r["lost_share"]); !(lost > 0.15) || num(t, r["retry_share"]) != 0 {
		t.Errorf("lost_share %v, retry_share %v: want over 0.15, 0", lost, r["retry_share"])
	}
	runs, _ = emulateShort(t, downEdge, "--set", "retries=1")
	r = runs[0]
	if retried := num(t, r["retry_share"]); r["valid"] != "1" || !(retried > 0.15) || num(t, r["share_cloud"]) < retried-1e-9 ||
		math.Abs(num(t, r["share_edge"])+num(t, r["share_cloud"])-1) > 1e-9 {
		t.Errorf("with a retry: %v: want valid, over 0.15 retried, to the cloud, each task at one tier", r)
	}
}

// A slow-down stretches service on the testbed: a tier at 0.05 of its
// speed for 3 of 10 s serves those tasks 20 times slower, so the emulated
// mean latency comes near the simulated one, far above the tier's own
// 0.01 s (the emulation can only add to it, so the bound holds on a busy
// machine).
func TestEmulateSlowdown(t *testing.T) {
	slow := strings.NewReplacer("servers: 2, speed: 200, episodes: [{start: 2, end: 5, down: true}]", "servers: 2, speed: 100, episodes: [{start: 2, end: 5, speed: 0.05}]",
		"dist: exponential", "dist: deterministic", "rate: 30", "rate: 10").Replace(downEdge)
	runs, cmp := emulateShort(t, slow)
	emu, sim := num(t, runs[0]["mean_latency_s"]), num(t, cmp[0]["simulated_mean_s"])
	if runs[0]["valid"] != "1" || !(sim > 0.04) || !(emu > 0.7*sim) {
		t.Errorf("mean latency emulated %v, simulated %v: want the simulated one above 0.04 s and the emulated one near it", emu, sim)
	}
}

// Classes on a priority tier: the requests carry their class's priority,
// and the emulated runs.csv has each class's columns.
func TestEmulateClasses(t *testing.T) {
	classes := strings.NewReplacer("episodes: [{start: 2, end: 5, down: true}]", "discipline: priority",
		"policies:", "classes: [{name: urgent, share: 0.3, priority: 0, deadline: 0.05}, {name: bulk, share: 0.7, priority: 1}]\npolicies:").Replace(downEdge)
	runs, _ := emulateShort(t, classes)
	r := runs[0]
	for _, col := range []string{"mean_latency_class_urgent", "p95_latency_class_bulk", "deadline_miss_class_urgent"} {
		if v, ok := r[col]; !ok || v == "" {
			t.Errorf("runs.csv: %s is %q", col, v)
		}
	}
	if r["valid"] != "1" || !(num(t, r["mean_latency_class_urgent"]) > 0) {
		t.Errorf("run %v: want valid, with the urgent class's latency", r)
	}
}

// serve-tier --scenario takes the tier from the scenario, refuses a flag
// that disagrees with it, and follows its episodes for an emulation that
// names it with --tier: the run is emulated as simulated.
func TestServeTierFromScenario(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", downEdge)
	ps := writeFile(t, dir, "ps.yaml", strings.Replace(downEdge, "episodes:", "discipline: ps, episodes:", 1))
	for _, args := range [][]string{
		{"--name", "edge", "--tier", "edge"},                  // --tier without --scenario
		{"--scenario", f, "--tier", "fog"},                    // no such tier
		{"--scenario", f, "--tier", "edge", "--servers", "3"}, // not the scenario's
		{"--scenario", ps, "--tier", "edge"},                  // simulator-only
	} {
		if code, _, stderr := run(t, context.Background(), append([]string{"serve-tier"}, args...)...); code != ExitUsage || stderr == "" {
			t.Errorf("%q: exit %d (%s), want 2 with a message", args, code, stderr)
		}
	}
	var o *serveTierOptions
	c := newServeTierCmd(IO{}, func(got *serveTierOptions) error { o = got; return nil })
	c.SetArgs([]string{"--scenario", f, "--tier", "edge", "--servers", "2", "--listen", "127.0.0.1:0", "--time-scale", "0.05"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	addrs := make(chan string, 1)
	o.io, o.ready = IO{Out: out, Err: out}, func(a string) { addrs <- a }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runServeTier(ctx, o) }()
	var url string
	select {
	case a := <-addrs:
		url = "http://" + a
	case err := <-done:
		t.Fatalf("serve-tier: %v (%s)", err, out)
	}
	if st := getState(t, url); st.Name != "edge" || st.Servers != 2 || st.Speed != 200 || !st.Episodes {
		t.Errorf("state %+v: want the scenario's edge, following its episodes", st)
	}
	runs, _ := emulateShort(t, downEdge, "--tier", "edge="+url)
	if r := runs[0]; r["valid"] != "1" || !(num(t, r["lost_share"]) > 0.15) {
		t.Errorf("emulated on the external edge: %v: want valid, over 0.15 lost", r)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "the scenario's episodes") || getLost(out.String()) == "0" {
		t.Errorf("serve-tier said %q: want the episodes named, tasks lost", out)
	}
}

// getLost is the lost count serve-tier prints when it shuts down.
func getLost(out string) string {
	_, after, _ := strings.Cut(out, "abandoned, ")
	n, _, _ := strings.Cut(after, " lost")
	return n
}
