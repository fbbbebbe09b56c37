package htmlreport

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestMarkdown(t *testing.T) {
	src := "# Title\n\nSome `code <b>` and **bold** and [a link](x.csv) and [bad](javascript:alert(1)).\n" +
		"<script>alert(1)</script>\n\n| # | claim | verdict |\n| --- | ---: | --- |\n| 1 | a < b | **PASS** |\n| 2 | c | FAIL (note) |\n\n" +
		"```\nraw <tag>\n```\n\n- one\n- two\n"
	got := markdown(src, 1, "c-")
	for _, want := range []string{`<h2 id="c-title">Title</h2>`, "<code>code &lt;b&gt;</code>", "<strong>bold</strong>", `<a href="x.csv">a link</a>`,
		"&lt;script&gt;", `<td class="num">a &lt; b</td>`, `<td class="verdict pass"><strong>PASS</strong></td>`, `<td class="verdict fail">FAIL (note)</td>`,
		"<pre><code>raw &lt;tag&gt;</code></pre>", "<li>two</li>"} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %s\n%s", want, got)
		}
	}
	if strings.Contains(got, "javascript:") && strings.Contains(got, `href="javascript`) {
		t.Error("a javascript: link became a link")
	}
	if strings.Contains(got, "<script") {
		t.Error("raw HTML passed through")
	}
}

// A small sweep folder: its report has the provenance, the summary table
// with the unstable row marked, the figures inline with no <text>, the
// scenario, and nothing that loads.
func TestWriteSweepFolder(t *testing.T) {
	summary := "experiment,param,value,policy,runs,mean_latency_s,mean_latency_s_ci95,p95_latency_s,p95_latency_s_ci95,share_edge,share_edge_ci95,util_edge,util_edge_ci95,unstable\n" +
		"s,arrivals.rate,10,hybrid,2,0.05,0.001,0.1,0.01,0.9,0.01,0.1,0,0\n" +
		"s,arrivals.rate,10,jsq-s,2,0.04,0.001,0.09,0.01,0.8,0.01,0.1,0,0\n" +
		"s,arrivals.rate,100,hybrid,2,0.07,0.002,0.2,0.01,0.7,0.01,0.9,0,0\n" +
		"s,arrivals.rate,100,jsq-s,2,9.5,1,20,2,0.95,0.01,1.2,0,1\n"
	fsys := fstest.MapFS{
		"manifest.json": {Data: []byte(`{"tool":"offload","version":"v1","command":["offload","sweep-load"],"experiment":"s","seed":1,"seeds":2,"scenario_sha256":"abc","started":"2026-01-01T00:00:00Z","finished":"2026-01-01T00:00:05Z","complete":true,"runs":8,"runs_done":8}`)},
		"scenario.yaml": {Data: []byte("name: s\ntiers:\n  - {name: edge, kind: edge}\npolicies: [hybrid, jsq-s]\nsweep: {param: arrivals.rate, values: [10, 100]}\n")},
		"summary.csv":   {Data: []byte(summary)},
	}
	var b bytes.Buffer
	if err := Write(&b, fsys, Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<!DOCTYPE html>", "offload results: s", "offload sweep-load", "5s)", `<tr class="cell">`, `<tr class="unstable">`,
		"0.05<span class=\"ci\"> ± 0.001</span>", "<figure>", "Where each policy sends its tasks vs arrival rate", "stable points only", "at or near a tier&#39;s capacity left out", "reaching 1): jsq-s at 100. ", "<pre class=\"scenario\">name: s", "@media print"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 4 { // mean, mean of the stable points, P95, share (no P99 or large-task column)
		t.Errorf("%d figures, want 4", n)
	}
	for _, bad := range []string{"<text", "<script", "src=", "url(", "@import", `href="http`, "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q: it must load nothing", bad)
		}
	}
	if err := Write(&b, fstest.MapFS{"x": {}}, Options{}); !errors.Is(err, ErrNotResults) {
		t.Errorf("a folder without manifest: %v", err)
	}
}

