package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestTraceConvert(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "t,s\n0,1\n1500,2\n")
	out := filepath.Join(dir, "out.csv")
	code, _, stderr := run(t, context.Background(), "trace", "convert", "--from", "csv", "--arrival", "t", "--size", "s", "--time-unit", "ms", in, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := readFile(t, out); got != "arrival_s,size\n0,1\n1.5,2\n" {
		t.Errorf("got %q", got)
	}
	if code, _, stderr = run(t, context.Background(), "trace", "convert", "--from", "csv", "--arrival", "t", "--size", "s", in, "-o", out); code != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("overwrite without --force: exit %d, %s", code, stderr)
	}
	if code, _, _ = run(t, context.Background(), "trace", "convert", "--force", "--from", "csv", "--arrival", "t", "--size", "s", in, "-o", out); code != 0 {
		t.Errorf("--force: exit %d", code)
	}
	bad := writeFile(t, dir, "bad.csv", "t,s\n0,1\n1,-2\n")
	out2 := filepath.Join(dir, "out2.csv")
	code, _, stderr = run(t, context.Background(), "trace", "convert", "--from", "csv", "--arrival", "t", "--size", "s", bad, "-o", out2)
	if code != 2 || !strings.Contains(stderr, "bad.csv:3: column s: -2 is negative") {
		t.Errorf("bad input: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("bad input left %s: %v", out2, err)
	}
}

// TestTraceAzureRuns: the embedded trace-azure experiment runs anywhere
// (its trace is embedded), and so does its file with -f, the trace found
// beside it; the embedded trace is the shipped conversion.
func TestTraceAzureRuns(t *testing.T) {
	dir := t.TempDir()
	for i, src := range [][]string{{"trace-azure"}, {"run", "-f", "../experiments/trace-azure.yaml"}} {
		out := filepath.Join(dir, strconv.Itoa(i))
		args := append(src, "--seeds", "1", "--set", "sweep=null", "--set", "trace.rate=45", "--policy", "jsq", "-o", out)
		if code, _, stderr := run(t, context.Background(), args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", src, code, stderr)
		}
		if !strings.Contains(readFile(t, filepath.Join(out, "runs.csv")), "jsq") {
			t.Errorf("%v: no jsq run in runs.csv", src)
		}
	}
	if readFile(t, "../experiments/traces/azure-llm-code.csv") != readFile(t, "../testdata/traces/azure-llm-code.csv") {
		t.Error("experiments/traces/azure-llm-code.csv differs from testdata/traces/azure-llm-code.csv")
	}
	// A trace block with arrivals is refused, naming the field.
	y := writeFile(t, dir, "bad.yaml", strings.Replace(readFile(t, "../experiments/trace-azure.yaml"), "trace:", "arrivals: {rate: 5}\ntrace:", 1))
	code, _, stderr := run(t, context.Background(), "validate", "-f", y)
	if code != 2 || !strings.Contains(stderr, "arrivals: is not allowed with trace: the trace file gives the arrivals") {
		t.Errorf("trace with arrivals: exit %d, %s", code, stderr)
	}
}

// TestEmpiricalSizes: a scenario draws its sizes from a column of a CSV
// beside it; the mean scales them; the resolved scenario keeps the file;
// a missing column is refused with the file and the column, exit 2, and
// nothing written; the folder guard sees a change of the file's values.
func TestEmpiricalSizes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "sizes.csv", "arrival_s,size,tokens\n0,1,10\n1,2,30\n2,3,20\n3,6,40\n")
	y := writeFile(t, dir, "e.yaml", `name: e
seeds: 1
tasks: 300
warmup: 50
arrivals: {rate: 5}
workload: {size: {dist: empirical, file: sizes.csv, column: tokens, mean: 2}}
tiers:
  - {name: local, kind: local, servers: 1, speed: 20}
policies: [jsq]
`)
	out := filepath.Join(dir, "out")
	if code, _, stderr := run(t, context.Background(), "run", "-f", y, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if sc := readFile(t, filepath.Join(out, "scenario.yaml")); !strings.Contains(sc, "file: sizes.csv") || !strings.Contains(sc, "column: tokens") {
		t.Errorf("scenario.yaml lost the empirical law's file:\n%s", sc)
	}
	runs := readFile(t, filepath.Join(out, "runs.csv"))
	if !strings.Contains(runs, "jsq") {
		t.Fatalf("runs.csv:\n%s", runs)
	}
	// The same folder, resumed after the file changed, is refused.
	writeFile(t, dir, "sizes.csv", "arrival_s,size,tokens\n0,1,10\n1,2,30\n2,3,20\n3,6,41\n")
	if code, _, stderr := run(t, context.Background(), "run", "-f", y, "-o", out, "--resume"); code != 2 {
		t.Errorf("resume against changed values: exit %d, %s", code, stderr)
	}
	bad := writeFile(t, dir, "bad.yaml", strings.Replace(readFile(t, y), "column: tokens", "column: bytes", 1))
	out2 := filepath.Join(dir, "out2")
	code, _, stderr := run(t, context.Background(), "run", "-f", bad, "-o", out2)
	if code != 2 || !strings.Contains(stderr, "workload.size.file") || !strings.Contains(stderr, `no column "bytes"`) {
		t.Errorf("missing column: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("bad input left %s: %v", out2, err)
	}
}

// TestEmpiricalDataFromTheTrace: a task's data drawn from the shipped
// Azure trace's ContextTokens column, sent over the edge's bandwidth.
func TestEmpiricalDataFromTheTrace(t *testing.T) {
	dir := t.TempDir()
	abs, err := filepath.Abs("../testdata/traces/azure-llm-code.csv")
	if err != nil {
		t.Fatal(err)
	}
	y := writeFile(t, dir, "d.yaml", `name: d
seeds: 1
tasks: 300
warmup: 50
arrivals: {rate: 20}
workload: {data: {dist: empirical, file: `+abs+`, column: ContextTokens, mean: 8e5}}
tiers:
  - {name: local, kind: local, servers: 1, speed: 5}
  - {name: edge, kind: edge, servers: 2, speed: 20, delay: {mean: 0.005, cv: 0.5, bandwidth: 1e8}}
policies: [jsq-s]
`)
	out := filepath.Join(dir, "out")
	if code, _, stderr := run(t, context.Background(), "run", "-f", y, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(readFile(t, filepath.Join(out, "scenario.yaml")), "column: ContextTokens") {
		t.Error("scenario.yaml lost the data law's column")
	}
}
