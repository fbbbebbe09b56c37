package workload

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// tapeSpecs are workloads whose every part a tape must replay: Poisson with
// bursts, an MMPP (a process with memory), data and replies with
// bandwidth, and a trace with bootstrapped sizes.
func tapeSpecs(t *testing.T) map[string]Spec {
	t.Helper()
	size, _ := New("pareto", 1, 2.5, 0)
	delay, _ := LognormalDelay(0.01, 0.3)
	data, _ := New("lognormal", 8e6, 0, 0.7)
	reply, _ := Proportional(100)
	burst := Schedule{Rate: 20, Bursts: []Burst{{Start: 1, Every: 3, Length: 0.5, Factor: 4}}}
	return map[string]Spec{
		"poisson bursts": {Arrivals: burst, Size: size, Delays: []Dist{{}, delay, delay}},
		"mmpp": {Arrivals: Schedule{Rate: 20}, Size: size, Delays: []Dist{delay},
			Process: ProcessSpec{Kind: MMPP, Rates: [2]float64{0.5, 1.5}, Sojourn: [2]float64{1, 1}}},
		"data": {Arrivals: Schedule{Rate: 5}, Size: size, Delays: []Dist{{}, delay}, Data: DataLaw{Dist: data},
			Reply: reply, Bandwidth: []float64{0, 1e7}},
		"many tiers": {Arrivals: Schedule{Rate: 20}, Size: size, Delays: slices.Repeat([]Dist{delay}, TapeDelayTiers+2)}, // no delay recorded
		"trace": {Arrivals: Schedule{Rate: 1}, Size: size, Delays: []Dist{delay},
			Trace: &Trace{Arrivals: []float64{0, 0.5, 0.5, 2, 3, 3.25, 4, 7}, Sizes: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Bootstrap: true}},
	}
}

// Every reader of a tape gets, task for task and bit for bit, what a
// source of its own would have drawn, Peek and Stopped included: readers
// that interleave, that start after others have recorded, and that go
// past the limit (the first takes the recording source over, the later
// ones draw again) all agree with the direct draw.
func TestTapeReplaysTheSource(t *testing.T) {
	const n = 300
	for name, spec := range tapeSpecs(t) {
		for _, limit := range []int{1, 7, 64, n + 1, 10 * n} {
			t.Run(fmt.Sprintf("%s/limit %d", name, limit), func(t *testing.T) {
				streams := func() Streams { return NewStreams(3, 1) }
				direct := NewSource(spec, streams(), nil)
				want := make([]Task, n)
				peek := make([]float64, n+1)
				for i := range want {
					peek[i] = direct.Peek()
					direct.Next(&want[i])
				}
				peek[n] = direct.Peek()
				tape := NewTape(spec, streams, nil, limit, n/2)
				readers := []*Source{tape.Source(), tape.Source(), tape.Source()}
				got := make([]int, len(readers))
				var x Task
				read := func(r, upTo int) {
					for ; got[r] < upTo; got[r]++ {
						s := readers[r]
						if p := s.Peek(); p != peek[got[r]] && !(math.IsInf(p, 1) && math.IsInf(peek[got[r]], 1)) {
							t.Fatalf("reader %d, task %d: peek %v, want %v", r, got[r], p, peek[got[r]])
						}
						s.Next(&x)
						w := want[got[r]]
						if x != w {
							t.Fatalf("reader %d, task %d: %+v, want %+v", r, got[r], x, w)
						}
						for i := range spec.Delays {
							if a, b := s.Delay(&x, i), direct.Delay(&w, i); a != b {
								t.Fatalf("reader %d, task %d: delay to tier %d %v, want %v", r, got[r], i, a, b)
							}
						}
						if s.Stopped() {
							t.Fatalf("reader %d stopped without a stop channel", r)
						}
					}
					if p := readers[r].Peek(); p != peek[upTo] && !(math.IsInf(p, 1) && math.IsInf(peek[upTo], 1)) {
						t.Fatalf("reader %d after %d tasks: peek %v, want %v", r, upTo, p, peek[upTo])
					}
				}
				read(0, 50)
				read(1, 120)
				read(0, 200)
				read(2, n)
				read(1, n)
				read(0, n)
				if tape.Len() > limit {
					t.Errorf("tape holds %d tasks, limit %d", tape.Len(), limit)
				}
			})
		}
	}
}

// A tape's reader stops as its source would once the stop channel is
// closed: Stopped reports it, so that the run ends promptly.
func TestTapeStops(t *testing.T) {
	spec := Spec{Arrivals: Schedule{Rate: 1e-9, Bursts: []Burst{{Start: 0, Every: 1e-6, Length: 5e-7, Factor: 2}}}}
	spec.Size, _ = New("exponential", 1, 0, 0)
	stop := make(chan struct{})
	close(stop)
	tape := NewTape(spec, func() Streams { return NewStreams(1, 0) }, stop, 10, 0)
	if !tape.Source().Stopped() {
		t.Error("a reader of a stopped tape does not say it stopped")
	}
}

// TapeBytes counts eight bytes per recorded value: arrival and size, every
// tier's delay up to TapeDelayTiers tiers (none beyond: readers draw
// theirs from the keyed stream), and data and reply when the tasks carry
// data.
func TestTapeBytes(t *testing.T) {
	for name, want := range map[string]float64{"data": 8 * 6 * 10, "poisson bursts": 8 * 5 * 10, "many tiers": 8 * 2 * 10} {
		if got := TapeBytes(tapeSpecs(t)[name], 10); got != want {
			t.Errorf("%s: TapeBytes = %v, want %v", name, got, want)
		}
	}
}

// benchSpec is the paper's default workload: Poisson at 60 tasks/s,
// Pareto sizes, a local tier and two lognormal delays.
func benchSpec(b *testing.B) Spec {
	size, err := New("pareto", 1, 2.5, 0)
	if err != nil {
		b.Fatal(err)
	}
	edge, _ := LognormalDelay(0.005, 0.2)
	cloud, _ := LognormalDelay(0.060, 0.2)
	return Spec{Arrivals: Schedule{Rate: 60}, Size: size, Delays: []Dist{{}, edge, cloud}}
}

// BenchmarkSource draws the default workload's tasks: one op is one task,
// what every run paid before tapes.
func BenchmarkSource(b *testing.B) {
	src := NewSource(benchSpec(b), NewStreams(1, 0), nil)
	var x Task
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		src.Next(&x)
	}
}

// BenchmarkTapeReplay reads the same tasks from a tape already recorded:
// what every policy of a replicate but the first pays now. One op is one
// task.
func BenchmarkTapeReplay(b *testing.B) {
	tape := NewTape(benchSpec(b), func() Streams { return NewStreams(1, 0) }, nil, b.N+1, b.N+1)
	var x Task
	for src := tape.Source(); tape.Len() < b.N; {
		src.Next(&x)
	}
	src := tape.Source()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		src.Next(&x)
	}
}
