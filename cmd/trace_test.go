package cmd

import (
	"context"
	"os"
	"path/filepath"
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
