package experiment

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/stats"
)

// TestLatenciesInArrivalOrder: tasks finish out of order; the batches are
// of consecutive arrivals, the warm-up's and the lost tasks left out.
func TestLatenciesInArrivalOrder(t *testing.T) {
	var l latencies
	var y []float64
	for id := range 60 {
		y = append(y, float64(id*id%17))
	}
	l.add(&engine.TaskRecord{ID: 100, Latency: 1e9}) // warm-up: not measured
	for i := range 60 {
		id := (i * 7) % 60 // a permutation: finishing order
		l.add(&engine.TaskRecord{ID: id, Latency: y[id], Measured: true})
	}
	l.add(&engine.TaskRecord{ID: 61, Latency: math.NaN(), Measured: true}) // lost
	ci, lag, corr := l.batches(6)
	want, err := stats.BatchMeans(y, 6)
	if err != nil {
		t.Fatal(err)
	}
	wantCorr := 0.0
	if want.Correlated {
		wantCorr = 1
	}
	if ci != want.Half || lag != want.Lag1 || corr != wantCorr {
		t.Errorf("batches: %v %v %v, want %v %v %v", ci, lag, corr, want.Half, want.Lag1, wantCorr)
	}
	var short latencies
	short.add(&engine.TaskRecord{ID: 0, Latency: 1, Measured: true})
	if ci, _, _ := short.batches(3); !math.IsNaN(ci) {
		t.Errorf("one task in 3 batches: %v, want NaN", ci)
	}
}
