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

// whole hides from a policy what makes its decisions cheap at scale: the
// view's tracking of its changes (Tracked false: every tier may have
// changed) and, by not forwarding dispatch.Sampler, the engine's reading
// of a sampler's tiers on demand. It forwards dispatch.Observer and
// dispatch.Clairvoyant, which the decisions need.
type whole struct{ p dispatch.Policy }

func (w whole) Decide(v *dispatch.View) dispatch.Decision {
	tracked := v.Tracked
	v.Tracked = false
	d := w.p.Decide(v)
	v.Tracked = tracked
	return d
}

func (w whole) Dispatched(now float64, tier int) {
	if o, ok := w.p.(dispatch.Observer); ok {
		o.Dispatched(now, tier)
	}
}

type wholeClairvoyant struct{ whole }

func (wholeClairvoyant) Clairvoyant() {}

// mixedTiers is n tiers of 1, 4, 16 and 24 servers of the given speed in
// turn (both ways a tier counts its tasks), the first local, the others
// behind lognormal delays of 5 to 50 ms, at total load rho.
func mixedTiers(b testing.TB, n int, speed, rho float64) *engine.Config {
	size := engine.MustDist(b, "pareto", 1, 2.5, 0)
	servers := []int{1, 4, 16, 24}
	tiers := make([]engine.TierConfig, n)
	capa := 0.0
	for i := range tiers {
		kind, d := dispatch.Edge, engine.MustDelay(b, 0.005*float64(1+i%10), 0.5)
		if i == 0 {
			kind, d = dispatch.Local, workload.Dist{}
		}
		c := servers[i%len(servers)]
		tiers[i] = engine.NewTier(fmt.Sprintf("t%d", i), kind, c, speed, size, d)
		capa += float64(c) * speed
	}
	return &engine.Config{Tiers: tiers, Arrivals: workload.Schedule{Rate: rho * capa}, Size: size, Large: size.Quantile(0.9)}
}

// TestTrackedDecisionsAreTheWholeOnes: on 26 tiers (so that the
// engine tracks its views) and at a load where queues form, the registry's
// state-reading and sampling policies decide exactly as they do when every
// decision rescores every tier (whole): the same Result, bit for bit, in
// tasks and duration mode, with one device and with three, and under a
// periodic board (own sends counted) and an individual one, whose views
// follow their postings. It covers the
// tree policies (jsq, jsq-s, jiq), the hybrid's cached scores past the
// window's first 10 s and during them, its ablations, the age-aware
// hybrid (which rescores every tier), power-of-d read on demand, and lwl's
// own keys.
func TestTrackedDecisionsAreTheWholeOnes(t *testing.T) {
	names := []string{policies.NameJSQ, policies.NameJSQS, policies.NameJIQ, policies.NameHybrid, policies.NameModelOnly,
		policies.NameQueueOnly, policies.NameHybridAge, policies.NamePowerOfD, policies.NameLWL}
	boards := []engine.Observation{{}, {Model: engine.Periodic, Period: 0.05, CountOwn: true}, {Model: engine.Individual, Period: 0.2}}
	for _, name := range names {
		for _, devices := range []int{1, 3} {
			for _, duration := range []bool{false, true} {
				for _, obs := range boards {
					if obs.Model != engine.Fresh && (duration || devices > 1) {
						continue // a board in one case each
					}
					t.Run(fmt.Sprintf("%s/%d devices/duration %v/%v", name, devices, duration, obs.Model), func(t *testing.T) {
						run := func(hide bool) *engine.Result {
							cfg := mixedTiers(t, 26, 1, 0.85) // 250 tasks/s: the hybrid past its window's first 10 s for most of the run
							cfg.Observe = obs
							if duration {
								cfg.WarmupTime, cfg.Duration = 2, 25
							} else {
								cfg.Tasks, cfg.Warmup = 6000, 300
							}
							var devs []engine.Device
							for d := range devices {
								p := engine.RegistryPolicy(t, name, cfg, uint64(d))
								if hide {
									if _, ok := p.(dispatch.Clairvoyant); ok {
										p = wholeClairvoyant{whole{p}}
									} else {
										p = whole{p}
									}
								}
								devs = append(devs, engine.Device{Policy: p, Streams: workload.DeviceStreams(5, 0, d)})
							}
							res, err := engine.RunDevices(cfg, devs, rand.New(rand.NewPCG(9, 9)))
							if err != nil {
								t.Fatal(err)
							}
							return res
						}
						tracked, all := run(false), run(true)
						engine.SameRuns(t, "tracked", tracked, "whole", all) // lwl's blind run counts its large tiers as TestBlindRunIsTheSame says
					})
				}
			}
		}
	}
}

// TestIdleViewsDecideAsCounts: below the tiers from which counted views
// are tracked, jiq reads idle views too (dispatch.IdleReader), and decides
// as it does on views counted whole at every decision: the same Result,
// bit for bit, with one device and with three (each its own local tier).
func TestIdleViewsDecideAsCounts(t *testing.T) {
	for _, tiers := range []int{3, 5} {
		for _, devices := range []int{1, 3} {
			t.Run(fmt.Sprintf("%d tiers/%d devices", tiers, devices), func(t *testing.T) {
				run := func(hide bool) *engine.Result {
					cfg := mixedTiers(t, tiers, 1, 0.85)
					cfg.Tasks, cfg.Warmup = 6000, 300
					var devs []engine.Device
					for d := range devices {
						var p dispatch.Policy = engine.RegistryPolicy(t, policies.NameJIQ, cfg, uint64(d))
						if hide {
							p = whole{p}
						}
						devs = append(devs, engine.Device{Policy: p, Streams: workload.DeviceStreams(5, 0, d)})
					}
					res, err := engine.RunDevices(cfg, devs, nil)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				engine.SameRuns(t, "idle views", run(false), "counted", run(true))
			})
		}
	}
}
