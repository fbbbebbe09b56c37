package docgen

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// root is the module's root, from this package's folder.
const root = "../.."

// TestDocsUpToDate fails when a generated region of the manual is not
// what the code gives today: a column, key, bound or policy was added or
// changed without regenerating the page.
func TestDocsUpToDate(t *testing.T) {
	regions := Regions(os.DirFS(filepath.Join(root, "internal", "scenario")))
	for _, page := range Pages(regions) {
		old, err := os.ReadFile(filepath.Join(root, "docs", page))
		if err != nil {
			t.Fatal(err)
		}
		text, err := Render(page, old, regions)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, text) {
			t.Errorf("docs/%s is stale: its generated tables are not what the code gives; run `%s` and commit the page", page, Regenerate)
		}
	}
}

// TestLinksResolve checks every relative link of the README and of the
// manual: the file exists, and a #fragment names a heading of its page.
func TestLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, p := range pages {
		files = append(files, "docs/"+filepath.Base(p))
	}
	fsys := os.DirFS(root)
	for _, f := range files {
		for _, err := range CheckLinks(fsys, f) {
			t.Error(err)
		}
	}
}

func TestRender(t *testing.T) {
	regions := []Region{{"p.md", "a", func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }}}
	got, err := Render("p.md", []byte("x\n<!-- generated: a -->\nold\nlines\n<!-- end generated -->\ny\n"), regions)
	if want := "x\n<!-- generated: a -->\nnew\n<!-- end generated -->\ny\n"; err != nil || string(got) != want {
		t.Errorf("Render = %q, %v; want %q", got, err, want)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"no marker", "x\n", `no region "a"`},
		{"no end", "<!-- generated: a -->\nold\n", "has no"},
		{"unknown region", "<!-- generated: a -->\n<!-- end generated -->\n<!-- generated: b -->\n<!-- end generated -->\n", `region "b" has no generator`},
		{"twice", "<!-- generated: a -->\n<!-- end generated -->\n<!-- generated: a -->\n<!-- end generated -->\n", "twice"},
	} {
		if _, err := Render("p.md", []byte(tc.text), regions); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Render error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestSlug checks GitHub's anchors on headings of the kinds the manual has.
func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"Running on a cluster":                                     "running-on-a-cluster",
		"1.3 Arrivals and bursts":                                  "13-arrivals-and-bursts",
		"Energy per task and the latency–energy front":             "energy-per-task-and-the-latencyenergy-front",
		"What a dispatcher sees: observation models, many devices": "what-a-dispatcher-sees-observation-models-many-devices",
		"`run`, `sweep-load`, `edge-capacity`":                     "run-sweep-load-edge-capacity",
		"Arrival rate λ̂ (sliding window)":                         "arrival-rate-λ̂-sliding-window",
		"Policy entries: [variants](x.md) and ablations":           "policy-entries-variants-and-ablations",
	} {
		if got := Slug(h); got != want {
			t.Errorf("Slug(%q) = %q, want %q", h, got, want)
		}
	}
	a := Anchors([]byte("# A\n## A\n```\n# not a heading\n```\n#nohash\n### A\n"))
	for _, want := range []string{"a", "a-1", "a-2"} {
		if !a[want] {
			t.Errorf("Anchors lacks %q: %v", want, a)
		}
	}
	if a["not-a-heading"] || a["nohash"] {
		t.Errorf("Anchors took a line in code or without a space: %v", a)
	}
}

func TestCheckLinks(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md":    {Data: []byte("[ok](docs/a.md#two) [bad](docs/b.md) [frag](docs/a.md#three) ![img](docs/x.png) [web](https://x.y/z) `[code](no.md)`\n```\n[fenced](no.md)\n```\n[self](#top)\n# Top\n")},
		"docs/a.md":    {Data: []byte("# One\n## Two\n[up](../README.md#top)\n")},
		"docs/x.png":   {Data: []byte{}},
		"docs/dir/x.a": {Data: []byte{}},
	}
	var got []string
	for _, p := range []string{"README.md", "docs/a.md"} {
		for _, err := range CheckLinks(fsys, p) {
			got = append(got, err.Error())
		}
	}
	if len(got) != 2 || !strings.Contains(got[0], "docs/b.md does not exist") || !strings.Contains(got[1], "#three") {
		t.Errorf("CheckLinks found %q, want the missing file and the missing heading", got)
	}
}
