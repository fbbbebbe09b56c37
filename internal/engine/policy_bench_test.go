package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/workload"
)

// costPolicies are the policies whose cost per task docs/performance.md
// tables: a constant-time choice, a scan of the tiers, the estimator path
// the reproduction mostly runs, and the clairvoyant replay.
var costPolicies = []string{policies.NameRandom, policies.NameJSQS, policies.NameHybrid, policies.NameOracle}

// makePolicy builds a registry policy for cfg with its own stream.
func makePolicy(b *testing.B, name string, cfg *engine.Config) dispatch.Policy {
	b.Helper()
	tiers := make([]dispatch.Tier, len(cfg.Tiers))
	for i := range cfg.Tiers {
		tiers[i] = cfg.Tiers[i].Tier
	}
	p, err := policies.Make(policies.Entry{Name: name}, policies.Build{Tiers: tiers, Params: policies.DefaultParams(),
		Rand: rand.New(rand.NewPCG(1, 4)), Sizes: cfg.Size, Rate: cfg.Arrivals.Rate})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// runTasks runs b.N measured tasks of cfg under the named policy, one op a
// task, in the given slices (timed), and reports x-floor against the floor
// loop on the same tasks.
func runTasks(b *testing.B, name string, cfg *engine.Config, slices int) {
	cfg.Warmup = 0
	b.ReportAllocs()
	engine.Timed(b, cfg, slices, func(rep int) func() (*engine.Result, error) {
		pol := makePolicy(b, name, cfg)
		return func() (*engine.Result, error) { return engine.Run(cfg, pol, workload.NewStreams(1, rep)) }
	})
}

// BenchmarkEnginePolicies is BenchmarkEngine's scenario (three tiers, 20
// tasks/s) under the registry's policies: ns/op is a whole run's cost per
// task, decisions and the estimators' updates included, and x-floor its
// ratio to the floor loop over the same tasks.
func BenchmarkEnginePolicies(b *testing.B) {
	for _, name := range costPolicies {
		b.Run(name, func(b *testing.B) { runTasks(b, name, engine.ThreeTier(b, 20, 1), engine.TimedSlices) })
	}
}

// costConfig is n identical tiers of c servers each (speed 10, Pareto sizes
// of mean 1, so μ = 10 per server), the first local (no delay), the others
// behind a lognormal delay of mean 5 ms, at total load rho: λ = ρ·n·c·μ.
func costConfig(b *testing.B, n, c int, rho float64) *engine.Config {
	size := engine.MustDist(b, "pareto", 1, 2.5, 0)
	delay := engine.MustDelay(b, 0.005, 0.2)
	tiers := make([]engine.TierConfig, n)
	for i := range tiers {
		kind, d := dispatch.Edge, delay
		if i == 0 {
			kind, d = dispatch.Local, workload.Dist{}
		}
		tiers[i] = engine.NewTier(fmt.Sprintf("t%d", i), kind, c, 10, size, d)
	}
	return &engine.Config{Tiers: tiers, Arrivals: workload.Schedule{Rate: rho * float64(n*c) * 10}, Size: size,
		Large: size.Quantile(0.9), Tasks: 1}
}

// BenchmarkCost is the cost per task against the number of tiers (4
// servers each, ρ = 0.5), the servers per tier (3 tiers, ρ = 0.5) and the
// load (3 tiers of 4 servers), for each of costPolicies: the cost tables
// of docs/performance.md. Each cell is one run, not slices: its cost depends on how far
// the run gets towards its queues' steady state.
func BenchmarkCost(b *testing.B) {
	for _, name := range costPolicies {
		for _, n := range []int{3, 10, 100, 1000} {
			b.Run(fmt.Sprintf("tiers=%d/%s", n, name), func(b *testing.B) { runTasks(b, name, costConfig(b, n, 4, 0.5), 1) })
		}
		for _, c := range []int{1, 10, 100, 1000, 10000} {
			b.Run(fmt.Sprintf("servers=%d/%s", c, name), func(b *testing.B) { runTasks(b, name, costConfig(b, 3, c, 0.5), 1) })
		}
		for _, rho := range []float64{0.1, 0.5, 0.9, 0.99} {
			b.Run(fmt.Sprintf("rho=%g/%s", rho, name), func(b *testing.B) { runTasks(b, name, costConfig(b, 3, 4, rho), 1) })
		}
	}
}
