package scenario_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

func TestDefault(t *testing.T) {
	d := scenario.Default()
	if d.Seed != 1 || d.Seeds != 10 || d.Warmup != 0 || d.Tasks != 0 || d.Duration != 0 || len(d.Tiers) != 0 {
		t.Errorf("Default() run fields = %+v", d)
	}
	if want := (scenario.Dist{Dist: "pareto", Alpha: 2.5, Mean: 1}); d.Workload.Size != want || d.Workload.LargeQuantile != 0.9 {
		t.Errorf("Default().Workload = %+v, want size %+v, large_quantile 0.9", d.Workload, want)
	}
	if want := (scenario.Estimator{Window: 10, Epsilon: 0.05, RhoMax: 0.99, Penalty: scenario.Penalty{Threshold: 0.9, K: 1}}); d.Estimator != want {
		t.Errorf("Default().Estimator = %+v, want %+v", d.Estimator, want)
	}
	if d.Policies != nil {
		t.Errorf("Default().Policies = %v, want none (they are the catalog's)", d.Policies)
	}
	err := d.Validate()
	var errs scenario.Errors
	if !errors.As(err, &errs) || len(errs) < 3 {
		t.Errorf("Default().Validate() = %v, want errors for run length, rate and tiers", err)
	}
}

func TestValidateNil(t *testing.T) {
	s := base(t)
	if err := s.Validate(); err != nil { // a nil Errors must not become a non-nil error
		t.Errorf("Validate() = %#v, want nil", err)
	}
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		e    scenario.FieldError
		want string
	}{
		{scenario.FieldError{File: "f.yaml", Line: 3, Column: 7, Field: "a.b", Msg: "bad"}, "f.yaml:3:7: a.b: bad"},
		{scenario.FieldError{File: "f.yaml", Line: 3, Msg: "bad"}, "f.yaml:3: bad"},
		{scenario.FieldError{File: "f.yaml", Field: "a", Msg: "bad"}, "f.yaml: a: bad"},
		{scenario.FieldError{Field: "a", Msg: "bad"}, "a: bad"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.e, got, tt.want)
		}
	}
	es := scenario.Errors{&tests[0].e, &tests[3].e}
	if got, want := es.Error(), "f.yaml:3:7: a.b: bad\na: bad"; got != want {
		t.Errorf("Errors.Error() = %q, want %q", got, want)
	}
}

func TestTierIndexAndMode(t *testing.T) {
	s := base(t)
	for name, want := range map[string]int{"local": 0, "edge": 1, "cloud": 2, "fog": -1, "": -1} {
		if got := s.TierIndex(name); got != want {
			t.Errorf("TierIndex(%q) = %d, want %d", name, got, want)
		}
	}
	if !s.MeasuredByTasks() {
		t.Error("MeasuredByTasks() = false for a tasks scenario")
	}
}

func TestClone(t *testing.T) {
	s := base(t)
	if err := s.Set("sweep", "{param: arrivals.rate, values: [1, 2]}"); err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if !reflect.DeepEqual(c, s) {
		t.Fatalf("Clone() = %+v, want %+v", c, s)
	}
	c.Tiers[0].Servers = 99
	c.Policies[0].Name = "x"
	c.Arrivals.Bursts[0].Factor = 99
	c.Sweep.Values[0] = 99
	c.Sweep.Param = "x"
	if s.Tiers[0].Servers == 99 || s.Policies[0].Name == "x" || s.Arrivals.Bursts[0].Factor == 99 || s.Sweep.Values[0] == 99 || s.Sweep.Param == "x" {
		t.Errorf("changing the clone changed the original: %+v", s)
	}
}

func TestMarshalStable(t *testing.T) {
	s := base(t)
	a, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Clone().Marshal()
	if string(a) != string(b) || s.Hash() != s.Clone().Hash() {
		t.Errorf("Marshal of equal scenarios differs:\n%s\n%s", a, b)
	}
	if !strings.Contains(string(a), "large_quantile: 0.9") || !strings.Contains(string(a), "window: 10") {
		t.Errorf("Marshal() lacks the defaults:\n%s", a)
	}
	h := s.Hash()
	if err := s.Set("tiers.edge.servers", "5"); err != nil {
		t.Fatal(err)
	}
	if s.Hash() == h {
		t.Error("Hash() did not change with the scenario")
	}
	// Pin the hash of a fixed scenario: a change here changes every
	// manifest's scenario hash, so it must be deliberate.
	if got, want := base(t).Hash(), pinnedHash; got != want {
		t.Errorf("Hash() of the base scenario = %s, want %s", got, want)
	}
}

// A tab in the indentation is named as such, on its line: yaml.v3's own
// "cannot start any token" does not say what to fix.
func TestParseTabIndentation(t *testing.T) {
	_, err := scenario.Parse("tab.yaml", []byte("tasks: 1000\ntiers:\n\t- {name: edge, kind: edge, servers: 1, speed: 1}\n"), nil, catalog)
	if err == nil || !strings.Contains(err.Error(), "tab.yaml:3: tabs are not allowed in YAML indentation; use spaces") {
		t.Errorf("err = %v; want the tab named on line 3", err)
	}
}
