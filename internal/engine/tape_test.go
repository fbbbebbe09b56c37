package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// leastLoaded sends a task to the tier with the fewest tasks present per
// server in its view: a policy whose every decision depends on the state.
type leastLoaded struct{}

func (leastLoaded) String() string { return "least-loaded" }

func (leastLoaded) Decide(v *dispatch.View) dispatch.Decision {
	best, bl := 0, 0.0
	for i := range v.Tiers {
		l := float64(v.States[i].Busy+v.States[i].Queued+v.States[i].InTransit) / float64(v.Tiers[i].Servers)
		if i == 0 || l < bl {
			best, bl = i, l
		}
	}
	return dispatch.Decision{Tier: best}
}

// Runs that replay their devices' tasks from shared tapes are the runs
// that draw their own, bit for bit, for every policy in turn on the same
// tapes: one device and several, tasks and duration mode, bursts, observed
// with a delay, and with a tape limit far below the run (its readers then
// continue on sources of their own).
func TestTapesGiveTheSameRuns(t *testing.T) {
	cases := map[string]func() (*Config, int){
		"one device": func() (*Config, int) { return threeTier(t, 60, 3000), 1 },
		"four devices, delayed": func() (*Config, int) {
			cfg := threeTier(t, 80, 3000)
			cfg.Observe = Observation{Model: Delayed, Delay: mustDelay(t, 0.05, 0.5), CountOwn: true}
			return cfg, 4
		},
		"duration, bursts": func() (*Config, int) {
			cfg := threeTier(t, 40, 0)
			cfg.Tasks, cfg.Warmup, cfg.Duration, cfg.WarmupTime = 0, 0, 60, 5
			cfg.Arrivals.Bursts = []workload.Burst{{Start: 10, Every: 20, Length: 4, Factor: 3}}
			return cfg, 1
		},
	}
	for name, mk := range cases {
		for _, limit := range []int{100, 1 << 20} {
			cfg, k := mk()
			streams := make([]func() workload.Streams, k)
			for d := range streams {
				streams[d] = func() workload.Streams { return workload.DeviceStreams(7, 2, d) }
			}
			tapes := NewTapes(cfg, streams, limit)
			pols := []func() dispatch.Policy{
				func() dispatch.Policy { return uniform(rand.New(rand.NewPCG(1, 4))) },
				func() dispatch.Policy { return leastLoaded{} },
				func() dispatch.Policy { return always(2) },
			}
			for pi, pol := range pols {
				run := func(tape bool) *Result {
					devs := make([]Device, k)
					for d := range devs {
						devs[d] = Device{Policy: pol(), Streams: streams[d](), Observe: workload.Stream(7, 2, uint64(90+d))}
						if tape {
							devs[d].Tape = tapes[d]
						}
					}
					res, err := RunDevices(cfg, devs, nil)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				own, taped := run(false), run(true)
				if own.Tasks == 0 || !reflect.DeepEqual(own, taped) {
					t.Errorf("%s, limit %d, policy %d: the taped run differs from the run drawing its own tasks:\n%+v\n%+v", name, limit, pi, taped, own)
				}
			}
		}
	}
}

// A tape of another workload is refused, not silently replayed.
func TestTapeOfAnotherWorkloadRefused(t *testing.T) {
	cfg := threeTier(t, 60, 100)
	tapes := NewTapes(threeTier(t, 61, 100), []func() workload.Streams{func() workload.Streams { return workload.NewStreams(1, 0) }}, 1000)
	_, err := RunDevices(cfg, []Device{{Policy: always(0), Streams: workload.NewStreams(1, 0), Tape: tapes[0]}}, nil)
	if err == nil {
		t.Fatal("a tape of 61 tasks/s replayed in a run of 60 tasks/s")
	}
}
