package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/chart"
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

// TestBurstLines: the zoom keeps the windows lying wholly in [from, to),
// counts time from the burst's start, gives each window the mean over
// replicates and its 95% Student-t half-width, and puts the unstable
// policies apart.
func TestBurstLines(t *testing.T) {
	mk := func(vals ...float64) []results.Window {
		var ws []results.Window
		for i, v := range vals {
			ws = append(ws, results.Window{Start: 5 * float64(i), MeanLatency: v})
		}
		return ws
	}
	runs := []policyRuns{{Policy: "hybrid", Runs: [][]results.Window{mk(1, 2, 3, 4, 5), mk(1, 4, 5, 6, 7)}},
		{Policy: "random", Unstable: true, Runs: [][]results.Window{mk(9, 9, 9, 9, math.NaN())}}}
	stable, unstable := burstLines(runs, 10, 5, 20, 5, func(w results.Window) float64 { return w.MeanLatency })
	if len(stable) != 1 || len(unstable) != 1 || stable[0].Label != "hybrid" || unstable[0].Label != "random" {
		t.Fatalf("stable %+v, unstable %+v", stable, unstable)
	}
	h := stable[0].Points
	if got := []float64{h[0].X, h[1].X, h[2].X}; len(h) != 3 || !slices.Equal(got, []float64{-2.5, 2.5, 7.5}) {
		t.Fatalf("hybrid's points %v, want the windows [5,10), [10,15), [15,20) at −2.5, 2.5, 7.5 s", h)
	}
	// Window [5,10): values 2 and 4, mean 3, half-width t(0.975, 1)·s/√2 = 12.706·√2/√2.
	if h[0].Y != 3 || math.Abs(h[0].Low-12.7062) > 1e-3 {
		t.Errorf("window [5,10): %g ± %g, want 3 ± 12.706", h[0].Y, h[0].Low)
	}
	if r := unstable[0].Points; len(r) != 3 || r[0].Low != 0 {
		t.Errorf("one replicate: %+v, want three points without a band", r)
	}
	legend := chart.Legend{Labels: []string{"hybrid", "random"}, Policies: []string{"hybrid", "random"}}
	figs := burstFigures(runs, legend, []results.Interval{{Start: 10, End: 15}}, 25, 5, -1)
	if len(figs) != 2 || figs[0].Title != "Windowed mean latency through burst 1 of 1" {
		t.Fatalf("burst figures %+v, want mean and P95 (no cloud tier)", figs)
	}
	m := memFolder{}
	if err := figs[0].Draw(m, "b", "svg", true, false); err != nil || len(m["b.svg"]) == 0 {
		t.Fatal(err)
	}
}
