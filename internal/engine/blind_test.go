package engine

import (
	"math"
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
// which reads the view and so has it counted for a blind policy too. The
// one exception is the Little's-law integral of the tier of more than
// kwServers servers, within 10⁻¹² (see below).
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
			sameRuns(t, "blind", blind, "counted", seen)
			if tc.shadow && blind.Shadow[0].SumAbsWait == 0 {
				t.Fatal("the shadow saw no counts")
			}
		})
	}
}

// TestUnreadTiersStayBounded: a tier that nothing reads between the
// measured window's ends keeps only its tasks present, not every task it
// was ever given. Under fresh views and a blind policy no decision reads a
// tier, and every tier, whatever its size, reads its count from its
// workload vector: its ring of waiting starts must be bounded. Under a
// board posted once (a period longer than the run) a large tier keeps a
// heap of finishes, read only at the posting: it must be bounded too. On
// one server at ρ = 0.9, 60,000 tasks wait in about nine cases of ten,
// while a queue of 512 has a probability of about 0.9⁵¹² ≈ 10⁻²³; on 64
// servers at ρ = 0.9 the tasks present are about 58 ± 8 (Poisson for the
// busy, Erlang C's few waiting), never 1,024.
func TestUnreadTiersStayBounded(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	for _, tc := range []struct {
		c     int
		board bool // a periodic board of one posting, and a policy that is not blind
		kw    bool // the tier reads its count from its workload vector
	}{{1, false, true}, {64, false, true}, {64, true, false}} {
		cfg := singleTier(0.9*float64(tc.c), tc.c, exp, 60000, 0)
		pol := uniform(rand.New(rand.NewPCG(1, 2)))
		if tc.board {
			cfg.Observe = Observation{Model: Periodic, Period: 1e9}
			pol = seeing{pol}
		}
		var s *sim
		most := 0 // the most the ring or the heap held, seen at every task's record
		cfg.OnTask = func(*TaskRecord) {
			ts := &s.tiers[0]
			// The ring's length, read by reflection: fcfs keeps it unexported.
			most = max(most, ts.fin.len(), reflect.ValueOf(ts.waits).FieldByName("q").Len())
		}
		s, err := newSim(cfg, []Device{{Policy: pol, Streams: workload.NewStreams(4, 0)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.devs[0].count {
			t.Fatal("a view is counted at each decision")
		}
		if ts := &s.tiers[0]; ts.kw != tc.kw {
			t.Fatalf("c = %d, board %v: kw %v", tc.c, tc.board, ts.kw)
		}
		if err := s.loop(); err != nil {
			t.Fatal(err)
		}
		if most > 1024 || most == 0 {
			t.Fatalf("c = %d, board %v: the ring of waiting starts or the heap of finishes held %d", tc.c, tc.board, most)
		}
	}
}

// sameRuns fails t unless runs a and b (named as given) are the same,
// bit for bit, but for the Little's-law integrals, which must agree to
// 10⁻¹²: a tier of more than kwServers servers that no view reads counts
// from its workload vector, not a heap of finishes, and its integral,
// which no output reads, then sums the same times in another order. It
// sets a's integrals to b's.
func sameRuns(t testing.TB, nameA string, a *Result, nameB string, b *Result) {
	t.Helper()
	for i := range a.Tier {
		x, y := &a.Tier[i], &b.Tier[i]
		if math.Abs(x.AreaN-y.AreaN) > 1e-12*y.AreaN {
			t.Fatalf("tier %d: AreaN %v %s, %v %s", i, x.AreaN, nameA, y.AreaN, nameB)
		}
		x.AreaN = y.AreaN
	}
	if a.Tasks == 0 || !reflect.DeepEqual(a, b) {
		t.Fatalf("the %s run differs from the %s one:\n%s %+v\n%s %+v", nameA, nameB, nameA, a, nameB, b)
	}
}
