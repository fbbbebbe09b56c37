package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
)

// seeing wraps a blind policy without forwarding dispatch.Blind, so that
// the engine counts its view: the same decisions, the general path.
type seeing struct{ p dispatch.Policy }

func (s seeing) Decide(v *dispatch.View) dispatch.Decision { return s.p.Decide(v) }

// busyShadow predicts the busy servers of the chosen tier as its wait, so
// that its error depends on the view's counts.
type busyShadow struct{}

func (busyShadow) PredictWait(v *dispatch.View, i int) float64 {
	return float64(v.States[i].Busy+2*v.States[i].Queued) / 10
}

// blindConfig is four tiers, both ways of counting (1, 3 and 16 servers from
// the workload vector, 24 from the heap of finishes), loaded so that
// queues form under a uniform split.
func blindConfig(t *testing.T) *Config {
	size := mustDist(t, "pareto", 1, 2.5, 0)
	return &Config{
		Tiers: []TierConfig{
			tier("local", dispatch.Local, 1, 10, size, workload.Dist{}),
			tier("edge", dispatch.Edge, 3, 3, size, mustDelay(t, 0.05, 0.5)),
			tier("edge2", dispatch.Edge, kwServers, 0.6, size, mustDelay(t, 0.2, 0.5)),
			tier("cloud", dispatch.Cloud, kwServers+8, 0.4, size, mustDelay(t, 0.5, 0.5)),
		},
		Arrivals: workload.Schedule{Rate: 30},
		Size:     size,
		Large:    size.Quantile(0.9),
	}
}

// TestBlindRunIsTheSame: a dispatch.Blind policy, whose views the engine
// does not count, gives the same result, bit for bit, as the same policy
// through a wrapper that hides the mark (every view counted): in tasks and
// duration mode, with one device and two, and with a shadow predictor,
// which reads the view and so has it counted for a blind policy too.
func TestBlindRunIsTheSame(t *testing.T) {
	for _, tc := range []struct {
		name     string
		duration bool
		devices  int
		shadow   bool
	}{
		{"tasks", false, 1, false},
		{"duration", true, 1, false},
		{"two devices", false, 2, false},
		{"shadow", false, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(hide bool) *Result {
				cfg := blindConfig(t)
				if tc.duration {
					cfg.WarmupTime, cfg.Duration = 10.03, 300
				} else {
					cfg.Tasks, cfg.Warmup = 8000, 500
				}
				var devs []Device
				for d := range tc.devices {
					var p dispatch.Policy = uniform(rand.New(rand.NewPCG(8, uint64(d))))
					if hide {
						p = seeing{p}
					}
					dev := Device{Policy: p, Streams: workload.NewStreams(3, d)}
					if tc.shadow {
						dev.Shadows = []dispatch.Predictor{busyShadow{}}
					}
					devs = append(devs, dev)
				}
				res, err := RunDevices(cfg, devs, nil)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			blind, seen := run(false), run(true)
			if blind.Tasks == 0 || !reflect.DeepEqual(blind, seen) {
				t.Fatalf("blind run differs from the counted one:\nblind %+v\nseen  %+v", blind, seen)
			}
			if tc.shadow && blind.Shadow[0].SumAbsWait == 0 {
				t.Fatal("the shadow saw no counts")
			}
		})
	}
}

// TestBlindRunKeepsTiersBounded: in a run whose views read no tier, what a
// tier keeps of its tasks present stays the tasks present, not every task
// it was ever given: a small tier's ring of waiting starts, and a large
// tier's heap of finishes. 60,000 tasks on one server at ρ = 0.9 wait in
// about nine of ten cases, while a queue of 512 has a probability of about
// 0.9⁵¹² ≈ 10⁻²³; on 64 servers at ρ = 0.9 the tasks present are about
// 58 ± 8 (Poisson for the busy, Erlang C's few waiting), never 1,024.
func TestBlindRunKeepsTiersBounded(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	for _, c := range []int{1, 64} {
		cfg := singleTier(0.9*float64(c), c, exp, 60000, 0)
		var s *sim
		most := 0 // the most either held, seen at every task's record
		cfg.OnTask = func(*TaskRecord) {
			ts := &s.tiers[0]
			// The ring's length, read by reflection: fcfs keeps it unexported.
			most = max(most, ts.fin.len(), reflect.ValueOf(ts.waits).FieldByName("q").Len())
		}
		s, err := newSim(cfg, []Device{{Policy: uniform(rand.New(rand.NewPCG(1, 2))), Streams: workload.NewStreams(4, 0)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.devs[0].count {
			t.Fatal("a blind policy's view is counted")
		}
		if err := s.loop(); err != nil {
			t.Fatal(err)
		}
		if most > 1024 || most == 0 {
			t.Fatalf("c = %d: the ring of waiting starts or the heap of finishes held %d", c, most)
		}
		if ts := &s.tiers[0]; ts.kw != (c <= kwServers) {
			t.Fatalf("c = %d: kw %v", c, ts.kw)
		}
	}
}
