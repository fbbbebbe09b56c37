package experiment

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// Config turns a validated scenario into an engine configuration.
func Config(sc *scenario.Scenario) (*engine.Config, error) {
	var (
		size  workload.Dist
		large float64
		tr    *workload.Trace
		err   error
	)
	if sc.Trace != nil {
		if tr, size, large, err = replay(sc); err != nil {
			return nil, err
		}
	} else {
		ws := sc.Workload.Size
		if size, err = sizeDist(ws); err != nil {
			return nil, fmt.Errorf("workload.size: %w", err)
		}
		large = size.Quantile(sc.Workload.LargeQuantile)
	}
	obs, err := observation(sc.Observation)
	if err != nil {
		return nil, err
	}
	cfg := &engine.Config{
		Observe:    obs,
		Size:       size,
		Large:      large,
		Trace:      tr,
		Tasks:      sc.Tasks,
		Warmup:     sc.Warmup.Fixed(), // auto: each run's own (runJob)
		Duration:   sc.Duration,
		WarmupTime: sc.WarmupTime,
		Arrivals:   workload.Schedule{Rate: sc.Arrivals.Rate},
	}
	if tr != nil {
		cfg.Arrivals.Rate = tr.Rate() // what the policies and the engine's checks read
	}
	for _, b := range sc.Arrivals.Bursts {
		cfg.Arrivals.Bursts = append(cfg.Arrivals.Bursts, workload.Burst{Start: b.Start, Every: b.Every, Length: b.Length, Factor: b.Factor, Count: b.Count})
	}
	if cfg.Process, err = process(sc.Arrivals); err != nil {
		return nil, err
	}
	for _, t := range sc.Tiers {
		kind, err := dispatch.ParseKind(t.Kind)
		if err != nil {
			return nil, fmt.Errorf("tier %s: %w", t.Name, err)
		}
		delay, err := workload.LognormalDelay(t.Delay.Mean, t.Delay.CV)
		if err != nil {
			return nil, fmt.Errorf("tier %s delay: %w", t.Name, err)
		}
		cfg.Tiers = append(cfg.Tiers, engine.TierConfig{
			Tier: dispatch.Tier{Name: t.Name, Kind: kind, Servers: t.Servers, Speed: t.Speed,
				Mu: t.Speed / size.Mean(), MeanDelay: t.Delay.Mean, Cs2: size.Cs2()},
			Delay: delay,
		})
	}
	if err := addData(cfg, sc); err != nil {
		return nil, err
	}
	addEnergy(cfg, sc)
	if err := addDisciplines(cfg, sc); err != nil {
		return nil, err
	}
	if err := addDynamics(cfg, sc); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Params maps the scenario's estimator block onto the policies' parameters.
func Params(sc *scenario.Scenario) policies.Params {
	e := sc.Estimator
	return policies.Params{Window: e.Window, Epsilon: e.Epsilon, RhoMax: e.RhoMax,
		PenaltyThreshold: e.Penalty.Threshold, PenaltyK: e.Penalty.K, OnlineCa2: e.Ca2 == "online"}
}

// PolicyBuild is what the registry's constructors get for a cell of
// configuration cfg (made from sc) and replicate rep: the tiers as a
// dispatcher sees them, the estimator parameters, the size law and the base
// arrival rate (for the policies computed from them, docs/design.md §3.7),
// and the replicate's own policy stream. The simulator and the HTTP
// emulation both build their policies from it, so that they run the same
// rule.
func PolicyBuild(sc *scenario.Scenario, cfg *engine.Config, seed uint64, rep int) policies.Build {
	return policies.Build{Tiers: DispatchTiers(cfg), Params: Params(sc), Rand: PolicyRand(seed, rep),
		Sizes: cfg.Size, Rate: cfg.Arrivals.Rate, MeanReply: cfg.Reply.Mean(cfg.Size.Mean())}
}

// DispatchTiers lists the tiers as a policy sees them.
func DispatchTiers(cfg *engine.Config) []dispatch.Tier {
	ts := make([]dispatch.Tier, len(cfg.Tiers))
	for i := range cfg.Tiers {
		ts[i] = cfg.Tiers[i].Tier
	}
	return ts
}

// PolicyRand is the policy's own generator for replicate rep.
func PolicyRand(seed uint64, rep int) *rand.Rand { return DevicePolicyRand(seed, rep, 0) }

// DevicePolicyRand is device d's policy generator for replicate rep (device
// 0's is PolicyRand).
func DevicePolicyRand(seed uint64, rep, d int) *rand.Rand {
	return workload.Stream(seed, rep, workload.PolicyStream+uint64(d)*workload.DeviceStride)
}

// BurstIntervals lists every burst of sc that starts before horizon, in time
// order (overlapping specs are kept apart).
func BurstIntervals(sc *scenario.Scenario, horizon float64) []results.Interval {
	var out []results.Interval
	for _, b := range sc.Arrivals.Bursts {
		for n := 0; ; n++ {
			if (b.Count > 0 && n >= b.Count) || (b.Every <= 0 && n > 0) {
				break
			}
			s := b.Start + float64(n)*b.Every
			if s >= horizon {
				break
			}
			out = append(out, results.Interval{Start: s, End: math.Min(s+b.Length, horizon)})
		}
	}
	slices.SortFunc(out, func(a, b results.Interval) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// Horizon is the end of arrivals of a duration-mode scenario (0 otherwise).
func Horizon(sc *scenario.Scenario) float64 {
	if sc.Duration > 0 {
		return sc.WarmupTime + sc.Duration
	}
	return 0
}

// observation maps the scenario's observation block onto the engine's.
func observation(o *scenario.Observation) (engine.Observation, error) {
	if o == nil {
		return engine.Observation{}, nil
	}
	m, err := engine.ParseObservationModel(o.Model)
	if err != nil {
		return engine.Observation{}, fmt.Errorf("observation.model: %w", err)
	}
	if m == engine.Periodic && o.Period == 0 {
		m = engine.Fresh // a board refreshed continuously is the true state
	}
	out := engine.Observation{Model: m, Period: o.Period, Phase: o.Phase, Noise: o.Noise, CountOwn: o.CountOwn == nil || *o.CountOwn}
	if o.Delay != nil {
		if out.Delay, err = workload.LognormalDelay(o.Delay.Mean, o.Delay.CV); err != nil {
			return engine.Observation{}, fmt.Errorf("observation.delay: %w", err)
		}
	}
	return out, nil
}
