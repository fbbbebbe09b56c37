package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// -update rewrites golden files where a package has them. Every package
// with tests takes the flag, so that `go test ./... -update` runs in all of
// them: a test binary refuses a flag it does not define.
var _ = flag.Bool("update", false, "rewrite golden files (this package has none)")

// TestEveryPackageTakesUpdate: every package of the module with tests
// defines -update, so that adding a column (and moving the goldens that pin
// the CSV files) stays one `go test ./... -update`; a new package with
// tests fails here until it has the flag.
func TestEveryPackageTakesUpdate(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dir := range strings.Fields(string(out)) {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(files, func(f string) bool {
			b, err := os.ReadFile(f)
			return err == nil && strings.Contains(string(b), `flag.Bool("update"`)
		}) {
			t.Errorf("%s has tests but no -update flag: go test ./... -update fails there; add an update_test.go as internal/claims has", dir)
		}
	}
}
