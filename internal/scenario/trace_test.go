package scenario_test

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

const traceYAML = `name: t
seeds: 2
warmup: 2
trace: {file: x.csv, rate: 60, mean_size: 1}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
policies: [jsq]
`

func traceParse(t *testing.T, y string, sets ...string) (*scenario.Scenario, error) {
	t.Helper()
	return scenario.Parse("t.yaml", []byte(y), sets, catalog)
}

func TestTraceRefusesArrivalsAndSize(t *testing.T) {
	for _, c := range []struct{ extra, want string }{
		{"arrivals: {rate: 5}\n", "t.yaml:8:11: arrivals: is not allowed with trace: the trace file gives the arrivals"},
		{"workload: {size: {dist: exponential, mean: 1}}\n", "workload.size: is not allowed with trace: the trace file gives the sizes"},
		{"devices: 2\n", "devices: 2 is not allowed with trace"},
	} {
		_, err := traceParse(t, traceYAML+c.extra)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.extra, err, c.want)
		}
	}
	if _, err := traceParse(t, strings.Replace(traceYAML, "mean_size: 1", "resample: jackknife", 1)); err == nil || !strings.Contains(err.Error(), `trace.resample: "jackknife" is not allowed`) {
		t.Errorf("resample: got %v", err)
	}
}

func TestTraceRowsBoundTheRun(t *testing.T) {
	arr, sizes := []float64{0, 1, 2, 3, 4, 5}, []float64{1, 1, 2, 2, 3, 3}
	s, err := traceParse(t, traceYAML)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AttachTrace(arr, sizes); err != nil || s.Tasks != 4 {
		t.Fatalf("tasks omitted: %v, tasks %d, want 4 (every row after the warmup)", err, s.Tasks)
	}
	s, _ = traceParse(t, traceYAML+"tasks: 5\n")
	if err := s.AttachTrace(arr, sizes); err == nil || !strings.Contains(err.Error(), "tasks: 5 + warmup 2 = 7 is out of range: the trace x.csv has 6 rows") {
		t.Errorf("tasks over the rows: %v", err)
	}
	// At trace.rate 60, 6 rows span 5/60 s.
	s, err = traceParse(t, strings.Replace(traceYAML, "warmup: 2", "duration: 1", 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AttachTrace(arr, sizes); err == nil || !strings.Contains(err.Error(), "duration: 1 + warmup_time 0 = 1 s is out of range: the trace x.csv spans") {
		t.Errorf("duration over the span: %v", err)
	}
	if err := s.Clone().AttachTrace(arr, sizes); err == nil {
		t.Error("a clone lost the trace block")
	}
}

func TestTraceSetAndSweep(t *testing.T) {
	s, err := traceParse(t, traceYAML, "trace.rate=90")
	if err != nil || s.Trace.Rate != 90 {
		t.Fatalf("--set trace.rate=90: %v, %+v", err, s.Trace)
	}
	s, err = traceParse(t, traceYAML+"sweep: {param: trace.rate, values: [30, 60]}\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AttachTrace([]float64{0, 1, 2, 3, 4, 5}, []float64{1, 1, 1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	cells, err := s.Cells()
	if err != nil || len(cells) != 2 {
		t.Fatalf("cells %v, %v", cells, err)
	}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "arrivals:") || strings.Contains(string(b), "\n  size:") {
		t.Errorf("resolved form has arrivals or a size law:\n%s", b)
	}
	if _, err := scenario.Parse("resolved.yaml", b, nil, catalog); err != nil {
		t.Errorf("resolved form does not parse again: %v", err)
	}
}

const empiricalYAML = `name: e
seeds: 1
tasks: 10
arrivals: {rate: 1}
workload: {size: {dist: empirical, file: s.csv}}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
policies: [jsq]
`

// An empirical law needs a file and takes no other family's parameters;
// file and column belong to it alone; a mean left out is the column's own
// (not the default's 1), also after --set switches the family.
func TestEmpiricalSizeLaw(t *testing.T) {
	s, err := traceParse(t, empiricalYAML)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Workload.Size; d.Mean != 0 || d.Alpha != 0 || d.File != "s.csv" {
		t.Errorf("resolved %+v: want mean 0 (the column's own), no alpha", d)
	}
	for _, c := range []struct{ from, to, want string }{
		{"file: s.csv", "mean: 2", `workload.size.file: "" is not allowed: empirical needs the CSV`},
		{"file: s.csv", "file: s.csv, alpha: 3", "workload.size.alpha: 3 is not allowed: empirical takes no alpha"},
		{"file: s.csv", "file: s.csv, mean: -1", "workload.size.mean: -1 is not allowed: must be > 0"},
		{"dist: empirical, file: s.csv", "dist: pareto, mean: 1, column: size", `workload.size.column: "size" is not allowed: pareto takes no column (only empirical does)`},
	} {
		_, err := traceParse(t, strings.Replace(empiricalYAML, c.from, c.to, 1))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.to, err, c.want)
		}
	}
	s, err = traceParse(t, empiricalYAML, "workload.size.dist=pareto", "workload.size.mean=1")
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Workload.Size; d.File != "" || d.Mean != 1 || d.Alpha != scenario.DefaultAlpha {
		t.Errorf("--set dist=pareto: %+v, want the default pareto without the file", d)
	}
	s, err = traceParse(t, strings.Replace(empiricalYAML, "dist: empirical, file: s.csv", "dist: exponential, mean: 3", 1), "workload.size={dist: empirical, file: t.csv}")
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Workload.Size; d.Mean != 0 || d.File != "t.csv" {
		t.Errorf("--set an empirical mapping: %+v, want mean 0, file t.csv", d)
	}
}

