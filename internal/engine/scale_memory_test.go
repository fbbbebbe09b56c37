package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/workload"
)

// BenchmarkScaleMemory is the memory a run holds per device and per tier:
// the heap its set-up leaves live (each device's policy, streams and view,
// each tier's state), from one device to 1,001 and from 3 tiers to 1,003,
// divided by the devices or tiers added, for the policies of
// BenchmarkScale (a policy's own state per tier counts: the estimator's
// windows, the trees). What grows with the tasks in flight (their slots,
// the exact latencies up to 10⁶) is not in it. One op is the three
// set-ups.
func BenchmarkScaleMemory(b *testing.B) {
	for _, name := range []string{policies.NameRandom, policies.NamePowerOfD, policies.NameJSQS, policies.NameHybrid, policies.NameOracle,
		policies.NameStaticOpt, policies.NameJIQ, policies.NameJSQ, policies.NameLWL} {
		b.Run(name, func(b *testing.B) {
			held := func(tiers, devices int) float64 {
				cfg := scaleConfig(b, tiers)
				var m0, m1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m0)
				devs := make([]Device, devices)
				for d := range devs {
					devs[d] = Device{Policy: registryPolicy(b, name, cfg, uint64(d)), Streams: workload.DeviceStreams(1, 0, d)}
				}
				s, err := newSim(cfg, devs, nil)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&m1)
				runtime.KeepAlive(s)
				return float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
			}
			var perDevice, perTier float64
			for range b.N {
				one := held(3, 1)
				perDevice = (held(3, 1001) - one) / 1000
				perTier = (held(1003, 1) - one) / 1000
			}
			b.ReportMetric(perDevice, "B/device")
			b.ReportMetric(perTier, "B/tier")
		})
	}
}

// scaleConfig is BenchmarkScale's scenario (costConfig) of n tiers of 4
// servers at ρ = 0.5, one task.
func scaleConfig(b *testing.B, n int) *Config {
	size := mustDist(b, "pareto", 1, 2.5, 0)
	delay := mustDelay(b, 0.005, 0.2)
	tiers := make([]TierConfig, n)
	for i := range tiers {
		kind, d := dispatch.Edge, delay
		if i == 0 {
			kind, d = dispatch.Local, workload.Dist{}
		}
		tiers[i] = tier(fmt.Sprintf("t%d", i), kind, 4, 10, size, d)
	}
	return &Config{Tiers: tiers, Arrivals: workload.Schedule{Rate: 0.5 * float64(n*4) * 10}, Size: size, Large: size.Quantile(0.9), Tasks: 1}
}

// registryPolicy builds a registry policy for cfg on policy stream seed.
func registryPolicy(b testing.TB, name string, cfg *Config, seed uint64) dispatch.Policy {
	b.Helper()
	tiers := make([]dispatch.Tier, len(cfg.Tiers))
	for i := range cfg.Tiers {
		tiers[i] = cfg.Tiers[i].Tier
	}
	p, err := policies.Make(policies.Entry{Name: name}, policies.Build{Tiers: tiers, Params: policies.DefaultParams(),
		Rand: rand.New(rand.NewPCG(seed, 4)), Sizes: cfg.Size, Rate: cfg.Arrivals.Rate})
	if err != nil {
		b.Fatal(err)
	}
	return p
}
