package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/fcfs"
	"github.com/offload-sim/offload/internal/workload"
)

// TestViewCountsAreTrue: the fresh view at every decision holds each
// tier's true counts, and AreaN the true time-integral of tasks present,
// both tallied by brute force from the tasks' records: a task is present
// at t when it reached by t and finishes after t, in transit when its
// device dispatched it before this decision and it reaches after t. The
// tiers cover both ways the engine counts (present): 1, 3 and 16 servers
// read from the workload vector, 24 from the heap of finishes, each loaded
// to about 0.8, so that queues form. The cases add ties (a trace of
// integer arrival times, some at the same instant, with fixed sizes and
// delays, so that reaches, finishes and decisions coincide), the duration
// mode with its window opening between arrivals, and two devices, each
// with its own local tier and its own tasks in transit. Each case runs
// with views counted at every decision and tracked (track.go); a tracked
// view must list in Changed every tier whose state differs from its
// previous decision's, each once, and the runs must be the same.
func TestViewCountsAreTrue(t *testing.T) {
	cases := []struct {
		name     string
		ties     bool
		duration bool
		devices  int
		track    bool
	}{
		{"poisson", false, false, 1, false},
		{"ties", true, false, 1, false},
		{"duration", false, true, 1, false},
		{"ties duration", true, true, 1, false},
		{"two devices", false, false, 2, false},
		{"poisson tracked", false, false, 1, true},
		{"ties tracked", true, false, 1, true},
		{"duration tracked", false, true, 1, true},
		{"ties duration tracked", true, true, 1, true},
		{"two devices tracked", false, false, 2, true},
		{"five devices tracked", false, false, 5, true},
		{"forty devices tracked", false, false, 40, true}, // the log outgrows clogMax: whole views, then tracked ones again
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			size := mustDist(t, "pareto", 1, 2.5, 0)
			d1, d2, d3 := mustDelay(t, 0.05, 0.5), mustDelay(t, 0.2, 0.5), mustDelay(t, 0.5, 0.5)
			if tc.ties {
				size, d1, d2, d3 = workload.Const(1), workload.Const(1), workload.Const(2), workload.Const(3)
			}
			cfg := &Config{
				Tiers: []TierConfig{
					tier("local", dispatch.Local, 1, 10, size, workload.Dist{}),
					tier("edge", dispatch.Edge, 3, 3, size, d1),
					tier("edge2", dispatch.Edge, kwServers, 0.6, size, d2),
					tier("cloud", dispatch.Cloud, kwServers+8, 0.4, size, d3),
				},
				Arrivals: workload.Schedule{Rate: 30},
				Size:     size,
				Large:    size.Quantile(0.9),
			}
			if tc.ties {
				cfg.Trace = tiedTrace(6000, 16)
				cfg.Arrivals = workload.Schedule{Rate: cfg.Trace.Rate()}
				cfg.Size, _ = cfg.Trace.SizeLaw()
			}
			if tc.duration {
				cfg.WarmupTime, cfg.Duration = 10.03, 80
			} else {
				cfg.Tasks, cfg.Warmup = 2000, 300
			}
			if tc.track { // half the run: the check is quadratic in the tasks, and the untracked cases cover the rest
				cfg.Duration, cfg.Tasks = cfg.Duration/2, cfg.Tasks/2
			}
			type look struct {
				dev, task int
				now       float64
				states    []dispatch.State
				tracked   bool
				changed   []int
			}
			var looks []look
			var devs []Device
			for d := range tc.devices {
				r := rand.New(rand.NewPCG(8, uint64(d)))
				pol := dispatch.PolicyFunc(func(v *dispatch.View) dispatch.Decision {
					looks = append(looks, look{d, v.Task, v.Now, append([]dispatch.State(nil), v.States...), v.Tracked, append([]int(nil), v.Changed...)})
					return dispatch.Decision{Tier: r.IntN(len(v.Tiers))}
				})
				devs = append(devs, Device{Policy: pol, Streams: workload.NewStreams(3, d)})
			}
			var recs []TaskRecord
			cfg.OnTask = func(rec *TaskRecord) { recs = append(recs, *rec) }
			res, err := runTracked(cfg, devs, tc.track)
			if err != nil {
				t.Fatal(err)
			}
			for j := 1; j < len(looks); j++ { // the devices in the order of their arrivals, the lower index at a tie
				a, b := looks[j-1], looks[j]
				if b.now < a.now || b.now == a.now && b.dev <= a.dev && b.dev != a.dev {
					t.Fatalf("decision %d: device %d at %v after device %d at %v", j, b.dev, b.now, a.dev, a.now)
				}
			}
			tracked := 0
			prev := map[int]look{} // each device's previous decision
			for _, l := range looks {
				p, ok := prev[l.dev]
				prev[l.dev] = l
				if !l.tracked {
					continue
				}
				if !ok {
					t.Fatalf("device %d, task %d: a first decision is tracked", l.dev, l.task)
				}
				tracked++
				listed := map[int]bool{}
				for _, i := range l.changed {
					if listed[i] {
						t.Fatalf("device %d, task %d: tier %d listed twice in %v", l.dev, l.task, i, l.changed)
					}
					listed[i] = true
				}
				for i := range l.states {
					if l.states[i] != p.states[i] && !listed[i] {
						t.Fatalf("device %d, task %d: tier %d went from %+v to %+v, not in Changed %v", l.dev, l.task, i, p.states[i], l.states[i], l.changed)
					}
				}
			}
			if tc.track != (tracked > len(looks)/2) && tc.devices < 40 || tc.devices == 40 && (tracked == 0 || tracked == len(looks)-40) {
				t.Fatalf("%d of %d decisions tracked", tracked, len(looks))
			}
			if len(looks) != len(recs) {
				t.Fatalf("%d records of %d decisions", len(recs), len(looks))
			}
			order := make(map[[2]int]int, len(looks)) // (device, task) → decision index
			for j, l := range looks {
				order[[2]int{l.dev, l.task}] = j
			}
			queued := make([]int, len(cfg.Tiers))
			for j, l := range looks {
				for i, tcfg := range cfg.Tiers {
					n, transit := 0, 0
					for _, x := range recs {
						if x.Tier != i || i == 0 && x.Device != l.dev { // a device sees its own local tier
							continue
						}
						if order[[2]int{x.Device, x.ID}] >= j { // not yet dispatched at this decision
							continue
						}
						reach, finish := x.Arrival+x.Delay, x.Arrival+x.Latency
						switch {
						case reach > l.now:
							if x.Device == l.dev { // a view counts its own tasks in transit
								transit++
							}
						case finish > l.now:
							n++
						}
					}
					want := dispatch.State{Busy: min(n, tcfg.Servers), Queued: max(0, n-tcfg.Servers), InTransit: transit}
					if l.states[i] != want {
						t.Fatalf("device %d, task %d, tier %d (%d servers) at %v: view %+v, true %+v", l.dev, l.task, i, tcfg.Servers, l.now, l.states[i], want)
					}
					queued[i] += want.Queued
				}
			}
			for i, q := range queued {
				if q == 0 {
					t.Errorf("tier %d never had a queue at a decision: the test does not reach the waiting tasks", i)
				}
			}
			// Tasks mode: the window opens at the arrival of the last
			// warm-up task and closes at the arrival of the last task.
			start, end := cfg.WarmupTime, cfg.WarmupTime+res.Span
			if !tc.duration {
				end = math.Inf(-1)
				for _, x := range recs {
					end = max(end, x.Arrival)
				}
				start = end - res.Span
			}
			for i := range cfg.Tiers {
				area := 0.0
				for _, x := range recs {
					if x.Tier == i {
						area += max(0, min(x.Arrival+x.Latency, end)-max(x.Arrival+x.Delay, start))
					}
				}
				if got := res.Tier[i].AreaN; math.Abs(got-area) > 1e-9*area {
					t.Errorf("tier %d: AreaN %v, true %v", i, got, area)
				}
			}
		})
	}
}

