package results

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden from the current output")

var tiers = []string{"local", "edge", "cloud"}

var cols = RunColumns(Layout{Tiers: tiers})

// setTiers sets a run's per-tier columns, prefix share_ or util_.
func setTiers(r *Run, prefix string, xs []float64) {
	for i, t := range tiers {
		x := math.NaN()
		if i < len(xs) {
			x = xs[i]
		}
		r.Set(prefix+t, x)
	}
}

// sampleRuns is a small hand-built set covering the cell formats: a sweep
// with two replicates per policy, a run without an estimator (empty mape), a
// run with no large task (empty large columns), a run without per-tier data,
// an Inf that must become empty, values that need 16–17 digits (3 × 0.1),
// and a run without a sweep (empty param and value).
func sampleRuns() []Run {
	nan := math.NaN()
	base := func(policy string, value float64, seed int, lat float64) Run {
		r := NewRun(cols, map[string]float64{
			ColTasks: 1000, ColMeanLatency: lat, ColP50Latency: 0.8 * lat, ColP95Latency: 2 * lat,
			ColP99Latency: 3 * lat, ColMaxLatency: 5 * lat, ColMeanWait: lat / 4, ColMeanLarge: 1.5 * lat,
			ColP95Large: 2.5 * lat, ColMAPE: 12.5, ColDecisionNs: nan})
		r.Experiment, r.Param, r.Value, r.Policy, r.Seed = "sweep-load", "arrivals.rate", value, policy, seed
		setTiers(&r, "share_", []float64{0.1, 0.6, 0.3})
		setTiers(&r, "util_", []float64{0.25, 0.75, 0.125})
		return r
	}
	runs := []Run{
		base("hybrid", 10, 0, 0.1),
		base("hybrid", 10, 1, 0.2),
		base("jsq", 10, 0, 0.3),
		base("jsq", 10, 1, 0.3),
	}
	runs[2].Set(ColMAPE, nan)
	runs[3].Set(ColMAPE, nan)
	runs[3].Set(ColMeanLarge, nan)
	runs[3].Set(ColP95Large, nan)
	setTiers(&runs[3], "util_", []float64{0.5, 1.25, math.Inf(1)})
	noSweep := base("edge-first", nan, 0, 1e-7)
	noSweep.Experiment, noSweep.Param = "run", ""
	noSweep.Set(ColDecisionNs, 7412.5)
	setTiers(&noSweep, "share_", nil)
	setTiers(&noSweep, "util_", nil)
	return append(runs, noSweep)
}

func TestWriteRunsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteRuns(&b, cols, sampleRuns()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "runs.csv", b.Bytes())
}

func TestWriteSummaryGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSummary(&b, cols, Summarize(sampleRuns())); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "summary.csv", b.Bytes())
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update rewrites it after review):\ngot:\n%s\nwant:\n%s", name, path, got, want)
	}
	if bytes.Contains(bytes.ToLower(got), []byte("nan")) || bytes.Contains(bytes.ToLower(got), []byte("inf")) {
		t.Errorf("%s contains NaN or Inf:\n%s", name, got)
	}
}

// The headers as designed, for two tiers (runs.csv) and one (summary.csv),
// pinned in a golden file: a new column is one go test ./... -update.
func TestHeadersAreTheDesignedOnes(t *testing.T) {
	runs := RunsHeader(RunColumns(Layout{Tiers: []string{"edge", "cloud"}}))
	summary := SummaryHeader(RunColumns(Layout{Tiers: []string{"edge"}}))
	checkGolden(t, "headers.txt", []byte("runs.csv, tiers edge and cloud:\n"+strings.Join(runs, ",")+
		"\nsummary.csv, tier edge:\n"+strings.Join(summary, ",")+"\n"))
}

func TestWriteRunsRefusesColumnMismatch(t *testing.T) {
	r := sampleRuns()[0]
	r.Cols = RunColumns(Layout{Tiers: []string{"local"}})
	err := WriteRuns(&bytes.Buffer{}, cols, []Run{r})
	if err == nil || !strings.Contains(err.Error(), "columns") {
		t.Errorf("WriteRuns with the columns of 1 tier under a header of 3: err = %v", err)
	}
}

func TestReadRunsRoundTrip(t *testing.T) {
	in := sampleRuns()
	var b bytes.Buffer
	if err := WriteRuns(&b, cols, in); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRuns(bytes.NewReader(b.Bytes()), cols)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(b.String(), "\n")
	if gotTiers := HeaderTiers(strings.Split(header, ",")); !reflect.DeepEqual(gotTiers, tiers) {
		t.Errorf("tiers = %v, want %v", gotTiers, tiers)
	}
	// What the file cannot hold: Inf is written empty.
	want := sampleRuns()
	want[3].Set("util_cloud", math.NaN())
	if len(got) != len(want) {
		t.Fatalf("read %d runs, want %d", len(got), len(want))
	}
	for i := range want {
		if !sameRun(got[i], want[i]) {
			t.Errorf("run %d:\ngot  %+v\nwant %+v", i, got[i], want[i])
		}
	}
	// Writing what was read gives the same bytes: --resume can rewrite a file.
	var again bytes.Buffer
	if err := WriteRuns(&again, cols, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Errorf("rewrite differs:\n%s\nvs\n%s", again.Bytes(), b.Bytes())
	}
}

