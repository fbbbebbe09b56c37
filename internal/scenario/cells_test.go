package scenario_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

func TestCells(t *testing.T) {
	tests := []struct {
		name   string
		sweep  string
		get    func(*scenario.Scenario) float64
		values []float64
	}{
		{"rate", "{param: arrivals.rate, values: [10, 20.5, 40]}",
			func(s *scenario.Scenario) float64 { return s.Arrivals.Rate }, []float64{10, 20.5, 40}},
		{"edge servers", "{param: tiers.edge.servers, values: [1, 2, 1e5]}",
			func(s *scenario.Scenario) float64 { return float64(s.Tiers[1].Servers) }, []float64{1, 2, 1e5}},
		{"edge servers by index", "{param: tiers.1.servers, values: [3]}",
			func(s *scenario.Scenario) float64 { return float64(s.Tiers[1].Servers) }, []float64{3}},
		{"penalty k", "{param: estimator.penalty.k, values: [0, 1, 2]}",
			func(s *scenario.Scenario) float64 { return s.Estimator.Penalty.K }, []float64{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base(t)
			if err := s.Set("sweep", tt.sweep); err != nil {
				t.Fatal(err)
			}
			orig := s.Clone()
			cells, err := s.Cells()
			if err != nil {
				t.Fatalf("Cells() with sweep %s: %v", tt.sweep, err)
			}
			if len(cells) != len(tt.values) {
				t.Fatalf("Cells() gave %d cells, want %d", len(cells), len(tt.values))
			}
			for i, c := range cells {
				if c.Param != s.Sweep.Param || c.Value != tt.values[i] {
					t.Errorf("cell %d = (%q, %v), want (%q, %v)", i, c.Param, c.Value, s.Sweep.Param, tt.values[i])
				}
				if got := tt.get(c.Scenario); got != tt.values[i] {
					t.Errorf("cell %d field = %v, want %v", i, got, tt.values[i])
				}
				if c.Scenario.Sweep != nil {
					t.Errorf("cell %d has a sweep %+v, want none", i, c.Scenario.Sweep)
				}
			}
			cells[0].Scenario.Tiers[0].Speed = 999 // cells are deep copies
			if !reflect.DeepEqual(s, orig) {
				t.Errorf("Cells() or a change to a cell modified the scenario")
			}
		})
	}
}

func TestCellsWithoutSweep(t *testing.T) {
	s := base(t)
	cells, err := s.Cells()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 || cells[0].Param != "" || !math.IsNaN(cells[0].Value) || !reflect.DeepEqual(cells[0].Scenario, s) {
		t.Errorf("Cells() without a sweep = %+v, want one cell (\"\", NaN, a copy)", cells)
	}
}

func TestCellsErrors(t *testing.T) {
	tests := []struct {
		name, sweep string
		want        []string
	}{
		{"fractional servers", "{param: tiers.edge.servers, values: [2, 2.5]}",
			[]string{`sweep.values[1]: 2.5 cannot be applied: tiers.edge.servers: "2.5" is not allowed: want an integer`}},
		{"zero servers", "{param: tiers.edge.servers, values: [0, -1]}",
			[]string{"sweep.values[0]: 0 gives an invalid cell: tiers[1] (edge).servers: 0 is not allowed: must be ≥ 1",
				"sweep.values[1]: -1 gives an invalid cell"}},
		{"rate beyond range", "{param: arrivals.rate, values: [.inf, 0]}",
			[]string{"sweep.values[0]: +Inf is not allowed: must be a finite number", "sweep.values[1]: 0 gives an invalid cell: arrivals.rate: 0 is not allowed"}},
		{"no values", "{param: arrivals.rate}", []string{"sweep.values: none given"}},
		{"string field", "{param: name, values: [1]}", []string{`sweep.param: "name" is not allowed: it is a string, and a sweep varies a number`}},
		{"struct field", "{param: tiers.edge, values: [1]}", []string{`sweep.param: "tiers.edge" is not allowed: it is a mapping`}},
		{"unknown", "{param: arrivals.rat, values: [1]}", []string{`sweep.param: "arrivals.rat" is not allowed: no field "rat" in arrivals (allowed: rate, bursts, process, law, cv, rates, sojourn, amplitude, period)`}},
		{"the sweep itself", "{param: sweep.values.0, values: [1]}", []string{"a sweep cannot vary itself"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base(t)
			if err := s.Set("sweep", tt.sweep); err != nil {
				t.Fatal(err)
			}
			cells, err := s.Cells()
			if err == nil {
				t.Fatalf("Cells() with sweep %s = %d cells, want errors %q", tt.sweep, len(cells), tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Cells() with sweep %s: error lacks %q; got:\n%v", tt.sweep, w, err)
				}
			}
		})
	}
}
