package scenario_test

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

const procTiers = `
tasks: 1000
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25}
`

func parseProc(t *testing.T, arrivals, size string, sets ...string) (*scenario.Scenario, error) {
	t.Helper()
	doc := procTiers + "arrivals: " + arrivals + "\n"
	if size != "" {
		doc += "workload: {size: " + size + "}\n"
	}
	return scenario.Parse("p.yaml", []byte(doc), sets, catalog)
}

// An explicit poisson resolves, and hashes, as a file without a process.
func TestPoissonOmitted(t *testing.T) {
	a, err := parseProc(t, "{rate: 10}", "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseProc(t, "{rate: 10, process: poisson}", "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() || b.Arrivals.Process != "" {
		out, _ := b.Marshal()
		t.Errorf("explicit poisson changes the resolved scenario:\n%s", out)
	}
}

// An mmpp's rate is derived when left out, and refused when it differs.
func TestMMPPRate(t *testing.T) {
	s, err := parseProc(t, "{process: mmpp, rates: [20, 200], sojourn: [2, 0.5]}", "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Arrivals.Rate != 56 {
		t.Errorf("derived rate %g, want 56", s.Arrivals.Rate)
	}
	out, _ := s.Marshal()
	again, err := scenario.Parse("again.yaml", out, nil, catalog)
	if err != nil || again.Hash() != s.Hash() {
		t.Errorf("round trip: %v", err)
	}
	_, err = parseProc(t, "{rate: 50, process: mmpp, rates: [20, 200], sojourn: [2, 0.5]}", "")
	if err == nil || !strings.Contains(err.Error(), "arrivals.rate: 50 is not allowed with process mmpp") {
		t.Errorf("mismatched rate: %v", err)
	}
}

// Each process's fields are checked, and another process's refused.
func TestProcessErrors(t *testing.T) {
	for _, c := range []struct{ arrivals, want string }{
		{"{rate: 10, process: bursty}", `arrivals.process: "bursty" is not allowed`},
		{"{rate: 10, process: renewal, cv: 2}", `arrivals.law: "" is not allowed: renewal needs a law`},
		{"{rate: 10, process: renewal, law: gamma}", "arrivals.cv: 0 is not allowed: renewal needs cv > 0"},
		{"{rate: 10, process: renewal, law: gamma, cv: 20}", "arrivals.cv: 20 is out of range"},
		{"{rate: 10, process: renewal, law: gamma, cv: 2, period: 5}", "arrivals.period: is not allowed: process renewal takes no period"},
		{"{rate: 10, law: gamma}", "arrivals.law: is not allowed: process poisson takes no law"},
		{"{process: mmpp, rates: [1], sojourn: [1, 1]}", "arrivals.rates: 1 values is not allowed"},
		{"{process: mmpp, rates: [0, 0], sojourn: [1, 1]}", "arrivals.rates: [0, 0] is not allowed"},
		{"{process: mmpp, rates: [1, 2], sojourn: [1, -1]}", "arrivals.sojourn[1]: -1 is not allowed"},
		{"{rate: 10, process: diurnal, amplitude: 1, period: 60}", "arrivals.amplitude: 1 is not allowed: must be in [0, 1)"},
		{"{rate: 10, process: diurnal, amplitude: 0.5}", "arrivals.period: 0 is not allowed: diurnal needs period > 0"},
		{"{process: mmpp, rates: [1, 1e9], sojourn: [1e6, 1], bursts: [{start: 0, length: 1, factor: 2}]}", "arrivals.rate: 1e+09 × the bursts' factors"},
	} {
		if _, err := parseProc(t, c.arrivals, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.arrivals, err, c.want)
		}
	}
	for _, ok := range []string{"{rate: 10, process: renewal, law: weibull, cv: 0.5}", "{rate: 10, process: diurnal, amplitude: 0.9, period: 86400}"} {
		if _, err := parseProc(t, ok, ""); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// bounded-pareto takes alpha, low and high and no mean; the others no bounds.
func TestBoundedParetoScenario(t *testing.T) {
	s, err := parseProc(t, "{rate: 10}", "{dist: bounded-pareto, alpha: 1.1, low: 0.1, high: 1000}")
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Workload.Size; d.Mean != 0 || d.Alpha != 1.1 {
		t.Errorf("size %+v", d)
	}
	if out, _ := s.Marshal(); strings.Contains(string(out), "mean: 1") {
		t.Errorf("resolved bounded-pareto has a mean:\n%s", out)
	}
	if _, err := parseProc(t, "{rate: 10}", "{dist: pareto, alpha: 3}", "workload.size={dist: bounded-pareto, alpha: 0.5, low: 1, high: 10}"); err != nil {
		t.Errorf("--set bounded-pareto: %v", err)
	}
	for _, c := range []struct{ size, want string }{
		{"{dist: bounded-pareto, alpha: 1.1, low: 1, high: 1}", "workload.size.high: 1 is not allowed: must be > low"},
		{"{dist: bounded-pareto, low: 1, high: 10}", "workload.size.alpha: 0 is not allowed: bounded-pareto needs alpha > 0"},
		{"{dist: bounded-pareto, alpha: 1, mean: 2, low: 1, high: 10}", "workload.size.mean: 2 is not allowed: bounded-pareto's mean follows"},
		{"{dist: bounded-pareto, alpha: 1, high: 10}", "workload.size.low: 0 is not allowed"},
		{"{dist: exponential, mean: 1, low: 1}", "workload.size.low: 1 is not allowed: exponential takes no low"},
	} {
		if _, err := parseProc(t, "{rate: 10}", c.size); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.size, err, c.want)
		}
	}
}
