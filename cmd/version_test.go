package cmd

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/offload-sim/offload/internal/runner"
)

// TestVersion: --version's first line is the release, the next names the
// build (a test binary has no VCS stamp, so it says devel), and a results
// folder's manifest records the release with the build.
func TestVersion(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), "--version")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "offload "+runner.Release || !regexp.MustCompile(`^(devel|revision [0-9a-f]+(\.dirty)?|module v\S+)( |$)`).MatchString(lines[1]) ||
		!strings.HasPrefix(lines[2], "built with go") {
		t.Errorf("--version printed %q: want offload %s, then the revision or devel, then the Go version", stdout, runner.Release)
	}
	if v := runner.Version(); v != runner.Release+"+"+runner.Revision() {
		t.Errorf("Version() = %q, want the release, + and the revision %q", v, runner.Revision())
	}
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := run(t, context.Background(), "run", "--tasks", "200", "--seeds", "1", "--policy", "random", "-o", out, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if m, err := runner.ReadManifest(out); err != nil || m.Version != runner.Version() || !strings.HasPrefix(m.Version, runner.Release+"+") {
		t.Errorf("manifest version %q (%v), want %q", m.Version, err, runner.Version())
	}
}

// TestReleaseIsEverywhere: the release that --version prints is the newest
// in CHANGELOG.md and the one CITATION.cff gives, with the same date, so
// that a release cannot change one and forget the others.
func TestReleaseIsEverywhere(t *testing.T) {
	changelog := readFile(t, filepath.Join("..", "CHANGELOG.md"))
	m := regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$`).FindStringSubmatch(changelog)
	if m == nil {
		t.Fatal("CHANGELOG.md has no release heading such as ## [0.3.0] - 2026-12-02")
	}
	if want := strings.TrimPrefix(runner.Release, "v"); m[1] != want {
		t.Errorf("CHANGELOG.md's newest release is %s, runner.Release %s", m[1], runner.Release)
	}
	b, err := os.ReadFile(filepath.Join("..", "CITATION.cff"))
	if err != nil {
		t.Fatal(err)
	}
	var cff struct {
		Version  string `yaml:"version"`
		Released string `yaml:"date-released"`
	}
	if err := yaml.Unmarshal(b, &cff); err != nil {
		t.Fatalf("CITATION.cff: %v", err)
	}
	if cff.Version != m[1] || cff.Released != m[2] {
		t.Errorf("CITATION.cff: version %q of %q, want %s of %s as CHANGELOG.md's newest release", cff.Version, cff.Released, m[1], m[2])
	}
}