// sameRun compares runs exactly, with NaN equal to NaN (both mean missing).
func sameRun(a, b Run) bool {
	if a.Experiment != b.Experiment || a.Param != b.Param || a.Policy != b.Policy || a.Seed != b.Seed {
		return false
	}
	va := append(append([]float64(nil), a.Values...), a.Value)
	vb := append(append([]float64(nil), b.Values...), b.Value)
	if len(va) != len(vb) {
		return false
	}
	for i := range va {
		if va[i] != vb[i] && !(math.IsNaN(va[i]) && math.IsNaN(vb[i])) {
			return false
		}
	}
	return true
}

// oneTierRow is a runs.csv row of the one-tier columns: seed and share_edge
// as given, tasks 10, mape and decision_ns empty, every other column 0.5.
func oneTierRow(cols []Column, seed, share string) string {
	row := []string{"e", "p", "1", "jsq", seed}
	for _, c := range cols {
		switch c.Name {
		case ColTasks:
			row = append(row, "10")
		case ColMAPE, ColDecisionNs:
			row = append(row, "")
		case ShareCol("edge"):
			row = append(row, share)
		default:
			row = append(row, "0.5")
		}
	}
	return strings.Join(row, ",")
}

func TestReadRunsErrors(t *testing.T) {
	edge := RunColumns(Layout{Tiers: []string{"edge"}})
	header := strings.Join(RunsHeader(edge), ",")
	row := oneTierRow(edge, "0", "0.5")
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", "empty file"},
		{"foreign header", "a,b,c\n", "is not the expected"},
		{"util without share", strings.Replace(header, "share_edge", "share_x", 1) + "\n", "is not the expected"},
		{"short row", header + "\ne,p,1\n", "wrong number of fields"},
		{"bad seed", header + "\n" + oneTierRow(edge, "x", "0.5") + "\n", `seed: "x" is not an integer`},
		{"NaN cell", header + "\n" + oneTierRow(edge, "0", "NaN") + "\n", `line 2: share_edge: "NaN" is not a finite number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadRuns(strings.NewReader(c.in), edge)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadRuns(%q) err = %v, want it to contain %q", c.in, err, c.want)
			}
		})
	}
	if runs, err := ReadRuns(strings.NewReader(header+"\n"+row+"\n"), edge); err != nil || len(runs) != 1 {
		t.Errorf("valid one-row file: %d runs, err %v", len(runs), err)
	}
}

func TestEmulationRunsHeaderExtendsTheSimulators(t *testing.T) {
	c := RunColumns(Layout{Tiers: []string{"edge", "cloud"}})
	h := EmulationRunsHeader(c)
	sim := RunsHeader(c)
	if strings.Join(h[:len(sim)], ",") != strings.Join(sim, ",") ||
		strings.Join(h[len(sim):], ",") != "sent,completed,rejected,failed,valid" {
		t.Errorf("header %v: want the simulator's then sent,completed,rejected,failed,valid", h)
	}
}

func TestWriteEmulationRuns(t *testing.T) {
	nan := math.NaN()
	ec := RunColumns(Layout{Tiers: []string{"edge", "cloud"}})
	run := NewRun(ec, map[string]float64{ColTasks: 3,
		ColMeanLatency: 0.25, ColP50Latency: 0.2, ColP95Latency: 0.5, ColP99Latency: 0.5,
		ColMaxLatency: 0.5, ColMeanWait: 0.01, ColMAPE: 12.5,
		"share_edge": 0.5, "share_cloud": 0.5, "util_edge": 0.1, "util_cloud": 0.2})
	run.Experiment, run.Value, run.Policy, run.Seed = "emulate", nan, "hybrid", 1
	r := EmulatedRun{Run: run, Sent: 5, Completed: 3, Rejected: 1, Failed: 1, Valid: true}
	var buf bytes.Buffer
	if err := WriteEmulationRuns(&buf, ec, []EmulatedRun{r}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "emulation_runs.csv", buf.Bytes())
	r.Cols = RunColumns(Layout{Tiers: []string{"edge"}})
	if err := WriteEmulationRuns(&buf, ec, []EmulatedRun{r}); err == nil {
		t.Error("a run with the columns of 1 tier under a header of 2: no error")
	}
}
