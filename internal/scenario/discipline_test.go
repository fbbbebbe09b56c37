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
	} {
		y := base + "  - {name: edge, kind: edge, servers: 4, speed: 25, " + c.tier + "}\n" + c.extra
		_, err := scenario.Parse("d.yaml", []byte(y), nil, catalog)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.tier, err, c.want)
		}
	}
	// Every discipline takes capacity over time, timeouts and patience.
	for _, c := range []struct{ tier, extra string }{
		{"discipline: srpt", "timeout: 1\ncancel_on_timeout: true\nretries: 1\n"},
		{"discipline: ps, failures: {gap: {dist: exponential, mean: 10}, length: {dist: exponential, mean: 1}}", ""},
		{"discipline: priority, episodes: [{start: 1, end: 2, speed: 0.5}]", "patience: {dist: exponential, mean: 2}\n"},
		{"discipline: ps", "patience: {dist: exponential, mean: 2}\n"},
	} {
		y := base + "  - {name: edge, kind: edge, servers: 4, speed: 25, " + c.tier + "}\n" + c.extra
		if _, err := scenario.Parse("d.yaml", []byte(y), nil, catalog); err != nil {
			t.Errorf("%s %q: %v", c.tier, c.extra, err)
		}
	}
}

// Classes parse, clone apart and round-trip; shares must sum to 1 and
// names be unique.
func TestClassKeys(t *testing.T) {
	base := "tasks: 1000\narrivals: {rate: 10}\ntiers:\n  - {name: edge, kind: edge, servers: 4, speed: 25, discipline: priority, preemptive: true}\n"
	good := "classes:\n  - {name: interactive, share: 0.3, priority: 0, size: {dist: exponential, mean: 0.2}, deadline: 0.1}\n  - {name: batch, share: 0.7, priority: 1}\n"
	s, err := scenario.Parse("c.yaml", []byte(base+good), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.ClassNames(); len(got) != 2 || got[1] != "batch" || s.Classes[0].Size.Mean != 0.2 || s.HasPatience() {
		t.Fatalf("classes %+v", s.Classes)
	}
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if again, err := scenario.Parse("resolved.yaml", out, nil, catalog); err != nil || again.Classes[0].Size.Mean != 0.2 {
		t.Errorf("round trip: %v\n%s", err, out)
	}
	for _, c := range []struct{ y, want string }{
		{"classes:\n  - {name: a, share: 0.3}\n  - {name: b, share: 0.6}\n", "classes: shares sum to 0.9: they must sum to 1"},
		{"classes:\n  - {name: a, share: 0.5}\n  - {name: a, share: 0.5}\n", `classes[1].name: "a" is not allowed: class names must be unique`},
	} {
		if _, err := scenario.Parse("c.yaml", []byte(base+c.y), nil, catalog); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.y, err, c.want)
		}
	}
}
