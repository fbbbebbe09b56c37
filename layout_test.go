package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// allowed lists, for every package of the module, the module packages it
// may import directly (docs/layout.md). The graph reads top-down: only cmd
// sees the terminal, cmd never reaches the engine, the engine knows only the
// vocabulary and the workload, scenario and its parts know no command and
// no simulator (tier asks capacity alone, for its episodes), and the testbed never
// reaches the engine. A new package, or a new edge, is a decision: it fails
// here until this table says so.
var allowed = map[string][]string{
	"":                               {"cmd"},
	"deploy":                         {},
	"cmd":                            {"experiments", "internal/analysis", "internal/balancer", "internal/chart", "internal/emulate", "internal/estimators", "internal/experiment", "internal/gymenv", "internal/policies", "internal/reproduce", "internal/results", "internal/runner", "internal/scenario", "internal/store", "internal/testbed", "internal/trace"},
	"cmd/gendocs":                    {"internal/docgen", "internal/store"},
	"internal/docgen":                {"cmd", "internal/experiment", "internal/policies", "internal/results", "internal/scenario"},
	"internal/trace":                 {},
	"experiments":                    {},
	"internal/analysis":              {"internal/chart", "internal/dispatch", "internal/experiment", "internal/htmlreport", "internal/policies", "internal/report", "internal/results", "internal/runner", "internal/stats"},
	"internal/axis":                  {},
	"internal/balancer":              {},
	"internal/canvas":                {},
	"internal/chart":                 {"internal/axis", "internal/canvas", "internal/results", "internal/store"},
	"internal/capacity":              {"internal/workload"},
	"internal/claims":                {"internal/results"},
	"internal/discipline":            {},
	"internal/dispatch":              {},
	"internal/fcfs":                  {},
	"internal/htmlreport":            {"internal/chart", "internal/report", "internal/results", "internal/store"},
	"internal/dispatch/dispatchtest": {"internal/dispatch"},
	"internal/engine":                {"internal/capacity", "internal/discipline", "internal/dispatch", "internal/fcfs", "internal/observe", "internal/pq", "internal/tally", "internal/workload"},
	"internal/emulate":               {"internal/analysis", "internal/balancer", "internal/dispatch", "internal/engine", "internal/experiment", "internal/policies", "internal/results", "internal/runner", "internal/testbed"},
	"internal/estimators":            {"internal/dispatch"},
	"internal/experiment":            {"internal/dispatch", "internal/engine", "internal/extpolicy", "internal/policies", "internal/quantile", "internal/results", "internal/scenario", "internal/stats", "internal/workload"},
	"internal/extpolicy":             {"internal/dispatch"},
	"internal/gymenv":                {"internal/dispatch", "internal/engine", "internal/experiment", "internal/scenario", "internal/workload"},
	"internal/lb":                    {"internal/balancer", "internal/dispatch"},
	"internal/pick":                  {},
	"internal/policies":              {"internal/balancer", "internal/dispatch", "internal/estimators", "internal/extpolicy", "internal/fcfs", "internal/lb", "internal/pick", "internal/workload"},
	"internal/report":                {"internal/axis", "internal/chart", "internal/results", "internal/scenario"},
	"internal/observe":               {"internal/workload"},
	"internal/pq":                    {},
	"internal/quantile":              {},
	"internal/reproduce":             {"internal/analysis", "internal/chart", "internal/claims", "internal/experiment", "internal/policies", "internal/report", "internal/results", "internal/runner", "internal/scenario"},
	"internal/results":               {"internal/quantile"},
	"internal/runner":                {"experiments", "internal/engine", "internal/experiment", "internal/results", "internal/scenario", "internal/store", "internal/trace"},
	"internal/scenario":              {"internal/quantile", "internal/scenario/limit", "internal/scenario/load", "internal/scenario/tier", "internal/schema"},
	"internal/scenario/limit":        {},
	"internal/scenario/load":         {"internal/scenario/limit", "internal/schema"},
	"internal/scenario/tier":         {"internal/capacity", "internal/scenario/limit", "internal/scenario/load", "internal/schema"},
	"internal/schema":                {},
	"internal/stats":                 {},
	"internal/store":                 {},
	"internal/tally":                 {"internal/quantile"},
	"internal/testbed":               {"internal/dispatch", "internal/fcfs", "internal/quantile", "internal/results", "internal/workload"},
	"internal/workload":              {},
}

// TestLayout checks every package's direct imports against allowed, and
// that every package of the module is in the table.
func TestLayout(t *testing.T) {
	const mod = "github.com/offload-sim/offload"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], mod), "/")
		seen[pkg] = true
		allow, ok := allowed[pkg]
		if !ok {
			t.Errorf("package %q is not in layout_test.go's table: add it with the imports it may have", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			rel, inModule := strings.CutPrefix(imp, mod+"/")
			if inModule && !slices.Contains(allow, rel) {
				t.Errorf("%s imports %s, which the layout does not allow", orRoot(pkg), rel)
			}
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("layout_test.go lists %q, which go list did not report", pkg)
		}
	}
}

func orRoot(pkg string) string {
	if pkg == "" {
		return "main"
	}
	return pkg
}

// The package limits (docs/layout.md): an internal package over
// maxPackageLines non-test lines holds more than one concern, and one that
// imports more than maxInternalImports of the module's other packages is a
// hub where unrelated changes meet. Lines count everything in the
// package's non-test .go files, comments and blank lines included.
const (
	maxPackageLines    = 3000
	maxInternalImports = 9
)

// TestPackageLimits checks every internal package against the package
// limits, naming the package, its count and the limit.
func TestPackageLimits(t *testing.T) {
	const mod = "github.com/offload-sim/offload"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .GoFiles \" \"}}|{{join .Imports \" \"}}", "./internal/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		pkg, dir := strings.TrimPrefix(f[0], mod+"/"), f[1]
		pkgs++
		lines := 0
		for _, name := range strings.Fields(f[2]) {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(b, []byte("\n"))
		}
		if lines > maxPackageLines {
			t.Errorf("%s has %d non-test lines: at most %d (move a concern into a package of its own)", pkg, lines, maxPackageLines)
		}
		imports := 0
		for _, imp := range strings.Fields(f[3]) {
			if strings.HasPrefix(imp, mod+"/") {
				imports++
			}
		}
		if imports > maxInternalImports {
			t.Errorf("%s imports %d of the module's packages: at most %d", pkg, imports, maxInternalImports)
		}
	}
	if pkgs < 10 {
		t.Fatalf("go list reported %d internal packages: the module has more", pkgs)
	}
}
