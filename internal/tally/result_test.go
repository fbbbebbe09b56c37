package tally

import (
	"math"
	"testing"
)

// TestRecord: each measured task adds to the run's, its tier's and its
// class's sums, a prediction's error is against the latency it predicts
// (wait + 1/μ + mean delay), and a class counts the tasks past its
// deadline.
func TestRecord(t *testing.T) {
	r := New(&Setup{Mu: []float64{2, 4}, MeanDelay: []float64{0, 0.5}, Shadows: 1, Tasks: 10,
		Large: 3, LargeShare: 0.2, Deadlines: []float64{0, 1}})
	r.Record(1, 1, 5, 100, 10, true, 0.25, 0.5, 1.5)
	r.RecordShadows(1, true, 0.5, 1.5, []float64{0.5})
	r.Record(0, 0, 1, 0, 0, false, 0, 0, 0.5)
	if r.Tasks != 2 || r.Latencies.Len() != 2 || r.LargeLatencies.Len() != 1 || r.SumWait != 0.5 {
		t.Errorf("run: tasks %d, latencies %d, large %d, wait %v", r.Tasks, r.Latencies.Len(),
			r.LargeLatencies.Len(), r.SumWait)
	}
	if tr := r.Tier[1]; tr.Count != 1 || tr.Work != 5 || tr.Data != 100 || tr.Reply != 10 || tr.SumLatency != 1.5 {
		t.Errorf("tier 1: %+v", tr)
	}
	// predicted latency 0.25 + 1/4 + 0.5 = 1: |1 − 1.5| / 1.5
	if want := 0.5 / 1.5; r.Predicted != 1 || math.Abs(r.SumAPE-want) > 1e-15 {
		t.Errorf("predicted %d, SumAPE %v, want 1 and %v", r.Predicted, r.SumAPE, want)
	}
	// the shadow's: 0.5 + 1/4 + 0.5 = 1.25
	if sh, want := r.Shadow[0], 0.25/1.5; sh.IdleTasks != 1 || math.Abs(sh.SumAPE-want) > 1e-15 || sh.SumAbsWait != 0 {
		t.Errorf("shadow %+v, want SumAPE %v", sh, want)
	}
	if c := r.Class[1]; c.Tasks != 1 || c.Late != 1 || r.Class[0].Late != 0 {
		t.Errorf("classes %+v %+v: want one late task in class 1", r.Class[0], c)
	}
}
