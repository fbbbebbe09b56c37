package scenario_test

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// A tier's discipline and buffer parse and round-trip; a bad one names
// its field, the value and what is allowed.
func TestDisciplineKeys(t *testing.T) {
	base := "tasks: 1000\narrivals: {rate: 10}\ntiers:\n  - {name: local, kind: local, servers: 1, speed: 10}\n"
	s, err := scenario.Parse("d.yaml", []byte(base+"  - {name: edge, kind: edge, servers: 4, speed: 25, discipline: ps, buffer: 8}\n"), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Tiers[1]; e.Discipline != "ps" || e.Buffer != 8 || !s.HasBuffers() {
		t.Fatalf("edge %+v", e)
	}
	if out, err := s.Marshal(); err != nil || !strings.Contains(string(out), "discipline: ps") {
		t.Errorf("marshal: %v\n%s", err, out)
	}
	for _, c := range []struct{ tier, extra, want string }{
		{"discipline: lifo", "", `tiers[1] (edge).discipline: "lifo" is not allowed: must be one of fcfs, ps, srpt`},
		{"buffer: 3", "", "tiers[1] (edge).buffer: 3 is not allowed: must be ≥ servers (4)"},
		{"discipline: srpt", "timeout: 1\n", "tiers[1] (edge).discipline: srpt is not allowed with timeout"},
		{"discipline: ps, failures: {gap: {dist: exponential, mean: 10}, length: {dist: exponential, mean: 1}}", "",
			"tiers[1] (edge).discipline: ps is not allowed with episodes, slowdowns or failures"},
	} {
		y := base + "  - {name: edge, kind: edge, servers: 4, speed: 25, " + c.tier + "}\n" + c.extra
		_, err := scenario.Parse("d.yaml", []byte(y), nil, catalog)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.tier, err, c.want)
		}
	}
}
