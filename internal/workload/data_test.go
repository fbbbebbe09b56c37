package workload

import (
	"math"
	"testing"
)

// A random data law draws on the data stream alone: the arrivals, sizes and
// propagation delays are those of the same replicate without data, and
// each delay gains exactly data/B.
func TestDataHasItsOwnStream(t *testing.T) {
	size, _ := New("pareto", 1, 2.5, 0)
	delay, _ := LognormalDelay(0.01, 0.3)
	data, _ := New("lognormal", 8e6, 0, 0.7)
	plain := Spec{Arrivals: Schedule{Rate: 5}, Size: size, Delays: []Dist{{}, delay}}
	with := plain
	with.Data = DataLaw{Dist: data}
	with.Reply, _ = Proportional(100)
	with.Bandwidth = []float64{0, 1e7}
	a, b := NewSource(plain, NewStreams(9, 2), nil), NewSource(with, NewStreams(9, 2), nil)
	var x, y Task
	var sum float64
	const n = 20000
	for range n {
		a.Next(&x)
		b.Next(&y)
		if x.Arrival != y.Arrival || x.Size != y.Size || a.Delay(&x, 0) != b.Delay(&y, 0) || b.Delay(&y, 0) != 0 {
			t.Fatalf("data moved another stream: %+v vs %+v", x, y)
		}
		if b.Delay(&y, 1) != a.Delay(&x, 1)+y.Data/1e7 || y.Reply != 100*y.Size || x.Data != 0 || x.Reply != 0 {
			t.Fatalf("task %+v against %+v: want delay + data/B and a reply of 100 × size", y, x)
		}
		sum += y.Data
	}
	// The lognormal's mean, to 5 standard errors (cv 0.7).
	if m, se := sum/n, 0.7*8e6/math.Sqrt(n); math.Abs(m-8e6) > 5*se {
		t.Errorf("mean data %g, want 8e6 ± %g", m, 5*se)
	}
}

func TestDataLaw(t *testing.T) {
	if !(&DataLaw{}).None() || (&DataLaw{}).Random() || (&DataLaw{}).Draw(3, nil) != 0 {
		t.Error("the zero DataLaw is not none")
	}
	p, err := Proportional(8)
	if err != nil || p.None() || p.Random() || p.Draw(2.5, nil) != 20 || p.Mean(0.5) != 4 {
		t.Errorf("Proportional(8) = %+v, %v", p, err)
	}
	if _, err := Proportional(0); err == nil {
		t.Error("Proportional(0) accepted")
	}
	if TransferTime(8e6, 0) != 0 || TransferTime(0, 1e6) != 0 || TransferTime(8e6, 1e8) != 0.08 {
		t.Error("TransferTime")
	}
}
