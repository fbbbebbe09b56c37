package experiment

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/workload"
)

// Config maps each arrival process and the bounded Pareto onto the engine's
// configuration: the process relative to the (for mmpp derived) rate, and
// the size law's exact C_s² on every tier.
func TestConfigProcesses(t *testing.T) {
	for _, c := range []struct {
		set  string
		kind workload.ProcessKind
		rate float64
	}{
		{"arrivals={rate: 60}", workload.Poisson, 60},
		{"arrivals={rate: 60, process: renewal, law: weibull, cv: 2}", workload.Renewal, 60},
		{"arrivals={rate: 0, process: mmpp, rates: [30, 150], sojourn: [15, 5]}", workload.MMPP, 60},
		{"arrivals={rate: 60, process: diurnal, amplitude: 0.5, period: 300}", workload.Diurnal, 60},
	} {
		sc := defaultAt(t, 60, 1000, 1, c.set)
		cfg, err := Config(sc)
		if err != nil {
			t.Fatalf("%s: %v", c.set, err)
		}
		if cfg.Process.Kind != c.kind || cfg.Arrivals.Rate != c.rate {
			t.Errorf("%s: process %v at rate %g, want %v at %g", c.set, cfg.Process.Kind, cfg.Arrivals.Rate, c.kind, c.rate)
		}
	}
	sc := defaultAt(t, 60, 1000, 1, "workload.size={dist: bounded-pareto, alpha: 1.4, low: 0.3, high: 3000}")
	cfg, err := Config(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := workload.BPMoment(2, 1.4, 0.3, 3000)/math.Pow(workload.BPMoment(1, 1.4, 0.3, 3000), 2) - 1
	for _, tr := range cfg.Tiers {
		if math.Abs(tr.Cs2-want) > 1e-14*want || math.Abs(tr.Mu-tr.Speed/cfg.Size.Mean()) > 0 {
			t.Errorf("tier %s: cs2 %g mu %g, want %g %g", tr.Name, tr.Cs2, tr.Mu, want, tr.Speed/cfg.Size.Mean())
		}
	}
}

// A non-Poisson process runs end to end, with several devices too: in
// duration mode the measured tasks over the span are the process's rate
// (each device's process is the whole one's divided by the device count).
func TestProcessesRun(t *testing.T) {
	for _, set := range []string{
		"arrivals={rate: 40, process: renewal, law: gamma, cv: 2}",
		"arrivals={rate: 0, process: mmpp, rates: [20, 100], sojourn: [3, 1]}",
		"arrivals={rate: 40, process: diurnal, amplitude: 0.9, period: 50}",
	} {
		sc := defaultAt(t, 40, 1000, 2, set, "tasks=0", "warmup=0", "duration=500", "devices=4", "policies=[jsq-s]")
		for _, r := range execute(t, sc, 2) {
			// mmpp's stationary rate is (20·3 + 100·1)/4 = 40 too; counts
			// over 500 s vary by far less than 25% for all three.
			if n := r.Get("tasks") / 500; math.Abs(n-40) > 10 {
				t.Errorf("%s: %g tasks/s measured, want about 40", set, n)
			}
		}
	}
}
