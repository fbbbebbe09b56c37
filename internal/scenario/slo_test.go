package scenario_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

const sloBase = `
tasks: 1000
arrivals: {rate: 10}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25}
`

// slo.latency takes one number or a list; either round-trips through the
// resolved form, and a scenario without slo or breakdown resolves as before.
func TestSLOAndBreakdownDecode(t *testing.T) {
	for _, c := range []struct {
		extra string
		want  scenario.Thresholds
		bd    bool
	}{
		{"slo: {latency: 0.1}\n", scenario.Thresholds{0.1}, false},
		{"slo:\n  latency: [0.05, 0.1]\nbreakdown: true\n", scenario.Thresholds{0.05, 0.1}, true},
	} {
		s, err := scenario.Parse("slo.yaml", []byte(sloBase+c.extra), nil, catalog)
		if err != nil {
			t.Fatalf("%q: %v", c.extra, err)
		}
		if !reflect.DeepEqual(s.SLO.Latency, c.want) || s.Breakdown != c.bd {
			t.Errorf("%q: slo %v, breakdown %v; want %v, %v", c.extra, s.SLO.Latency, s.Breakdown, c.want, c.bd)
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := scenario.Parse("resolved.yaml", out, nil, catalog)
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Errorf("%q: round trip %v\n%s", c.extra, err, out)
		}
	}
	plain, err := scenario.Parse("plain.yaml", []byte(sloBase), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := plain.Marshal()
	if strings.Contains(string(out), "slo") || strings.Contains(string(out), "breakdown") {
		t.Errorf("a scenario without slo or breakdown resolves with them:\n%s", out)
	}
	if err := plain.Set("slo.latency", "0.25"); err != nil || !reflect.DeepEqual(plain.SLO.Latency, scenario.Thresholds{0.25}) {
		t.Errorf("--set slo.latency=0.25: %v, %v", err, plain.SLO.Latency)
	}
	if err := plain.Set("slo.latency", "[0.01, 2]"); err != nil || !reflect.DeepEqual(plain.SLO.Latency, scenario.Thresholds{0.01, 2}) {
		t.Errorf("--set slo.latency=[0.01, 2]: %v, %v", err, plain.SLO.Latency)
	}
}

func TestSLOAndBreakdownValidation(t *testing.T) {
	many := "[" + strings.Repeat("1, ", 16) + "2]"
	for _, c := range []struct{ extra, want string }{
		{"slo: {latency: 0}\n", "slo.latency[0]: 0 is not allowed: must be > 0 (s)"},
		{"slo: {latency: [0.1, -1]}\n", "slo.latency[1]: -1 is not allowed: must be > 0"},
		{"slo: {latency: .inf}\n", "must be a finite number"},
		{"slo: {latency: 2e6}\n", "out of range"},
		{"slo: {latency: [0.1, 0.1]}\n", "listed twice"},
		{"slo: {latency: " + many + "}\n", "17 thresholds is out of range: must be ≤ 16"},
		{"slo: {latency: fast}\n", `"fast" is not allowed: want a number`},
		{"slo: {latency: [0.1, x]}\n", `slo.latency[1]: "x" is not allowed`},
		{"slo: {latncy: 1}\n", `unknown field "latncy" (allowed: latency)`},
		{"breakdown: 1\n", "breakdown"},
		{"breakdown: true\ntiers: [{name: s, kind: edge, servers: 1, speed: 1}]\n", `"s" is not allowed with breakdown: true`},
		{"slo: {latency: 0.1}\nsweep: {param: slo.latency.0, values: [0.1, 0.2]}\n", "SLO thresholds name runs.csv columns"},
	} {
		file := sloBase + c.extra
		if strings.Contains(c.extra, "tiers:") { // the tiers replace the base's
			file = strings.Replace(sloBase, "tiers:\n  - {name: local, kind: local, servers: 1, speed: 10}\n  - {name: edge, kind: edge, servers: 4, speed: 25}\n", "", 1) + c.extra
		}
		_, err := scenario.Parse("bad.yaml", []byte(file), nil, catalog)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.extra, err, c.want)
		}
	}
}
