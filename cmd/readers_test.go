//go:build unix

package cmd

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// resultsFolders makes a small results folder with a
// sweep and the two shard folders of the same run, which the tests below
// copy before spoiling them.
func resultsFolders(t *testing.T) (whole, shard0, shard1 string) {
	t.Helper()
	dir := t.TempDir()
	f := writeFile(t, dir, "s.yaml", strings.Replace(small, "tasks: 3000", "tasks: 500", 1))
	whole = filepath.Join(dir, "whole")
	shard0, shard1 = filepath.Join(dir, "s0"), filepath.Join(dir, "s1")
	for _, args := range [][]string{
		{"run", "-f", f, "-o", whole, "--seeds", "2", "--quiet"},
		{"run", "-f", f, "-o", shard0, "--seeds", "2", "--shard", "0/2", "--quiet"},
		{"run", "-f", f, "-o", shard1, "--seeds", "2", "--shard", "1/2", "--quiet"},
	} {
		if code, _, stderr := run(t, context.Background(), args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	return whole, shard0, shard1
}

// copyDir copies a folder of regular files into a new temporary folder.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// snapshot lists a folder's entries, files with their modes, sizes and
// times, to show that a refused command wrote nothing.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if d.IsDir() { // a lock taken and released changes a folder's time
			out = append(out, p+"/")
			return nil
		}
		out = append(out, fmt.Sprint(p, " ", fi.Mode(), " ", fi.Size(), " ", fi.ModTime()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runBounded runs the CLI, failing the test if it has not returned within
// two minutes (generous: the defects looked for never return at all).
func runBounded(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return runBoundedCtx(t, context.Background(), args...)
}

// runBoundedCtx is runBounded under ctx.
func runBoundedCtx(t *testing.T, ctx context.Context, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, _, stderr := run(t, ctx, args...)
		done <- result{code, stderr}
	}()
	select {
	case r := <-done:
		return r.code, r.stderr
	case <-time.After(2 * time.Minute):
		t.Fatalf("%v did not return", args)
	}
	return 0, ""
}

// spoil changes one file of a folder.
type spoil struct {
	name string
	file string
	do   func(t *testing.T, path string)
	want string // in the message, besides the file's name
}

func fifo(t *testing.T, p string) {
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

func devZero(t *testing.T, p string) {
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Fatal(err)
	}
}

func huge(t *testing.T, p string) { // sparse: no disk used
	if err := os.Truncate(p, 10<<30); err != nil {
		t.Fatal(err)
	}
}

// edit replaces the first old in the file by new.
func edit(old, new string) func(*testing.T, string) {
	return func(t *testing.T, p string) {
		b := readFile(t, p)
		if !strings.Contains(b, old) {
			t.Fatalf("%s has no %q", p, old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(b, old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// nanCell writes NaN into the first number of the second line.
func nanCell(t *testing.T, p string) {
	lines := strings.SplitN(readFile(t, p), "\n", 3)
	cells := strings.Split(lines[1], ",")
	cells[len(cells)/2] = "NaN"
	lines[1] = strings.Join(cells, ",")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dropColumns keeps the first n columns of every line.
func dropColumns(n int) func(*testing.T, string) {
	return func(t *testing.T, p string) {
		var out []string
		for l := range strings.SplitSeq(strings.TrimSuffix(readFile(t, p), "\n"), "\n") {
			out = append(out, strings.Join(strings.Split(l, ",")[:n], ","))
		}
		if err := os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The readers of a results folder (report, plot, compare) are as careful
// as the scenario reader: a link to /dev/zero, a FIFO, a 10 GB file, a
// corrupt, NaN or column-missing CSV is bad input (exit 2), named in the
// message, never a hang, a crash or exit 1; and nothing is written.
func TestHostileResultsFolder(t *testing.T) {
	whole, _, _ := resultsFolders(t)
	cmds := map[string][]string{
		"report":  {"report", "DIR"},
		"plot":    {"plot", "DIR", "--y", "mean_latency_s", "-o", "DIR/x.png"},
		"compare": {"compare", "DIR", "--baseline", "jsq"},
	}
	for _, c := range []struct {
		spoil
		cmds []string
	}{
		{spoil{"zero", "summary.csv", devZero, "not a regular file (a device)"}, []string{"report", "plot"}},
		{spoil{"fifo", "runs.csv", fifo, "not a regular file (a FIFO)"}, []string{"report", "compare"}},
		{spoil{"fifo", "manifest.json", fifo, "not a regular file (a FIFO)"}, []string{"report", "plot", "compare"}},
		{spoil{"fifo", "scenario.yaml", fifo, "not a regular file (a FIFO)"}, []string{"report", "plot", "compare"}},
		{spoil{"huge", "runs.csv", huge, "10 GiB is over the 1 GiB limit"}, []string{"report", "compare"}},
		{spoil{"huge", "summary.csv", huge, "10 GiB is over the 1 GiB limit"}, []string{"report", "plot"}},
		{spoil{"huge", "manifest.json", huge, "10 GiB is over the"}, []string{"report", "compare"}},
		{spoil{"nan", "summary.csv", nanCell, `"NaN" is not a finite number`}, []string{"report", "plot"}},
		// report reads runs.csv only for a comparison with jsq-s, which
		// this scenario does not run.
		{spoil{"nan", "runs.csv", nanCell, `"NaN" is not a finite number`}, []string{"compare"}},
		{spoil{"corrupt", "summary.csv", edit(",", ";"), "header"}, []string{"report", "plot"}},
		{spoil{"columns", "runs.csv", dropColumns(5), "mean_latency_s"}, []string{"compare"}},
	} {
		for _, name := range c.cmds {
			t.Run(c.name+"-"+c.file+"-"+name, func(t *testing.T) {
				dir := copyDir(t, whole)
				c.do(t, filepath.Join(dir, c.file))
				before := snapshot(t, dir)
				var args []string
				for _, a := range cmds[name] {
					args = append(args, strings.Replace(a, "DIR", dir, 1))
				}
				code, stderr := runBounded(t, args...)
				if code != ExitUsage || !strings.Contains(stderr, c.file) || !strings.Contains(stderr, c.want) {
					t.Errorf("exit %d, %s; want %d naming %s and %q", code, stderr, ExitUsage, c.file, c.want)
				}
				if after := snapshot(t, dir); !slices.Equal(before, after) {
					t.Errorf("the folder changed:\n%v\n%v", before, after)
				}
			})
		}
	}
}

// merge reads its shards as carefully, and refuses to write into one of
// them (which would replace the shard's own files).
func TestHostileShards(t *testing.T) {
	_, shard0, shard1 := resultsFolders(t)
	for _, c := range []spoil{
		{"fifo", "manifest.json", fifo, "not a regular file (a FIFO)"},
		{"zero", "runs.csv", devZero, "not a regular file (a device)"},
		{"huge", "runs.csv", huge, "10 GiB is over the 1 GiB limit"},
		{"fifo", "scenario.yaml", fifo, "not a regular file (a FIFO)"},
		{"nan", "runs.csv", nanCell, `"NaN" is not a finite number`},
		{"columns", "runs.csv", dropColumns(7), "runs.csv"},
	} {
		t.Run(c.name+"-"+c.file, func(t *testing.T) {
			s0, s1 := copyDir(t, shard0), copyDir(t, shard1)
			c.do(t, filepath.Join(s0, c.file))
			out := filepath.Join(t.TempDir(), "merged")
			code, stderr := runBounded(t, "merge", s0, s1, "-o", out)
			if code != ExitUsage || !strings.Contains(stderr, c.file) || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, %s; want %d naming %s and %q", code, stderr, ExitUsage, c.file, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("the merged folder was written")
			}
		})
	}
	for _, into := range []int{0, 1} {
		s0, s1 := copyDir(t, shard0), copyDir(t, shard1)
		target := []string{s0, s1}[into]
		before := snapshot(t, target)
		code, stderr := runBounded(t, "merge", s0, s1, "-o", target)
		if code != ExitUsage || !strings.Contains(stderr, "is the shard folder") {
			t.Errorf("merge -o shard %d: exit %d, %s; want %d and a refusal", into, code, stderr, ExitUsage)
		}
		if after := snapshot(t, target); !slices.Equal(before, after) {
			t.Errorf("merge -o shard %d changed it:\n%v\n%v", into, before, after)
		}
	}
}

// report -o never replaces a file offload did not write, outside the
// folder or in it, without --force; in the folder, -o names a .html file,
// not one of the results.
func TestReportKeepsUsersFiles(t *testing.T) {
	whole, _, _ := resultsFolders(t)
	dir := copyDir(t, whole)
	mine := writeFile(t, t.TempDir(), "notes.html", "my notes")
	if code, stderr := runBounded(t, "report", dir, "-o", mine); code != ExitUsage || !strings.Contains(stderr, "is not a report offload wrote") || !strings.Contains(stderr, "--force") {
		t.Errorf("-o over a file of the user's: exit %d, %s; want 2 and --force named", code, stderr)
	}
	if got := readFile(t, mine); got != "my notes" {
		t.Errorf("the user's file now holds %.40q", got)
	}
	inside := writeFile(t, dir, "mine.html", "my page")
	before := snapshot(t, dir)
	for _, o := range []string{inside, filepath.Join(dir, "runs.csv")} {
		if code, stderr := runBounded(t, "report", dir, "-o", o); code != ExitUsage {
			t.Errorf("-o %s: exit %d, %s; want 2", o, code, stderr)
		}
	}
	if after := snapshot(t, dir); !slices.Equal(before, after) {
		t.Errorf("the folder changed:\n%v\n%v", before, after)
	}
	if code, stderr := runBounded(t, "report", dir, "-o", mine, "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	// Now offload's own report: replaced without --force.
	if code, stderr := runBounded(t, "report", dir, "-o", mine); code != 0 {
		t.Errorf("-o over offload's own report: exit %d: %s", code, stderr)
	}
}

// plot -o outside the folder never replaces an existing file without
// --force (nothing tells a file of the user's from an earlier plot), and
// makes a missing folder, as report -o does.
func TestPlotKeepsUsersFiles(t *testing.T) {
	whole, _, _ := resultsFolders(t)
	dir := copyDir(t, whole)
	mine := writeFile(t, t.TempDir(), "mine.png", "my image")
	if code, stderr := runBounded(t, "plot", dir, "--y", "mean_latency_s", "-o", mine); code != ExitUsage || !strings.Contains(stderr, "exists") || !strings.Contains(stderr, "--force") {
		t.Errorf("-o over a file of the user's: exit %d, %s; want 2 and --force named", code, stderr)
	}
	if got := readFile(t, mine); got != "my image" {
		t.Errorf("the user's file now holds %.40q", got)
	}
	if code, stderr := runBounded(t, "plot", dir, "--y", "mean_latency_s", "-o", mine, "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	checkPNG(t, mine)
	for _, c := range [][]string{{"plot", dir, "--y", "mean_latency_s", "-o"}, {"report", dir, "-o"}} {
		out := filepath.Join(t.TempDir(), "new", "folder", "x"+map[string]string{"plot": ".png", "report": ".html"}[c[0]])
		if code, stderr := runBounded(t, append(c, out)...); code != 0 {
			t.Errorf("%s -o into a missing folder: exit %d: %s", c[0], code, stderr)
		} else if _, err := os.Stat(out); err != nil {
			t.Errorf("%s -o into a missing folder: %v", c[0], err)
		}
	}
}

// A rerun into its folder says which of an earlier command's files it
// removed without writing them again (a report), and only those.
func TestRerunSaysWhatIsGone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	args := append([]string{"run", "-o", dir, "--policy", "jsq,random"}, short...)
	if code, _, stderr := run(t, context.Background(), args...); code != 0 {
		t.Fatal(stderr)
	}
	if code, stderr := runBounded(t, "report", dir); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := run(t, context.Background(), args...)
	if code != 0 {
		t.Fatal(stderr)
	}
	var removed []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "removed ") {
			removed = append(removed, l)
		}
	}
	if len(removed) != 1 || !strings.HasPrefix(removed[0], "removed "+filepath.Join(dir, "report.html")+" ") {
		t.Errorf("the rerun said %q; want report.html alone removed", removed)
	}
}
