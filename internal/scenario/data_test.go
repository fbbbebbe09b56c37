package scenario_test

import (
	"path/filepath"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// A data law given with --set replaces the one in force: a mapping is the
// whole law, a new dist or proportional drops what it does not take.
func TestSetReplacesADataLaw(t *testing.T) {
	data := readFixture(t, filepath.Join(fixtures, "data.good.yaml")) // data: lognormal {mean 8e6, cv 0.5}
	for _, c := range []struct {
		set  string
		want scenario.Data
	}{
		{"workload.data={dist: exponential, mean: 4.0e+6}", scenario.Data{Dist: "exponential", Mean: 4e6}},
		{"workload.data={proportional: 8000}", scenario.Data{Proportional: 8000}},
		{"workload.data.proportional=8000", scenario.Data{Proportional: 8000}},
		{"workload.data.dist=deterministic", scenario.Data{Dist: "deterministic", Mean: 8e6}},
		{"workload.data.mean=1000", scenario.Data{Dist: "lognormal", Mean: 1000, CV: 0.5}},
		{"workload={data: {dist: deterministic, mean: 5}}", scenario.Data{Dist: "deterministic", Mean: 5}},
	} {
		s, err := scenario.Parse("data.good.yaml", data, []string{c.set}, catalog)
		if err != nil {
			t.Errorf("--set %s: %v", c.set, err)
			continue
		}
		if s.Workload.Data != c.want {
			t.Errorf("--set %s: data %+v, want %+v", c.set, s.Workload.Data, c.want)
		}
	}
}
