package report

import (
	"math"
	"reflect"
	"testing"

	"github.com/offload-sim/offload/internal/axis"
	"github.com/offload-sim/offload/internal/chart"
	"github.com/offload-sim/offload/internal/results"
)

func sum(pol string, v, mean, ci float64, unstable bool) results.Summary {
	s := summary(pol, v, map[string]float64{results.ColP95Latency: mean}, map[string]float64{results.ColP95Latency: ci})
	s.Runs, s.Unstable = 5, unstable
	return s
}

func TestBuildSeries(t *testing.T) {
	nan := math.NaN()
	sums := []results.Summary{
		sum("jsq", 40, 4, 0.5, false),
		sum("hybrid", 40, 2, nan, false), // one replicate: no bar
		sum("jsq", 10, 1, 0.1, false),    // listed out of order
		sum("jsq", 80, 9, 1, true),
		sum("hybrid", nan, 3, 0, false),  // no swept value
		sum("hybrid", 10, nan, 0, false), // metric missing
		sum("hybrid", 80, 0, 0, false),   // zero: kept on a linear axis only
	}
	pick := pickColumn("p95_latency_s")
	// Series come in the canonical policy order (hybrid before jsq), whatever
	// the order of the summaries.
	want := []chart.Series{
		{Label: "hybrid", Points: []chart.Point{{X: 40, Y: 2}, {X: 80, Y: 0}}},
		{Label: "jsq", Points: []chart.Point{{X: 10, Y: 1, Low: 0.1, High: 0.1}, {X: 40, Y: 4, Low: 0.5, High: 0.5}, {X: 80, Y: 9, Low: 1, High: 1, Unstable: true}}},
	}
	if got := buildSeries(sums, testLegend, pick, false); !reflect.DeepEqual(got, want) {
		t.Errorf("linear:\ngot  %+v\nwant %+v", got, want)
	}
	want[0].Points = want[0].Points[:1]
	if got := buildSeries(sums, testLegend, pick, true); !reflect.DeepEqual(got, want) {
		t.Errorf("log (zero dropped):\ngot  %+v\nwant %+v", got, want)
	}
}

func TestTicks(t *testing.T) {
	cases := []struct {
		name     string
		min, max float64
		log      bool
		want     []string
	}{
		{"linear 10–200", 10, 200, false, []string{"50", "100", "150", "200"}},
		{"linear 0–0.32", 0, 0.32, false, []string{"0.0", "0.1", "0.2", "0.3"}},
		{"log under a decade", 0.15, 0.9, true, []string{"0.2", "0.5"}},
		{"log 0.02–6", 0.02, 6, true, []string{"0.02", "0.05", "0.1", "0.2", "0.5", "1", "2", "5"}},
		{"log wide", 1e-3, 50, true, []string{"0.001", "0.01", "0.1", "1", "10", "50"}},
		{"log wide, ends labelled", 0.02, 120, true, []string{"0.02", "0.1", "1", "10", "100"}},
		{"log very wide, ends labelled", 3e-9, 0.6, true, []string{"5e-09", "1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "0.5"}},
		{"log very wide", 1e-9, 1, true, []string{"1e-09", "1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1"}},
	}
	for _, c := range cases {
		var got []string
		ticks := axis.LinearTicks{}.Ticks(c.min, c.max)
		if c.log {
			ticks = axis.LogTicks{}.Ticks(c.min, c.max)
		}
		for _, tk := range ticks {
			if tk.Value < c.min || tk.Value > c.max {
				t.Errorf("%s: tick %v outside [%v, %v]", c.name, tk.Value, c.min, c.max)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}
}
