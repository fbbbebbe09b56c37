package reproduce

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/runner"
	"github.com/offload-sim/offload/internal/scenario"
)

// load parses an embedded scenario as cmd does.
func load(embedded string, sets []string) (*scenario.Scenario, error) {
	data, err := experiments.Get(embedded)
	if err != nil {
		return nil, err
	}
	return scenario.Parse(embedded+".yaml", data, sets, experiment.Catalog())
}

// TestReproduceRunsWhatItSays runs a miniature reproduction and checks what
// it ran: every experiment's folder complete with the planned runs, the
// claims report whole, and the master seed recorded in the root manifest
// (it once recorded 0).
func TestReproduceRunsWhatItSays(t *testing.T) {
	small := map[string][]string{
		"sweep-load":    {"sweep.values=[20, 150]", "tasks=2000", "warmup=0"},
		"edge-capacity": {"sweep.values=[2, 8]", "tasks=2000", "warmup=0"},
		"mape":          {"sweep.values=[40, 120]", "tasks=2000", "warmup=0"},
		"burst":         {"duration=300", "warmup_time=20", "arrivals.bursts=[{start: 100, every: 100, length: 20, factor: 3}]"},
		"decision":      {"tasks=2000", "warmup=0"},
		"staleness":     {"sweep.values=[0, 1]", "tasks=2000", "warmup=0", "policies=[hybrid, queue-only, power-of-d]"},
		"exploration":   {"sweep.values=[20, 150]", "tasks=2000", "warmup=0"},
	}
	dir := t.TempDir()
	var out bytes.Buffer
	cs, err := Reproduce(context.Background(), Options{Scale: "ci", Sets: []string{"seed=7", "seeds=2"}, Extra: small, Load: load},
		runner.Options{Dir: dir, Workers: 2, Format: "svg", Out: &out, Err: &out})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 6 || cs[5].Verdict != "NOT RUN" {
		t.Errorf("%d claims, claim 6 %v; want 6 with claim 6 not run", len(cs), cs[5].Verdict)
	}
	want := map[string]int{ // cells × policies × replicates
		"sweep-load": 2 * len(policies.Defaults()) * 2, "edge-capacity": 2 * len(policies.Defaults()) * 2,
		"mape": 2 * 1 * 2, "burst": len(policies.Defaults()) * 2, "decision": 1 * 2, "staleness": 2 * 3 * 2,
		"exploration": 2 * 3 * 2,
	}
	for name, runs := range want {
		m, err := runner.ReadManifest(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !m.Complete || m.Runs != runs || m.RunsDone != runs || m.Seed != 7 || m.Seeds != 2 {
			t.Errorf("%s: manifest complete %v, runs %d/%d, seed %d × %d; want complete, %d runs, seed 7 × 2",
				name, m.Complete, m.RunsDone, m.Runs, m.Seed, m.Seeds, runs)
		}
	}
	root, err := runner.ReadManifest(dir)
	if err != nil || !root.Complete || root.Seed != 7 || root.Seeds != 2 {
		t.Errorf("root manifest %+v (%v): want complete with master seed 7, 2 replicates", root, err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), "The paper&#39;s claims") || strings.Count(string(page), "<svg") < 10 {
		t.Errorf("report.html: %v; want the claims and the experiments' figures", err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "claims.md"))
	for i := 1; i <= 6; i++ {
		if !strings.Contains(string(md), "## Claim "+string(rune('0'+i))+": ") {
			t.Errorf("claims.md lacks claim %d", i)
		}
	}
	for _, want := range []string{"hybrid − hybrid-eps0 (ε = 0), mean latency (", "hybrid-eps0 − edge-first",
		"edge-first unstable: the difference measures the run length", "windows of 5 s", "below 7.4 µs",
		"| cell | hybrid | edge-first | difference |", "\nhybrid is ", "| T (s) | best predictor |", "Lowest MAPE, by T (s): "} {
		if !strings.Contains(string(md), want) {
			t.Errorf("claims.md lacks %q:\n%s", want, md)
		}
	}
	// Names in the headers, numbers without exponents.
	if loc := regexp.MustCompile(`first \| second|[0-9]e[-+][0-9]`).FindString(string(md)); loc != "" {
		t.Errorf("claims.md has %q:\n%s", loc, md)
	}
	if !strings.Contains(string(md), "## Where the hybrid earns its keep") || !strings.Contains(string(md), "| 1 | ") {
		t.Errorf("claims.md lacks the staleness section with its T = 1 row:\n%s", md)
	}
	f, err := os.Open(filepath.Join(dir, "decision", "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := results.ReadRuns(f, results.RunColumns(results.Layout{Tiers: []string{"local", "edge", "cloud"}}))
	if err != nil || len(runs) != 2 {
		t.Fatalf("decision/runs.csv: %d runs, %v; want 2", len(runs), err)
	}
	for _, r := range runs {
		if ns := r.Get(results.ColDecisionNs); r.Policy != "hybrid" || !(ns > 0) {
			t.Errorf("decision run %s: decision_ns %v, want a timed hybrid run", r.Policy, ns)
		}
	}
}

// --baselines adds the reference baselines to sweep-load only, and the
// claims still come out (they read only the paper's policies).
func TestReproduceBaselines(t *testing.T) {
	tiny := []string{"tasks=300", "warmup=0"}
	small := map[string][]string{
		"sweep-load":    append([]string{"sweep.values=[60]"}, tiny...),
		"edge-capacity": append([]string{"sweep.values=[4]"}, tiny...),
		"mape":          append([]string{"sweep.values=[60]"}, tiny...),
		"burst":         {"duration=60", "warmup_time=10", "arrivals.bursts=[{start: 20, every: 30, length: 5, factor: 2}]"},
		"decision":      tiny,
		"staleness":     append([]string{"sweep.values=[0, 1]"}, tiny...),
		"exploration":   append([]string{"sweep.values=[60]"}, tiny...),
	}
	dir := t.TempDir()
	var out bytes.Buffer
	cs, err := Reproduce(context.Background(), Options{Scale: "ci", Sets: []string{"seeds=2"}, Extra: small, Load: load, Baselines: true},
		runner.Options{Dir: dir, Workers: 2, Format: "svg", Out: &out, Err: &out})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 6 {
		t.Fatalf("%d claims", len(cs))
	}
	for name, pols := range map[string]int{"sweep-load": len(policies.Defaults()) + len(policies.Baselines()), "edge-capacity": len(policies.Defaults())} {
		m, err := runner.ReadManifest(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if m.Runs != pols*2 || !m.Complete {
			t.Errorf("%s: %d runs (complete %v), want %d policies × 2", name, m.Runs, m.Complete, pols)
		}
	}
	programs := 0 // exec needs a program of the user's: no baseline
	for _, n := range policies.Names() {
		if s, _ := policies.Lookup(n); s.Program {
			programs++
		}
	}
	if got, want := len(policies.Baselines()), len(policies.Names())-len(policies.Defaults())-programs; got != want || got < 5 {
		t.Errorf("Baselines() = %v: want every registered policy outside the paper's eight but the programs", policies.Baselines())
	}
}
