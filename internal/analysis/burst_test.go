package analysis

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

// series builds windows of width 5 from mean latencies and cloud shares.
func series(lat, cloud []float64) []results.Window {
	ws := make([]results.Window, len(lat))
	for i := range lat {
		ws[i] = results.Window{Start: 5 * float64(i), Tasks: 10, MeanLatency: lat[i], Share: []float64{0, 1 - cloud[i], cloud[i]}}
	}
	return ws
}

func TestBurstStats(t *testing.T) {
	// Windows of 5 s; a burst in [30, 40); baseline windows are [0, 30).
	lat := []float64{1, 1, 1, 1, 1, 1, 3, 5, 4, 2, 1.1, 1, 1, 1}
	cloud := []float64{0, 0, 0, 0, 0, 0, 0.5, 0.5, 0.2, 0, 0, 0, 0, 0}
	got := BurstStats(series(lat, cloud), 5, []results.Interval{{Start: 30, End: 40}}, 70, 2)
	if len(got) != 1 {
		t.Fatalf("%d stats", len(got))
	}
	s := got[0]
	if s.Baseline != 1 || s.Peak != 5 || s.PeakAt != 35 {
		t.Errorf("baseline %v peak %v at %v, want 1, 5 at 35", s.Baseline, s.Peak, s.PeakAt)
	}
	// After 40: 4 (no), 2 (no), 1.1 (≤ 1.2: the window [50, 55) ends 15 s after the burst).
	if s.Recovery != 15 {
		t.Errorf("recovery %v, want 15", s.Recovery)
	}
	if s.CloudBefore != 0 || s.CloudDuring != 0.5 {
		t.Errorf("cloud before %v during %v, want 0 and 0.5", s.CloudBefore, s.CloudDuring)
	}
}

func TestBurstNeverRecovers(t *testing.T) {
	lat := []float64{1, 1, 1, 1, 1, 1, 3, 5, 4, 2, 2, 2}
	s := BurstStats(series(lat, make([]float64, len(lat))), 5, []results.Interval{{Start: 30, End: 40}}, 60, 2)[0]
	if !math.IsNaN(s.Recovery) {
		t.Errorf("recovery %v, want NaN (never back within 20%%)", s.Recovery)
	}
}

func TestMeanSeries(t *testing.T) {
	a := series([]float64{1, math.NaN()}, []float64{0, 1})
	b := series([]float64{3, 2}, []float64{1, 1})
	m := meanSeries([][]results.Window{a, b})
	if m[0].MeanLatency != 2 || m[1].MeanLatency != 2 || m[0].Share[2] != 0.5 || m[0].Tasks != 20 {
		t.Errorf("mean series %+v", m)
	}
}
