package experiment

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// TestConfigOfAReplay: trace.rate and trace.mean_size scale the rows, and
// the policies are told the scaled trace's rate, empirical mean and SCV.
func TestConfigOfAReplay(t *testing.T) {
	y := `name: t
seeds: 1
trace: {file: x.csv, rate: 4, mean_size: 2}
tiers: [{name: local, kind: local, servers: 1, speed: 10}]
policies: [jsq]
`
	sc, err := scenario.Parse("t.yaml", []byte(y), nil, Catalog())
	if err != nil {
		t.Fatal(err)
	}
	// 5 rows over 2 s: rate 2/s; sizes mean 3, variance 2 (SCV 2/9).
	if err := sc.AttachTrace([]float64{0, 0.5, 1, 1.5, 2}, []float64{1, 2, 3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	cfg, err := Config(sc)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tasks != 5 || cfg.Trace == nil || cfg.Trace.Arrivals[4] != 1 || cfg.Arrivals.Rate != 4 {
		t.Errorf("tasks %d, trace %+v, rate %v: want 5 tasks, last arrival 1 s, rate 4", cfg.Tasks, cfg.Trace, cfg.Arrivals.Rate)
	}
	if m, scv := cfg.Size.Mean(), cfg.Size.Cs2(); math.Abs(m-2) > 1e-12 || math.Abs(scv-2.0/9) > 1e-12 {
		t.Errorf("size law mean %v, SCV %v: want 2 and 2/9", m, scv)
	}
	if tr := cfg.Tiers[0].Tier; math.Abs(tr.Mu-5) > 1e-12 || math.Abs(tr.Cs2-2.0/9) > 1e-12 {
		t.Errorf("tier μ %v, C_s² %v: want 5 and 2/9", tr.Mu, tr.Cs2)
	}
	if want := 5 * 2.0 / 3; math.Abs(cfg.Large-want) > 1e-12 { // the 0.9 quantile of 5 rows: the largest
		t.Errorf("large threshold %v, want %v", cfg.Large, want)
	}
}

// TestConfigOfAnEmpiricalLaw: workload.size.mean scales the attached
// values, and the size law is their empirical one: its mean, SCV and
// quantiles (what sita-e and sita-opt read) are the values' own.
func TestConfigOfAnEmpiricalLaw(t *testing.T) {
	y := `name: t
seeds: 1
tasks: 10
arrivals: {rate: 1}
workload: {size: {dist: empirical, file: x.csv, mean: 2}, large_quantile: 0.5}
tiers: [{name: local, kind: local, servers: 1, speed: 10}]
policies: [jsq]
`
	sc, err := scenario.Parse("t.yaml", []byte(y), nil, Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Config(sc); err == nil {
		t.Error("Config without the values attached: no error")
	}
	if err := sc.AttachSizes([]float64{1, 2, 3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	cfg, err := Config(sc)
	if err != nil {
		t.Fatal(err)
	}
	// Scaled by 2/3: 2/3, 4/3, 2, 8/3, 10/3; SCV 2/9 is scale-free.
	if m, scv := cfg.Size.Mean(), cfg.Size.Cs2(); math.Abs(m-2) > 1e-12 || math.Abs(scv-2.0/9) > 1e-12 {
		t.Errorf("size law mean %v, SCV %v: want 2 and 2/9", m, scv)
	}
	if q := cfg.Large; math.Abs(q-2) > 1e-12 {
		t.Errorf("large threshold %v: want the median of the scaled values, 2", q)
	}
}

// TestEmpiricalData: an empirical data law takes its column's values,
// scaled to its mean, and the tiers' D̄ add that mean over their bandwidth.
func TestEmpiricalData(t *testing.T) {
	y := `name: t
seeds: 1
tasks: 10
arrivals: {rate: 1}
workload: {data: {dist: empirical, file: x.csv, column: tokens, mean: 8e5}}
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 1, speed: 10, delay: {mean: 0.01, cv: 0, bandwidth: 1e8}}
policies: [jsq]
`
	sc, err := scenario.Parse("t.yaml", []byte(y), nil, Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.AttachData("data", []float64{100, 300, 200}); err != nil {
		t.Fatal(err)
	}
	cfg, err := Config(sc)
	if err != nil {
		t.Fatal(err)
	}
	if m := cfg.Data.Mean(cfg.Size.Mean()); math.Abs(m-8e5) > 1e-6 {
		t.Errorf("data mean %v: want 8e5 bits", m)
	}
	if d := cfg.Tiers[1].MeanDelay; math.Abs(d-(0.01+8e5/1e8)) > 1e-15 {
		t.Errorf("edge D̄ %v: want 0.01 + 8e5/1e8", d)
	}
}
