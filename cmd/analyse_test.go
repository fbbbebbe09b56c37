package cmd

import (
	"bytes"
	"context"
	"encoding/binary"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportPlotCompare runs a small sweep, then the three commands that
// read a results folder, and checks that they add their files beside the
// results without removing any, refuse a user's file in their way, and
// name what is allowed when a name is wrong.
func TestReportPlotCompare(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sl")
	args := []string{"sweep-load", "-o", dir, "--set", "sweep.values=[20, 120]", "--policy", "hybrid,jsq-s,edge-first"}
	if code, _, stderr := run(t, context.Background(), append(args, short...)...); code != 0 {
		t.Fatalf("sweep-load: exit %d: %s", code, stderr)
	}
	checkPNG(t, filepath.Join(dir, "diff_mean_latency.png"))
	if _, err := os.Stat(filepath.Join(dir, "class_latency.png")); err == nil {
		t.Error("a sweep without task classes drew class_latency.png")
	}
	before := visible(t, dir)

	code, stdout, stderr := run(t, context.Background(), "compare", dir, "--baseline", "jsq-s")
	if code != 0 || !strings.Contains(stdout, "mean_latency_s − jsq-s") || !strings.Contains(stdout, "edge-first") {
		t.Fatalf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, rows := readTable(t, filepath.Join(dir, "compare_mean_latency.csv")); len(rows) != 2*2 {
		t.Errorf("compare_mean_latency.csv: %d rows, want 2 cells × 2 policies", len(rows))
	}
	if _, rows := readTable(t, filepath.Join(dir, "ranking_mean_latency.csv")); len(rows) != 2*3 {
		t.Errorf("ranking_mean_latency.csv: %d rows, want 2 cells × 3 policies", len(rows))
	}
	if _, rows := readTable(t, filepath.Join(dir, "pairs_mean_latency.csv")); len(rows) != 2*3 {
		t.Errorf("pairs_mean_latency.csv: %d rows, want 2 cells × 3 pairs", len(rows))
	}
	if !strings.Contains(stdout, "Holm-adjusted") || !strings.Contains(stdout, "pairs significant") {
		t.Errorf("compare's output has no ranking:\n%s", stdout)
	}
	code, _, stderr = run(t, context.Background(), "plot", dir, "--y", "p99_latency_s", "--policy", "hybrid", "-o", filepath.Join(dir, "p99.svg"), "--format", "svg", "--size", "5x4")
	if code != 0 {
		t.Fatalf("plot: exit %d: %s", code, stderr)
	}
	if svg, _ := os.ReadFile(filepath.Join(dir, "p99.svg")); strings.Contains(string(svg), "<text") || !strings.Contains(string(svg), `width="360pt"`) {
		t.Errorf("p99.svg: want 5 in (360 pt) wide and its text as outlines")
	}
	// The format follows the extension; --title "" draws no title; a PNG
	// at paper size is 300 dpi.
	code, _, stderr = run(t, context.Background(), "plot", dir, "--y", "mean_latency_s", "-o", filepath.Join(dir, "mean.pdf"), "--title", "", "--size", "3.5x2.6", "--caption")
	if b, _ := os.ReadFile(filepath.Join(dir, "mean.pdf")); code != 0 || !strings.HasPrefix(string(b), "%PDF") {
		t.Fatalf("plot -o mean.pdf: exit %d, %q, a file starting %.8q", code, stderr, b)
	}
	code, _, stderr = run(t, context.Background(), "plot", dir, "--y", "mean_latency_s", "-o", filepath.Join(dir, "mean.png"), "--size", "3.5x2.6")
	if code != 0 {
		t.Fatalf("plot -o mean.png: exit %d, %q", code, stderr)
	}
	if w, dpi := pngWidthDPI(t, filepath.Join(dir, "mean.png")); w != 1050 || dpi != 300 {
		t.Errorf("mean.png at 3.5 in: %d px wide at %g dpi, want 1050 px at 300 dpi", w, dpi)
	}
	if code, _, stderr = run(t, context.Background(), "report", dir); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, want := range []string{"<h1", "Summary", "<svg", "jsq-s", "arrivals.rate"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	after := visible(t, dir)
	if len(after) != len(before)+7 { // compare_, ranking_ and pairs_mean_latency.csv, p99.svg, mean.pdf, mean.png, report.html (diff_mean_latency.png is redrawn)
		t.Errorf("%d files before, %d after; want the seven new ones and every old one kept", len(before), len(after))
	}
	m, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	for _, f := range []string{"report.html", "p99.svg", "compare_mean_latency.csv", "runs.csv"} {
		if !strings.Contains(string(m), `"`+f+`"`) {
			t.Errorf("manifest.json does not record %s as offload's", f)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plot", dir, "--y", "nope", "-o", filepath.Join(dir, "x.png")}, "allowed: tasks, mean_latency_s"},
		{[]string{"plot", dir, "--y", "mape", "--policy", "oracle", "-o", filepath.Join(dir, "x.png")}, "allowed: hybrid, jsq-s, edge-first"},
		{[]string{"plot", dir, "--y", "mape", "-o", filepath.Join(dir, "x.svg"), "--format", "png"}, "--format png contradicts -o"},
		{[]string{"plot", dir, "--y", "mape", "-o", filepath.Join(dir, "x.gif")}, "must end in .png, .svg, .pdf"},
		{[]string{"plot", dir, "--y", "mape", "-o", filepath.Join(dir, "x"), "--format", "pdf"}, "must end in .pdf"},
		{[]string{"compare", dir, "--baseline", "oracle"}, "allowed: hybrid, jsq-s, edge-first"},
		{[]string{"compare", dir, "--baseline", "hybrid", "--metric", "speed"}, "allowed: tasks"},
		{[]string{"report", filepath.Dir(dir)}, "not an offload results folder"},
	} {
		code, _, stderr := run(t, context.Background(), c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, stderr, ExitUsage, c.want)
		}
	}
	// A report.html of the user's is never overwritten.
	other := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run(t, context.Background(), append([]string{"run", "-o", other, "--policy", "hybrid,jsq-s"}, short...)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	_ = os.WriteFile(filepath.Join(other, "report.html"), []byte("mine"), 0o644)
	if code, _, stderr := run(t, context.Background(), "report", other); code != ExitUsage || !strings.Contains(stderr, "report.html") {
		t.Errorf("report over a user's report.html: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "report.html")); string(b) != "mine" {
		t.Error("the user's report.html was overwritten")
	}
	out := filepath.Join(t.TempDir(), "elsewhere.html")
	if code, _, stderr := run(t, context.Background(), "report", other, "-o", out); code != 0 {
		t.Errorf("report -o elsewhere: exit %d: %s", code, stderr)
	}
}

// visible lists a folder's entries but offload's control files (.offload.*).
func visible(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// pngWidthDPI returns a PNG's pixel width and the resolution its pHYs chunk
// states (0 without one), in dots per inch.
func pngWidthDPI(t *testing.T, p string) (int, float64) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	for i := 8; i+12 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		if string(b[i+4:i+8]) == "pHYs" && n == 9 && b[i+16] == 1 {
			return cfg.Width, math.Round(float64(binary.BigEndian.Uint32(b[i+8:])) * 0.0254)
		}
		i += 12 + n
	}
	return cfg.Width, 0
}

// A sweep whose scenario has task classes draws the per-class figures and
// the report's section; plot --figure redraws one; a sweep without classes
// has neither (TestReportPlotCompare's folder).
func TestClassFiguresAndPlotFigure(t *testing.T) {
	tmp := t.TempDir()
	sc := writeFile(t, tmp, "classes.yaml", "name: classes\narrivals: {rate: 40}\nworkload: {size: {dist: exponential, mean: 1}}\n"+
		"classes:\n  - {name: fast, share: 0.4, size: {dist: exponential, mean: 0.3}, deadline: 0.1}\n  - {name: slow, share: 0.6}\n"+
		"tiers:\n  - {name: edge, kind: edge, servers: 4, speed: 25}\n  - {name: cloud, kind: cloud, servers: 8, speed: 50, delay: {mean: 0.05, cv: 0.2}}\n"+
		"policies: [hybrid, jsq-s]\nsweep: {param: arrivals.rate, values: [20, 60]}\n")
	dir := filepath.Join(tmp, "out")
	if code, _, stderr := run(t, context.Background(), append([]string{"run", "-f", sc, "-o", dir}, short...)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"class_latency.png", "class_p95.png", "class_deadline_miss.png"} {
		checkPNG(t, filepath.Join(dir, f))
	}
	out := filepath.Join(dir, "fast.png")
	if code, _, stderr := run(t, context.Background(), "plot", dir, "--figure", "class_latency", "--policy", "hybrid", "--size", "3.5x3", "-o", out); code != 0 {
		t.Fatalf("plot --figure: exit %d: %s", code, stderr)
	}
	if w, _ := pngWidthDPI(t, out); w != 1050 {
		t.Errorf("plot --figure --size 3.5x3: %d px wide, want 1050", w)
	}
	if code, _, stderr := run(t, context.Background(), "report", dir); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if page, _ := os.ReadFile(filepath.Join(dir, "report.html")); !strings.Contains(string(page), `id="classes"`) || !strings.Contains(string(page), "fast: missed deadline") {
		t.Error("report.html has no Task classes section")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plot", dir, "--figure", "nope", "-o", filepath.Join(dir, "x.png")}, "allowed: mean_latency, p95_latency"},
		{[]string{"plot", dir, "--figure", "class_p95", "--y", "mean_latency_s", "-o", filepath.Join(dir, "x.png")}, "give one"},
		{[]string{"plot", dir, "--figure", "class_p95", "--log-y", "-o", filepath.Join(dir, "x.png")}, "not with --figure"},
	} {
		code, _, stderr := run(t, context.Background(), c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, stderr, ExitUsage, c.want)
		}
	}
}