// Hash covers the data attached from files: the same scenario with other
// values (or other trace rows) is another scenario.
func TestHashCoversAttachedData(t *testing.T) {
	a, _ := traceParse(t, empiricalYAML)
	b, _ := traceParse(t, empiricalYAML)
	if err := a.AttachSizes([]float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := b.AttachSizes([]float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() {
		t.Error("equal values, different hashes")
	}
	if err := b.AttachSizes([]float64{1, 2, 4}); err != nil {
		t.Fatal(err)
	}
	if a.Hash() == b.Hash() {
		t.Error("different values, equal hashes")
	}
	x, _ := traceParse(t, traceYAML)
	y, _ := traceParse(t, traceYAML)
	if err := x.AttachTrace([]float64{0, 1, 2, 3, 4}, []float64{1, 1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if err := y.AttachTrace([]float64{0, 1, 2, 3, 5}, []float64{1, 1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if x.Hash() == y.Hash() {
		t.Error("different trace rows, equal hashes")
	}
}

// An empirical data law needs a file, takes none of another family's
// parameters, and its values count in the hash.
func TestEmpiricalDataLaw(t *testing.T) {
	base := strings.Replace(empiricalYAML, "workload: {size: {dist: empirical, file: s.csv}}", "workload: {data: {dist: empirical, file: d.csv, column: bits}}", 1)
	s, err := traceParse(t, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"file: d.csv, column: bits", "mean: 5", `workload.data.file: "" is not allowed: empirical needs the CSV`},
		{"file: d.csv, column: bits", "file: d.csv, cv: 2", "workload.data.cv: 2 is not allowed: empirical takes no cv"},
		{"dist: empirical, file: d.csv, column: bits", "dist: exponential, mean: 5, file: d.csv", `workload.data.file: "d.csv" is not allowed: exponential takes no file`},
	} {
		if _, err := traceParse(t, strings.Replace(base, c.from, c.to, 1)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.to, err, c.want)
		}
	}
	h := s.Hash()
	if err := s.AttachData("data", []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	if s.Hash() == h {
		t.Error("attached data values do not change the hash")
	}
	if err := s.AttachData("reply", []float64{1}); err == nil {
		t.Error("AttachData on a reply without an empirical law: no error")
	}
}
