package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// idleFunc is a test policy that reads only which tiers are idle
// (dispatch.IdleReader).
type idleFunc func(v *dispatch.View) dispatch.Decision

func (f idleFunc) Decide(v *dispatch.View) dispatch.Decision { return f(v) }
func (idleFunc) IdleReader()                                 {}

// samplerFunc is a test policy that reads a few tiers on demand
// (dispatch.Sampler).
type samplerFunc func(v *dispatch.View) dispatch.Decision

func (f samplerFunc) Decide(v *dispatch.View) dispatch.Decision { return f(v) }
func (samplerFunc) Sampler()                                    {}

// TestIdleViewsAreTrue: in a run of 26 tiers (and one of 4) of 1 to 24 servers (both
// ways a tier counts its tasks) at a load where every kind fills, an idle
// view (View.Idle, kept by the tiers going idle and filling) shows at
// every decision exactly the tiers with fewer tasks present than servers,
// from every task's record; a tracked decision lists in Changed every
// tier whose idleness moved since the device's previous one, once, and
// not every tier. With one device and several (each seeing its own local
// tier), tied instants, duration mode, a sampler beside the idle reader
// (which leaves the large tiers their heaps), and forty devices, whose
// log outgrows its bound (whole views, then tracked ones again).
func TestIdleViewsAreTrue(t *testing.T) {
	cases := []struct {
		name                    string
		ties, duration, sampler bool
		devices                 int
	}{
		{"poisson", false, false, false, 1},
		{"ties", true, false, false, 1},
		{"duration", false, true, false, 1},
		{"three devices", false, false, false, 3},
		{"a sampler beside", false, false, true, 2},
		{"forty devices", false, false, false, 40},
		{"four tiers", false, false, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 26
			if tc.name == "four tiers" {
				n = 4
			}
			cfg := idleTiers(t, n, tc.ties)
			if tc.duration {
				cfg.WarmupTime, cfg.Duration = 1, 25
			} else {
				cfg.Tasks, cfg.Warmup = 5000, 200
			}
			type look struct {
				dev, task int
				now       float64
				idle      []bool
				tracked   bool
				changed   []int
			}
			var looks []look
			var devs []Device
			for d := range tc.devices {
				r := rand.New(rand.NewPCG(8, uint64(d)))
				var pol dispatch.Policy = idleFunc(func(v *dispatch.View) dispatch.Decision {
					if v.Idle == nil {
						t.Fatalf("device %d, task %d: no idle view", d, v.Task)
					}
					looks = append(looks, look{d, v.Task, v.Now, slices.Clone(v.Idle), v.Tracked, slices.Clone(v.Changed)})
					return dispatch.Decision{Tier: r.IntN(len(v.Tiers))}
				})
				if tc.sampler && d == 1 {
					pol = samplerFunc(func(v *dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: r.IntN(len(v.Tiers))} })
				}
				devs = append(devs, Device{Policy: pol, Streams: workload.NewStreams(3, d)})
			}
			var recs []TaskRecord
			cfg.OnTask = func(rec *TaskRecord) { recs = append(recs, *rec) }
			if _, err := RunDevices(cfg, devs, nil); err != nil {
				t.Fatal(err)
			}
			idleAt := idleTruth(cfg, recs)
			tracked, listedAll, full := 0, 0, make([]int, len(cfg.Tiers))
			prev := map[int]look{}
			for _, l := range looks {
				want := idleAt(l.dev, l.task, l.now)
				for i := range want {
					if l.idle[i] != want[i] {
						t.Fatalf("device %d, task %d, tier %d (%d servers) at %v: idle %v, true %v", l.dev, l.task, i, cfg.Tiers[i].Servers, l.now, l.idle[i], want[i])
					}
					if !want[i] {
						full[i]++
					}
				}
				p, ok := prev[l.dev]
				prev[l.dev] = l
				if !l.tracked {
					continue
				}
				if !ok {
					t.Fatalf("device %d, task %d: a first decision is tracked", l.dev, l.task)
				}
				tracked++
				listedAll += len(l.changed)
				listed := map[int]bool{}
				for _, i := range l.changed {
					if listed[i] {
						t.Fatalf("device %d, task %d: tier %d listed twice in %v", l.dev, l.task, i, l.changed)
					}
					listed[i] = true
				}
				for i := range l.idle {
					if l.idle[i] != p.idle[i] && !listed[i] {
						t.Fatalf("device %d, task %d: tier %d went from idle %v to %v, not in Changed %v", l.dev, l.task, i, p.idle[i], l.idle[i], l.changed)
					}
				}
			}
			switch {
			case tc.devices < 40 && tracked <= len(looks)/2, tc.devices == 40 && (tracked == 0 || tracked == len(looks)-40):
				t.Fatalf("%d of %d decisions tracked", tracked, len(looks))
			case listedAll > tracked*len(cfg.Tiers)/4:
				t.Fatalf("%d tiers listed in %d tracked decisions: Changed lists more than what moved", listedAll, tracked)
			}
			for i, n := range full {
				if n == 0 {
					t.Errorf("tier %d (%d servers) never full at a decision: the test does not reach the filled tiers", i, cfg.Tiers[i].Servers)
				}
			}
		})
	}
}

// idleTiers is n tiers of 1, 3, 16 and 24 servers in turn, of equal
// capacity (10 tasks/s, sizes of mean 1), the first local, the others
// behind delays of 5 to 50 ms, at a load of 0.9 when the tasks are spread
// evenly; with ties, constant sizes and delays on a grid of instants.
func idleTiers(t *testing.T, n int, ties bool) *Config {
	size := mustDist(t, "pareto", 1, 2.5, 0)
	servers := []int{1, 3, kwServers, kwServers + 8}
	tiers := make([]TierConfig, n)
	for i := range tiers {
		c := servers[i%len(servers)]
		kind, d := dispatch.Edge, mustDelay(t, 0.005*float64(1+i%10), 0.5)
		if ties {
			d = workload.Const(0.01 * float64(1+i%3))
		}
		if i == 0 {
			kind, d = dispatch.Local, workload.Dist{}
		}
		tiers[i] = tier(fmt.Sprintf("t%d", i), kind, c, 10/float64(c), size, d)
	}
	cfg := &Config{Tiers: tiers, Arrivals: workload.Schedule{Rate: 0.9 * 10 * float64(n)}, Size: size, Large: size.Quantile(0.9)}
	if ties {
		cfg.Trace = tiedTrace(6000, cfg.Arrivals.Rate/1.5)
		cfg.Arrivals = workload.Schedule{Rate: cfg.Trace.Rate()}
		cfg.Size, _ = cfg.Trace.SizeLaw()
	}
	return cfg
}

// idleTruth is, from a run's task records, which tiers device dev's view
// would show idle at its decision of task at now: fewer tasks reached by
// now and not finished than servers, of those decided before (a device
// sees its own local tier).
func idleTruth(cfg *Config, recs []TaskRecord) func(dev, task int, now float64) []bool {
	return func(dev, task int, now float64) []bool {
		n := make([]int, len(cfg.Tiers))
		for _, x := range recs {
			if x.Tier == 0 && x.Device != dev || x.Arrival > now || x.Arrival == now && (x.Device > dev || x.Device == dev && x.ID >= task) {
				continue // another's local tier, or not decided yet
			}
			if x.Arrival+x.Delay <= now && now < x.Arrival+x.Latency {
				n[x.Tier]++
			}
		}
		idle := make([]bool, len(n))
		for i := range n {
			idle[i] = n[i] < cfg.Tiers[i].Servers
		}
		return idle
	}
}
