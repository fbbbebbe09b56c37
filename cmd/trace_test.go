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
