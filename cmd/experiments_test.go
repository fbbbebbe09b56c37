package cmd

import (
	"context"
	"encoding/csv"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

// short are the overrides that make an embedded experiment quick.
var short = []string{"--seeds", "2", "--tasks", "4000", "--set", "warmup=400", "--quiet"}

// readTable parses a CSV file into its header and rows.
func readTable(t *testing.T, p string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%s: %d records, %v", p, len(recs), err)
	}
	return recs[0], recs[1:]
}

// checkPNG decodes a plot.
func checkPNG(t *testing.T, p string) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 300 {
		t.Errorf("%s: %v is too small", p, b)
	}
}

// TestSweepLoadFiles runs a short sweep-load and checks every file, the
// order of the percentiles, the shares, and the headline ranking.
func TestSweepLoadFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sl")
	if code, _, stderr := run(t, context.Background(), append([]string{"sweep-load", "-o", out}, short...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"mean_latency", "p95_latency", "p99_latency", "p95_large", "mean_latency_stable", "shares"} {
		checkPNG(t, filepath.Join(out, name+".png"))
	}
	f, err := os.Open(filepath.Join(out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tiers := []string{"local", "edge", "cloud"}
	runs, err := results.ReadRuns(f, results.RunColumns(results.Layout{Tiers: tiers}))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 9*8*2 {
		t.Fatalf("%d runs, want 144", len(runs))
	}
	top := map[string]float64{}
	for _, r := range runs {
		p50, p95, p99, pmax := r.Get(results.ColP50Latency), r.Get(results.ColP95Latency), r.Get(results.ColP99Latency), r.Get(results.ColMaxLatency)
		if !(p50 <= p95 && p95 <= p99 && p99 <= pmax) {
			t.Errorf("%s at %v: percentiles out of order: %v %v %v %v", r.Policy, r.Value, p50, p95, p99, pmax)
		}
		sum := 0.0
		for _, tier := range tiers {
			sum += r.Get(results.ShareCol(tier))
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s at %v: shares sum to %v", r.Policy, r.Value, sum)
		}
		if r.Value == 200 {
			top[r.Policy] += r.Get(results.ColMeanLatency)
		}
	}
	if !(top["hybrid"] < top["edge-first"]) {
		t.Errorf("at 200 tasks/s hybrid %v is not below edge-first %v", top["hybrid"], top["edge-first"])
	}
	head, rows := readTable(t, filepath.Join(out, "summary.csv"))
	if head[len(head)-1] != "unstable" || len(rows) != 9*8 {
		t.Errorf("summary.csv: header ends %q, %d rows", head[len(head)-1], len(rows))
	}
}

// TestMAPEFiles runs a short mape experiment.
func TestMAPEFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mape")
	code, stdout, stderr := run(t, context.Background(), append([]string{"mape", "-o", out, "--set", "sweep.values=[20, 120]"}, short...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	head, rows := readTable(t, filepath.Join(out, "mape.csv"))
	if strings.Join(head, ",") != strings.Join(results.MAPEHeader, ",") || len(rows) != 2*2*3 {
		t.Fatalf("mape.csv: header %v, %d rows", head, len(rows))
	}
	for _, r := range rows {
		if r[3] != "hybrid" {
			t.Errorf("router %q, want hybrid", r[3])
		}
		if m, err := strconv.ParseFloat(r[7], 64); err != nil || !(m > 0 && m < 1000) {
			t.Errorf("mape %q", r[7])
		}
	}
	checkPNG(t, filepath.Join(out, "mape.png"))
	if !strings.Contains(stdout, "queue-only") {
		t.Errorf("stdout lacks the estimator table:\n%s", stdout)
	}
	if code, _, _ := run(t, context.Background(), "mape", "--router", "fastest", "-o", filepath.Join(out, "x")); code != ExitUsage {
		t.Errorf("--router fastest: exit %d, want 2", code)
	}
}

// TestBurstFilesAndResume runs a short burst experiment, then checks that
// --resume after losing some runs gives back the same files.
func TestBurstFilesAndResume(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "burst")
	args := []string{"burst", "-o", out, "--seeds", "2", "--set", "duration=400", "--set", "policies=[hybrid, edge-first]", "--quiet"}
	if code, stdout, stderr := run(t, context.Background(), args...); code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	for _, name := range []string{"burst_latency", "burst_p95", "burst_cloud_share"} {
		checkPNG(t, filepath.Join(out, name+".png"))
	}
	head, rows := readTable(t, filepath.Join(out, "bursts.csv"))
	if strings.Join(head, ",") != strings.Join(results.BurstsHeader, ",") || len(rows) != 2*2 {
		// arrivals until 500 s: bursts at 300 and 420 s, two policies
		t.Errorf("bursts.csv: %v, %d rows", head, len(rows))
	}
	_, ts := readTable(t, filepath.Join(out, "timeseries.csv"))
	if len(ts) != 2*100 { // 500 s in 5 s windows, two policies
		t.Errorf("timeseries.csv has %d rows, want 200", len(ts))
	}
	want := map[string]string{}
	for _, n := range []string{"runs.csv", "series_runs.csv", "timeseries.csv", "bursts.csv", "summary.csv"} {
		want[n] = readFile(t, filepath.Join(out, n))
	}
	// Lose the last run, as an interruption would, and resume.
	lines := strings.SplitAfter(want["runs.csv"], "\n")
	if err := os.WriteFile(filepath.Join(out, "runs.csv"), []byte(strings.Join(lines[:len(lines)-2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, context.Background(), append(args, "--resume")...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	for n, w := range want {
		if readFile(t, filepath.Join(out, n)) != w {
			t.Errorf("%s differs after resume", n)
		}
	}
}

// TestBurstNeedsDuration: a tasks-mode scenario is refused by burst.
func TestBurstNeedsDuration(t *testing.T) {
	code, _, stderr := run(t, context.Background(), "burst", "--tasks", "100", "-o", filepath.Join(t.TempDir(), "b"))
	if code != ExitUsage || !strings.Contains(stderr, "duration") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestGuards: flags that would be silently ignored are refused, and folders
// that are not offload results are not written into, --resume or not.
func TestGuards(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	if err := os.MkdirAll(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, notes, "notes.txt", "mine")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"set of the swept field", []string{"sweep-load", "--set", "arrivals.rate=30", "-o", filepath.Join(dir, "a")}, "is swept"},
		{"mape policy", []string{"mape", "--policy", "jsq", "-o", filepath.Join(dir, "b")}, "unknown flag: --policy"},
		{"burst tasks", []string{"burst", "--tasks", "100", "-o", filepath.Join(dir, "c")}, "--set duration"},
		{"burst after the run", []string{"burst", "--set", "duration=200", "-o", filepath.Join(dir, "d")}, "the first starts at 300 s"},
		{"burst without bursts", []string{"burst", "--set", "arrivals.bursts=[]", "-o", filepath.Join(dir, "e")}, "arrivals.bursts: none"},
		{"resume into a foreign folder", []string{"run", "--resume", "--seeds", "1", "--tasks", "100", "-o", notes}, "offload did not write"},
		{"reproduce into a foreign folder", []string{"reproduce", "--scale", "ci", "-o", notes}, "offload did not write"},
	} {
		code, _, stderr := run(t, context.Background(), c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.name, code, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(notes); len(entries) != 1 {
		t.Errorf("the foreign folder now holds %d entries", len(entries))
	}
}

// TestForceClearsOldOutputs: --force replaces another scenario's results
// whole: no plot of the old sweep is left beside the new CSVs.
func TestForceClearsOldOutputs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o")
	if code, _, stderr := run(t, context.Background(), "sweep-load", "--seeds", "1", "--tasks", "500", "--set", "sweep.values=[10, 20]", "--policy", "jsq", "-o", out, "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run(t, context.Background(), "run", "--seeds", "1", "--tasks", "500", "--policy", "jsq", "-o", out, "--force", "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	if plots, _ := filepath.Glob(filepath.Join(out, "*.png")); len(plots) != 0 {
		t.Errorf("old plots left: %v", plots)
	}
}
