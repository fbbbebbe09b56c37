package claims

import (
	"math"
	"strings"
	"testing"
)

// TestNumbers: fixed-point with a set number of significant figures, a
// difference to its interval's precision, a unit from the values' size.
func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		x    float64
		sig  int
		want string
	}{{0.04647, 4, "0.04647"}, {6.293e-05, 4, "0.00006293"}, {547612.3, 4, "547600"}, {-1.89, 2, "−1.9"}, {0, 4, "0"}, {math.NaN(), 4, "—"}, {30.25, 4, "30.25"}, {36.1, 4, "36.10"}} {
		if got := Sig(c.x, c.sig); got != c.want {
			t.Errorf("Sig(%g, %d) = %q, want %q", c.x, c.sig, got, c.want)
		}
	}
	for _, c := range []struct {
		d, ci   float64
		wd, wci string
	}{{1.516, 0.01216, "1.516", "0.012"}, {-547512, 1766, "−547500", "1800"}, {0.0784, 0.0824, "0.078", "0.082"}, {-0.4, 0, "−0.400", "0"}, {0, 0, "0", "0"}, {-0.0000003, 0.00011, "0.00000", "0.00011"}} {
		if d, ci := MeanDiff(c.d, c.ci); d != c.wd || ci != c.wci {
			t.Errorf("MeanDiff(%g, %g) = %q, %q; want %q, %q", c.d, c.ci, d, ci, c.wd, c.wci)
		}
	}
	for _, c := range []struct {
		base string
		xs   []float64
		want string
	}{{"s", []float64{0.046, 0.05, 2}, "ms"}, {"s", []float64{77, 0.004, 80}, "s"}, {"s", []float64{2e-5, 3e-5}, "µs"}, {"ns", []float64{110, 7400}, "ns"}, {"%", []float64{30}, "%"}} {
		if u := PickUnit(c.base, c.xs...); u.Name != c.want {
			t.Errorf("PickUnit(%s, %v) = %s, want %s", c.base, c.xs, u.Name, c.want)
		}
	}
}

// TestReading: the sentence under a table says where the first side is
// lower, higher and not separated, by how much, and what the notes say,
// from the cells alone.
func TestReading(t *testing.T) {
	cmp := Comparison{Title: "x", A: "hybrid", B: "edge-first", Unit: "s", Cells: []Cell{
		{Label: "rate = 10", A: 0.0465, B: 0.0449, Diff: 0.0015, CI95: 0.00001, N: 10, Verdict: Fail},
		{Label: "rate = 60", A: 0.0503, B: 0.0502, Diff: 0.00008, CI95: 0.00008, N: 10, Verdict: Inconclusive},
		{Label: "rate = 80", A: 0.0556, B: 0.0686, Diff: -0.013, CI95: 0.001, N: 10, Verdict: Pass},
		{Label: "rate = 200", A: 0.0758, B: 547.6, Diff: -547.5, CI95: 1.8, N: 10, Verdict: Pass, Note: "edge-first unstable"},
	}}
	got := Reading(cmp)
	for _, want := range []string{"hybrid is lower than edge-first at rate = 80 and 200 (by 13 ms–550 s,",
		"higher at rate = 10 (by 1.5 ms, 3.3% relative to edge-first)", "not separated at rate = 60.", "At rate = 200, edge-first unstable."} {
		if !strings.Contains(got, want) {
			t.Errorf("reading %q lacks %q", got, want)
		}
	}
	one := Comparison{A: "hybrid", B: "jsq", Unit: "%", Cells: []Cell{{Label: "bursts", A: 20, B: 30, Diff: -10, CI95: 1, N: 10, Verdict: Pass}}}
	if got := Reading(one); got != "hybrid is lower than jsq (by 10 percentage points)." {
		t.Errorf("one cell: %q", got)
	}
}
