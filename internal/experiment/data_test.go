package experiment

import (
	"testing"
)

// Config gives the engine the data and reply laws and each tier's
// bandwidth, and the policies a D̄ that includes the mean transfer time
// E[data]/B (E[data] = factor × E[size] for proportional data).
func TestConfigData(t *testing.T) {
	for _, c := range []struct {
		name  string
		sets  []string
		bits  float64 // E[data]
		reply float64 // E[reply]
	}{
		{"a law of its own", []string{"workload.data={dist: exponential, mean: 4.0e+6}",
			"tiers.edge.delay.bandwidth=1.0e+8", "tiers.cloud.delay.bandwidth=2.0e+7"}, 4e6, 0},
		{"proportional, with a reply", []string{"workload.data={proportional: 2.0e+6}", "workload.reply={dist: deterministic, mean: 800}",
			"tiers.edge.delay.bandwidth=1.0e+8", "tiers.cloud.delay.bandwidth=2.0e+7"}, 2e6, 800},
	} {
		sc := defaultAt(t, 60, 1000, 1, c.sets...)
		cfg, err := Config(sc)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := cfg.Data.Mean(cfg.Size.Mean()); got != c.bits || cfg.Reply.Mean(cfg.Size.Mean()) != c.reply {
			t.Errorf("%s: E[data] %g, E[reply] %g; want %g, %g", c.name, got, cfg.Reply.Mean(cfg.Size.Mean()), c.bits, c.reply)
		}
		for i, tr := range cfg.Tiers {
			prop := sc.Tiers[i].Delay.Mean
			want := prop
			if b := sc.Tiers[i].Delay.Bandwidth; b > 0 {
				want = prop + c.bits/b
			}
			if tr.MeanDelay != want || tr.Bandwidth != sc.Tiers[i].Delay.Bandwidth {
				t.Errorf("%s: tier %s: D̄ %g, bandwidth %g; want %g (propagation %g + E[data]/B), %g",
					c.name, tr.Name, tr.MeanDelay, tr.Bandwidth, want, prop, sc.Tiers[i].Delay.Bandwidth)
			}
		}
	}
}

// A scenario with data runs end to end, and its runs differ from those
// without: the transfer time is in the latency.
func TestDataRuns(t *testing.T) {
	plain := execute(t, defaultAt(t, 40, 2000, 1, "policies=[hybrid]"), 1)
	slow := execute(t, defaultAt(t, 40, 2000, 1, "policies=[hybrid]", "workload.data={dist: deterministic, mean: 8.0e+6}",
		"tiers.edge.delay.bandwidth=1.0e+8", "tiers.cloud.delay.bandwidth=1.0e+8"), 1)
	a, b := plain[0].Get("mean_latency_s"), slow[0].Get("mean_latency_s")
	if !(b > a) {
		t.Errorf("mean latency %g with 0.08 s of transfer to every non-local tier, %g without: want more", b, a)
	}
}
