package scenario_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// base is a valid scenario to override: local, edge, cloud and one burst.
func base(t testing.TB) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse("base.yaml", []byte(`
tasks: 1000
arrivals: {rate: 10, bursts: [{start: 5, length: 1, factor: 2}]}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25, delay: {mean: 0.005, cv: 0.2}}
  - {name: cloud, kind: cloud, servers: 16, speed: 50, delay: {mean: 0.06, cv: 0.2}}
`), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSet(t *testing.T) {
	tests := []struct {
		path, value string
		get         func(*scenario.Scenario) any
		want        any
	}{
		{"arrivals.rate", "60", func(s *scenario.Scenario) any { return s.Arrivals.Rate }, 60.0},
		{"tiers.edge.servers", "8", func(s *scenario.Scenario) any { return s.Tiers[1].Servers }, 8},
		{"tiers.2.speed", "1e2", func(s *scenario.Scenario) any { return s.Tiers[2].Speed }, 100.0},
		{"tiers.cloud.delay", "{mean: 0.1}", func(s *scenario.Scenario) any { return s.Tiers[2].Delay },
			scenario.Delay{Mean: 0.1, CV: 0.2}}, // a mapping merges
		{"workload.size.alpha", "3", func(s *scenario.Scenario) any { return s.Workload.Size.Alpha }, 3.0},
		{"workload.size.dist", "exponential", func(s *scenario.Scenario) any { return s.Workload.Size },
			scenario.Dist{Dist: "exponential", Mean: 1}}, // alpha dropped
		{"workload.size", "{dist: lognormal, cv: 2}", func(s *scenario.Scenario) any { return s.Workload.Size },
			scenario.Dist{Dist: "lognormal", Mean: 1, CV: 2}},
		{"estimator.penalty.k", "0", func(s *scenario.Scenario) any { return s.Estimator.Penalty.K }, 0.0},
		{"arrivals.bursts.0.factor", "4", func(s *scenario.Scenario) any { return s.Arrivals.Bursts[0].Factor }, 4.0},
		{"policies", "[jsq, random]", func(s *scenario.Scenario) any { return s.Policies },
			[]scenario.PolicyEntry{{Name: "jsq"}, {Name: "random"}}},
		{"policies.1", "oracle", func(s *scenario.Scenario) any { return s.Policies[1] }, scenario.PolicyEntry{Name: "oracle"}},
		{"policies", "[hybrid, {name: hybrid, as: h0, epsilon: 0}]", func(s *scenario.Scenario) any { return s.Policies },
			[]scenario.PolicyEntry{{Name: "hybrid"}, {Name: "hybrid", As: "h0", Options: map[string]any{"epsilon": 0}}}},
		{"policies.hybrid.epsilon", "0.1", func(s *scenario.Scenario) any { return s.Policies[0] },
			scenario.PolicyEntry{Name: "hybrid", Options: map[string]any{"epsilon": 0.1}}},
		{"policies.1.epsilon", "0.1", func(s *scenario.Scenario) any { return s.Policies[1].Options }, map[string]any{"epsilon": 0.1}},
		{"policies[1].penalty.k", "2", func(s *scenario.Scenario) any { return s.Policies[1].Options }, map[string]any{"penalty": map[string]any{"k": 2}}},
		{"policies.jsq.as", "j", func(s *scenario.Scenario) any { return s.Policies[3] }, scenario.PolicyEntry{Name: "jsq", As: "j"}},
		{"tiers[1].servers", "3", func(s *scenario.Scenario) any { return s.Tiers[1].Servers }, 3},
		{"tiers[edge].speed", "3", func(s *scenario.Scenario) any { return s.Tiers[1].Speed }, 3.0},
		{"arrivals.bursts[0].factor", "4", func(s *scenario.Scenario) any { return s.Arrivals.Bursts[0].Factor }, 4.0},
		{"sweep.values", "[1, 2]", func(s *scenario.Scenario) any { return s.Sweep.Values }, []float64{1, 2}},
		{"sweep", "{param: arrivals.rate, values: [5]}", func(s *scenario.Scenario) any { return *s.Sweep },
			scenario.Sweep{Param: "arrivals.rate", Values: []float64{5}}},
		{"seed", "18446744073709551615", func(s *scenario.Scenario) any { return s.Seed }, uint64(1<<64 - 1)},
		{"name", "", func(s *scenario.Scenario) any { return s.Name }, ""},
		{"name", "123", func(s *scenario.Scenario) any { return s.Name }, "123"},
		{"arrivals.bursts", "null", func(s *scenario.Scenario) any { return s.Arrivals.Bursts }, []scenario.Burst(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.value, func(t *testing.T) {
			s := base(t)
			if err := s.Set(tt.path, tt.value); err != nil {
				t.Fatalf("Set(%q, %q): %v", tt.path, tt.value, err)
			}
			if got := tt.get(s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("after Set(%q, %q): got %#v, want %#v", tt.path, tt.value, got, tt.want)
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct {
		name, path, value, want string
	}{
		{"unknown top field", "rates", "1", `rates: no field "rates" in the scenario (allowed: name, seed, seeds, tasks,`},
		{"unknown nested field", "estimator.penalty.kk", "1", `estimator.penalty.kk: no field "kk" in estimator.penalty (allowed: threshold, k)`},
		{"unknown tier", "tiers.fog.servers", "1", `tiers.fog.servers: no tier "fog" in tiers (allowed: local, edge, cloud, or an index 0 to 2)`},
		{"tier index out of range", "tiers.3.servers", "1", `no tier "3" in tiers`},
		{"burst index out of range", "arrivals.bursts.1.factor", "1", `arrivals.bursts.1.factor: no element "1" in arrivals.bursts (allowed: an index 0 to 0)`},
		{"field of a number", "arrivals.rate.max", "1", `arrivals.rate.max: no field "max" in arrivals.rate: it is a number, which has no fields`},
		{"empty segment", "tiers..servers", "1", "empty path segment"},
		{"empty path", "", "1", "empty path segment"},
		{"float into int", "tiers.edge.servers", "2.5", `tiers.edge.servers: "2.5" is not allowed: want an integer`},
		{"word into number", "arrivals.rate", "fast", `arrivals.rate: "fast" is not allowed: want a number`},
		{"quoted number", "arrivals.rate", `"3"`, `arrivals.rate: "\"3\"" is not allowed: want a number`},
		{"empty number", "arrivals.rate", "", "arrivals.rate: an empty value is not allowed: want a number"},
		{"negative seed", "seed", "-1", `seed: "-1" is not allowed: want an integer ≥ 0 (out of range)`},
		{"scalar for list", "policies", "jsq", `policies: "jsq" is not allowed: want a list of policies`},
		{"second document", "seeds", "3\n---\nx", `seeds: "3\n---\nx" is not allowed: a second YAML document`},
		{"entry without name", "policies.0", "{as: x}", `policies.0: "{as: x}" is not allowed: a mapping is not allowed without name`},
		{"entry name not a string", "policies", "[{name: 5}]", `policies: "[{name: 5}]" is not allowed: [0].name: "5" is not allowed: want a string`},
		{"null entry", "policies", "[~]", `policies: "[~]" is not allowed: [0]: null is not allowed: want a policy name or a mapping`},
		{"option out of range", "policies.0.epsilon", "1e400", `policies.0.epsilon: "1e400" is not allowed: 1e400 is out of range`},
		{"unknown policy label", "policies.h9.epsilon", "1", `no policy "h9" in policies (allowed: hybrid, model-only`},
		{"unclosed bracket", "tiers[1.servers", "1", "unclosed ["},
		{"text after bracket", "tiers[1]servers", "1", "want . or [ after ]"},
		{"empty option segment", "policies.0.penalty..k", "1", "empty path segment"},
		{"rate out of float range", "arrivals.rate", "1e400", `arrivals.rate: "1e400" is not allowed: 1e400 is out of range: want a number`},
		{"servers out of int range", "tiers.edge.servers", "99999999999999999999", `"99999999999999999999" is not allowed: 99999999999999999999 is out of range: want an integer`},
		{"unknown key in value", "tiers.edge", "{servers: 2, sever: 3}", `tiers.edge: "{servers: 2, sever: 3}" is not allowed: unknown field "sever" (allowed: name, kind, servers, speed, delay, power, tx_energy, rx_energy, episodes, slowdowns, failures, discipline, preemptive, buffer)`},
		{"bad YAML", "policies", "[jsq", `policies: "[jsq" is not valid YAML`},
		{"list for number", "arrivals.rate", "[1]", `arrivals.rate: "[1]" is not allowed: want a number`},
		{"null for a mapping", "tiers.edge.delay", "null", "tiers.edge.delay: null is not allowed: want a mapping"},
		{"null for a number", "arrivals.rate", "~", "arrivals.rate: null is not allowed: want a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base(t)
			before := s.Clone()
			err := s.Set(tt.path, tt.value)
			if err == nil {
				t.Fatalf("Set(%q, %q) = nil, want error %q", tt.path, tt.value, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Set(%q, %q) = %q, want it to contain %q", tt.path, tt.value, err, tt.want)
			}
			if !reflect.DeepEqual(s, before) {
				t.Errorf("Set(%q, %q) failed but changed the scenario", tt.path, tt.value)
			}
		})
	}
}

// An observation block without a model, from a file or from --set, is the
// fresh model, written out in the resolved scenario, as count_own's default.
func TestObservationModelDefaultsToFresh(t *testing.T) {
	yaml := []byte("tasks: 1000\narrivals: {rate: 10}\npolicies: [hybrid, jsq]\ntiers:\n  - {name: local, kind: local, servers: 1, speed: 10}\n")
	for _, tc := range []struct {
		name string
		data []byte
		sets []string
	}{
		{"file", append(append([]byte(nil), yaml...), "observation: {noise: 0.2}\n"...), nil},
		{"--set", yaml, []string{"observation.noise=0.3"}},
	} {
		s, err := scenario.Parse("s.yaml", tc.data, tc.sets, catalog)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if o := s.Observation; o == nil || o.Model != "fresh" || o.Noise == 0 || o.CountOwn == nil || !*o.CountOwn {
			t.Errorf("%s: observation %+v, want fresh with the noise and count_own true", tc.name, o)
		}
	}
}

// A sweep over an observation field the file does not set makes each cell's
// block there: the cell takes the same defaults, and the error for a period
// without a model says which model it got.
func TestSweptObservationTakesTheDefaults(t *testing.T) {
	yaml := "tasks: 1000\narrivals: {rate: 10}\npolicies: [hybrid, jsq]\ntiers:\n  - {name: local, kind: local, servers: 1, speed: 10}\n"
	s, err := scenario.Parse("s.yaml", []byte(yaml+"sweep: {param: observation.noise, values: [0.1, 0.2]}\n"), nil, catalog)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := s.Cells()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cells {
		if o := c.Scenario.Observation; o == nil || o.Model != "fresh" || o.CountOwn == nil || !*o.CountOwn || o.Noise != []float64{0.1, 0.2}[i] {
			t.Errorf("cell %d: observation %+v, want fresh, count_own and the swept noise", i, o)
		}
	}
	_, err = scenario.Parse("s.yaml", []byte(yaml+"observation: {period: 1}\n"), nil, catalog)
	if err == nil || !strings.Contains(err.Error(), "fresh is the model when none is given") {
		t.Errorf("a period without a model: %v", err)
	}
}
