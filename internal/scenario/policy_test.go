package scenario_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

const minimal = "tasks: 1000\narrivals: {rate: 10}\ntiers: [{name: edge, kind: edge, servers: 1, speed: 10}]\n"

func TestPolicyDefaults(t *testing.T) {
	s, err := scenario.Parse("min.yaml", []byte(minimal), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Labels(); !reflect.DeepEqual(got, paperPolicies) {
		t.Errorf("Labels() of a file without policies = %v, want the catalog's defaults %v", got, paperPolicies)
	}
	for _, v := range []string{"[]", "~"} {
		_, err := scenario.Parse("none.yaml", []byte(minimal+"policies: "+v+"\n"), nil, catalog)
		if err == nil || !strings.Contains(err.Error(), "policies: none given: list at least one of hybrid, model-only, queue-only, jsq, jsq-s, edge-first, random, oracle, power-of-d") {
			t.Errorf("policies: %s gave %v, want none given", v, err)
		}
	}
	if _, err := scenario.Parse("min.yaml", []byte(minimal), nil, nil); err == nil || !strings.Contains(err.Error(), "no policy catalog") {
		t.Errorf("Parse without a catalog = %v, want an error", err)
	}
	d := scenario.Default()
	if err := d.Validate(); err == nil || !strings.Contains(err.Error(), "policies: no policy catalog") {
		t.Errorf("Validate() without a catalog = %v, want it to say so", err)
	}
}

// permissive accepts every option, so that option values of every kind can
// be round-tripped.
type permissive struct{ fakePolicies }

func (permissive) Check(string, map[string]any, []string) []scenario.Problem { return nil }

// TestPolicyRoundTrip: every kind of option value survives Marshal and
// Parse, and an entry with neither label nor options is written as a name.
func TestPolicyRoundTrip(t *testing.T) {
	s, err := scenario.Parse("rt.yaml", []byte(minimal+`policies:
  - jsq
  - {name: jsq, as: j2, s: "1e400", q: "3", n: ~, b: true, l: [1, 2.0, x, {"<<": m}], big: 1e300, f: 3.0, i: -7, e: {}, el: []}
  - {name: hybrid, as: h, epsilon: 0, window: 5.0, rho_max: 0.5, penalty: {threshold: 0.5, k: 2}}
`), nil, permissive{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"s": "1e400", "q": "3", "n": nil, "b": true, "l": []any{1, 2.0, "x", map[string]any{"<<": "m"}},
		"big": 1e300, "f": 3.0, "i": -7, "e": map[string]any{}, "el": []any{}}
	if got := s.Policies[1].Options; !reflect.DeepEqual(got, want) {
		t.Errorf("options = %#v, want %#v", got, want)
	}
	out := mustMarshal(t, s)
	if !strings.Contains(string(out), "policies:\n  - jsq\n  - name: jsq\n    as: j2\n") {
		t.Errorf("Marshal() policies not as expected:\n%s", out)
	}
	again, err := scenario.Parse("resolved.yaml", out, nil, permissive{})
	if err != nil || !reflect.DeepEqual(again, s) {
		t.Errorf("Parse(Marshal()) = %+v, %v; want %+v\n%s", again, err, s, out)
	}
}

func mustMarshal(t *testing.T, s *scenario.Scenario) []byte {
	t.Helper()
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPolicyClone(t *testing.T) {
	s := base(t)
	if err := s.Set("policies", "[{name: hybrid, penalty: {k: 1}, l: [1, 2]}]"); err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if !reflect.DeepEqual(c, s) {
		t.Fatalf("Clone() = %+v, want %+v", c, s)
	}
	c.Policies[0].Options["penalty"].(map[string]any)["k"] = 9
	c.Policies[0].Options["l"].([]any)[0] = 9
	if s.Policies[0].Options["penalty"].(map[string]any)["k"] != 1 || s.Policies[0].Options["l"].([]any)[0] != 1 {
		t.Errorf("changing the clone's options changed the original: %+v", s.Policies[0])
	}
}

func TestSetOption(t *testing.T) {
	s := base(t)
	for _, kv := range [][2]string{{"policies.hybrid.epsilon", "0.1"}, {"policies.hybrid.penalty", "{k: 2}"}, {"policies.hybrid.penalty.threshold", "0.5"}} {
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]any{"epsilon": 0.1, "penalty": map[string]any{"k": 2, "threshold": 0.5}}
	if got := s.Policies[0].Options; !reflect.DeepEqual(got, want) {
		t.Errorf("options = %#v, want %#v", got, want)
	}
	if err := s.Set("policies.hybrid.epsilon.x", "1"); err == nil || !strings.Contains(err.Error(), "option epsilon is 0.1, not a mapping") {
		t.Errorf("Set below a number = %v, want an error", err)
	}
	for _, p := range []string{"policies.hybrid.epsilon", "policies.hybrid.penalty"} {
		if err := s.Set(p, "null"); err != nil {
			t.Fatal(err)
		}
	}
	if s.Policies[0].Options != nil {
		t.Errorf("options after removing each = %#v, want nil (so the entry marshals as a name)", s.Policies[0].Options)
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
}

func TestOptionSweep(t *testing.T) {
	s := base(t)
	if err := s.Set("policies", "[jsq, {name: power-of-d, as: p, d: 1}]"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("sweep", "{param: 'policies[p].d', values: [1, 2, 4]}"); err != nil {
		t.Fatal(err)
	}
	cells, err := s.Cells()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cells {
		if got := c.Scenario.Policies[1].Options["d"]; got != c.Value || c.Value != []float64{1, 2, 4}[i] {
			t.Errorf("cell %d: d = %#v, value %v", i, got, c.Value)
		}
	}
	if err := s.Set("sweep.values", "[1, 0.5]"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Cells(); err == nil || !strings.Contains(err.Error(), "sweep.values[1]: 0.5 gives an invalid cell: policies[1].d: 0.5 is not allowed: must be an integer ≥ 1") {
		t.Errorf("Cells() with d = 0.5: %v", err)
	}
}

func TestEstimate(t *testing.T) {
	s := base(t) // tasks 1000, 8 policies, 10 seeds, 21 servers
	if err := s.Set("sweep", "{param: tasks, values: [1000, 3000]}"); err != nil {
		t.Fatal(err)
	}
	e := s.Estimate()
	want := scenario.Estimate{Cells: 2, Policies: 8, Seeds: 10, Runs: 160,
		ArrivalsPerRun: 3000, BytesPerRun: 16*3000 + 16*21,
		Arrivals: 80 * (1000 + 3000), Bytes: 80 * (16*1000 + 16*21 + 16*3000 + 16*21)}
	if e != want {
		t.Errorf("Estimate() = %+v, want %+v", e, want)
	}
	d, err := scenario.Parse("d.yaml", []byte(`duration: 100
warmup_time: 10
seeds: 2
arrivals: {rate: 5, bursts: [{start: 0, every: 10, length: 1, factor: 4}, {start: 3, length: 1, factor: 0.5}]}
tiers: [{name: edge, kind: edge, servers: 3, speed: 10}]
policies: [jsq]
`), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	// The bound: the peak rate (5 × 4) over the whole span.
	want = scenario.Estimate{Cells: 1, Policies: 1, Seeds: 2, Runs: 2,
		ArrivalsPerRun: 20 * 110, BytesPerRun: 16*20*100 + 16*3, Arrivals: 2 * 20 * 110, Bytes: 2 * (16*20*100 + 16*3)}
	if e := d.Estimate(); e != want {
		t.Errorf("Estimate() in duration mode = %+v, want %+v", e, want)
	}
}

func TestMaxFileSize(t *testing.T) {
	data := []byte(minimal + "# " + strings.Repeat("x", scenario.MaxFileSize) + "\n")
	_, err := scenario.Parse("big.yaml", data, nil, catalog)
	if err == nil || !strings.Contains(err.Error(), "big.yaml: the file is") || !strings.Contains(err.Error(), "at most 1048576 bytes") {
		t.Errorf("Parse of %d bytes = %v, want it refused", len(data), err)
	}
}

// TestOptionNumbers: options read numbers as YAML does, fast path or not.
func TestOptionNumbers(t *testing.T) {
	s, err := scenario.Parse("n.yaml", []byte(minimal+"policies: [{name: jsq, a: 017, b: 0x10, c: 1_000, d: -5, e: .inf, f: 1e3, g: +7, h: 0o17}]\n"), nil, permissive{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": 15, "b": 16, "c": 1000, "d": -5, "e": math.Inf(1), "f": 1000.0, "g": 7, "h": 15}
	if got := s.Policies[0].Options; !reflect.DeepEqual(got, want) {
		t.Errorf("options = %#v, want %#v", got, want)
	}
}