// TestDelayedKeepsTheHeap: under the delayed model no tier reads its count
// from the workload vector, since its history needs every change at its
// instant, which only the heap of finishes visits; under the others the
// small tiers do.
func TestDelayedKeepsTheHeap(t *testing.T) {
	for _, m := range []ObservationModel{Fresh, Periodic, Individual, Delayed} {
		cfg := threeTier(t, 20, 100)
		cfg.Observe = Observation{Model: m, Period: 1, Delay: workload.Const(0.1)}
		s, err := newSim(cfg, []Device{{Policy: always(0), Streams: workload.NewStreams(1, 0), Observe: rand.New(rand.NewPCG(1, 1))}}, rand.New(rand.NewPCG(2, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for p := range s.tiers {
			if want := m != Delayed && s.tiers[p].servers <= kwServers; s.tiers[p].kw != want {
				t.Errorf("%v: tier %d of %d servers: kw %v, want %v", m, p, s.tiers[p].servers, s.tiers[p].kw, want)
			}
		}
	}
}

// TestResidualTakesOffTheDeparted: a heap tier's residual at t counts only
// the tasks still present at t, finish − t each, whatever its last drain;
// a small tier's, its busy servers' and its waiting tasks' remaining time.
func TestResidualTakesOffTheDeparted(t *testing.T) {
	s := &sim{}
	heap := &tierState{fin: newFinishes()}
	for _, f := range []float64{5, 1, 3, 2} {
		heap.fin.Push(f)
	}
	if got, want := s.residual(heap, 2.5), (3-2.5)+(5-2.5); got != want {
		t.Errorf("heap tier: residual %v at 2.5, want %v", got, want)
	}
	if heap.fin.len() != 2 {
		t.Errorf("heap tier: %d tasks present after the residual at 2.5, want 2", heap.fin.len())
	}
	small := &tierState{kw: true, free: fcfs.New(2)}
	for _, reach := range []float64{0, 0, 0.5} { // service 2: the third waits for the first server, from 2 to 4
		start, _ := small.free.Serve(reach, 2)
		if start > reach {
			small.waits.Add(start)
		}
	}
	// Present at 1: two in service until 2, and one waiting from 2 to 4:
	// (2−1) + (2−1) + (4−1).
	if got, want := s.residual(small, 1), 5.0; got != want {
		t.Errorf("small tier: residual %v at 1, want %v", got, want)
	}
}

// tiedTrace is n arrivals on a grid of perSecond a second, a third of them
// at the previous one's instant, with sizes 1 to 3: with constant delays,
// tasks tie in reach.
func tiedTrace(n int, perSecond float64) *workload.Trace {
	r := rand.New(rand.NewPCG(5, 5))
	var arr, sz []float64
	a := 0.0
	for range n {
		if r.IntN(3) > 0 {
			a++
		}
		arr, sz = append(arr, a/perSecond), append(sz, float64(1+r.IntN(3)))
	}
	return &workload.Trace{Arrivals: arr, Sizes: sz}
}