// A scenario with slo: its SLO-miss columns are in the report's table.
func TestSummaryTableShowsSLOMisses(t *testing.T) {
	summary := "experiment,param,value,policy,runs,mean_latency_s,mean_latency_s_ci95,slo_miss_100ms,slo_miss_100ms_ci95,unstable\n" +
		"s,,,hybrid,2,0.05,0.001,0.125,0.01,0\n"
	fsys := fstest.MapFS{
		"manifest.json": {Data: []byte(`{"tool":"offload","version":"v1","command":["offload","run"],"experiment":"s","seed":1,"seeds":2,"scenario_sha256":"abc","started":"2026-01-01T00:00:00Z","complete":true,"runs":1,"runs_done":1}`)},
		"summary.csv":   {Data: []byte(summary)},
	}
	var b bytes.Buffer
	if err := Write(&b, fsys, Options{}); err != nil {
		t.Fatal(err)
	}
	if page := b.String(); !strings.Contains(page, "slo_miss_100ms") || !strings.Contains(page, "0.125") {
		t.Error("the report's table lacks the slo_miss_100ms column")
	}
}

// TestNumbersWithoutExponents: the tables write small and large numbers in
// fixed point, to their significant digits.
func TestNumbersWithoutExponents(t *testing.T) {
	for _, c := range []struct {
		x    float64
		n    int
		want string
	}{{6.293e-05, 4, "0.00006293"}, {4.9e-05, 2, "0.000049"}, {1234567, 4, "1235000"}, {0.04647, 4, "0.04647"}, {-0.0016, 2, "−0.0016"}, {10, 4, "10"}, {3e-9, 4, "3e−09"}} {
		if got := sig(c.x, c.n); got != c.want {
			t.Errorf("sig(%g, %d) = %q, want %q", c.x, c.n, got, c.want)
		}
	}
}

// TestRankingSection: the caller's rankings show per cell as groups of
// equal rank with the significant pairs counted, and every pair with its
// difference, raw and Holm-adjusted p-values and verdict; a folder whose
// rankings have one policy a cell has no section.
func TestRankingSection(t *testing.T) {
	fsys := fstest.MapFS{
		"manifest.json": {Data: []byte(`{"tool":"offload","experiment":"s","scenario_sha256":"abc"}`)},
		"scenario.yaml": {Data: []byte("name: s\npolicies: [a, b, c]\nsweep: {param: arrivals.rate, values: [10]}\n")},
	}
	rs := []Ranking{{Value: 10, Replicates: 12, Policies: []string{"a", "b", "c"}, Rank: []int{1, 2, 1}, Pairs: []RankedPair{
		{A: "a", B: "b", N: 12, Diff: -1, CI95: 0.1, P: 1e-9, PHolm: 3e-9, Significant: true, ABetter: true},
		{A: "a", B: "c", N: 12, Diff: -0.001, CI95: 0.01, P: 0.4, PHolm: 0.4},
		{A: "b", B: "c", N: 12, Diff: 1, CI95: 0.1, P: 0.01, PHolm: 0.02, Significant: true, BBetter: true},
	}}}
	rank := func(fs.FS) (string, []Ranking, error) { return "mean_latency_s", rs, nil }
	var b bytes.Buffer
	if err := Write(&b, fsys, Options{Rank: rank}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`id="ranking"`, "Holm", "<td>1: a, c; 2: b</td><td class=\"num\">2 of 3</td>",
		"<td>a</td><td>b</td><td class=\"num\">−1<span class=\"ci\"> ± 0.1</span></td><td class=\"num\">&lt; 0.0001</td><td class=\"num\">&lt; 0.0001</td><td><strong>yes</strong>: a better</td>",
		"<td class=\"num\">0.4</td><td class=\"num\">0.4</td><td>no</td>", "<td class=\"num\">0.02</td><td><strong>yes</strong>: c better</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	rs = []Ranking{{Value: 10, Replicates: 12, Policies: []string{"a"}, Rank: []int{1}}}
	b.Reset()
	if err := Write(&b, fsys, Options{Rank: rank}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="ranking"`) {
		t.Error("a ranking of one policy has a section")
	}
}
