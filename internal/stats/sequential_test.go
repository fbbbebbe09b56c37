package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func TestNewRuleRejects(t *testing.T) {
	for _, c := range []struct {
		target      float64
		seeds, cap  int
		on          Statistic
		errContains string
	}{
		{0, 5, 100, Mean, "--precision 0:"},
		{-0.01, 5, 100, Mean, "--precision -0.01:"},
		{1, 5, 100, Mean, "--precision 1:"},
		{1.5, 5, 100, Mean, "--precision 1.5:"},
		{math.NaN(), 5, 100, Mean, "--precision NaN:"},
		{math.Inf(1), 5, 100, Mean, "--precision +Inf:"},
		{0.01, 5, 1, Mean, "--max-seeds 1:"},
		{0.01, 5, -3, Mean, "--max-seeds -3:"},
		{0.01, 0, 100, Mean, "--seeds 0:"},
		{0.01, 5, 100, Statistic(7), "statistic 7:"},
	} {
		_, err := NewRule(c.target, c.seeds, c.cap, c.on)
		if err == nil || !strings.Contains(err.Error(), c.errContains) {
			t.Errorf("NewRule(%v, %d, %d, %d): error %v, want one containing %q", c.target, c.seeds, c.cap, c.on, err, c.errContains)
		}
	}
}

// TestNewRuleMinimum: the first test waits for max(seeds, 10) replicates,
// or the cap if it is lower.
func TestNewRuleMinimum(t *testing.T) {
	for _, c := range []struct{ seeds, cap, want int }{{5, 1000, 10}, {1, 2, 2}, {20, 1000, 20}, {20, 15, 15}, {10, 10, 10}} {
		r, err := NewRule(0.01, c.seeds, c.cap, Mean)
		if err != nil {
			t.Fatal(err)
		}
		if r.Min != c.want || r.Max != c.cap || r.Target != 0.01 {
			t.Errorf("seeds %d, cap %d: %+v, want Min %d", c.seeds, c.cap, r, c.want)
		}
	}
}

func mustRule(t *testing.T, target float64, seeds, cap int, on Statistic) Rule {
	t.Helper()
	r, err := NewRule(target, seeds, cap, on)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// normals returns n values of a normal law of the given mean and standard
// deviation from stream (study, run).
func normals(study, run, n int, mean, sd float64) []float64 {
	r := rng(study, run, 0)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mean + sd*r.NormFloat64()
	}
	return xs
}

func TestDecideWaitsForTheMinimum(t *testing.T) {
	r := mustRule(t, 0.05, 12, 1000, Mean)
	vals := [][]float64{{10, 10.01, 9.99, 10, 10.02}}
	d := r.Decide(vals)
	if d.Stop || d.Next != 12 || !d.Met {
		t.Errorf("5 precise replicates before a minimum of 12: %+v, want no stop, Next 12 (met, but untested)", d)
	}
	if d := r.Decide([][]float64{{}}); d.Stop || d.Next != 12 {
		t.Errorf("no replicate: %+v, want Next 12", d)
	}
}

// TestDecideNeedsEveryPolicy: one stopping point per cell, so a precise
// policy waits for an imprecise one.
func TestDecideNeedsEveryPolicy(t *testing.T) {
	r := mustRule(t, 0.02, 10, 10000, Mean)
	precise := normals(1, 0, 20, 100, 1)    // relative half-width ≈ 2.09·1/√20/100 ≈ 0.005
	imprecise := normals(1, 1, 20, 100, 20) // ≈ 0.09
	d := r.Decide([][]float64{precise, imprecise})
	if d.Stop || d.Met || d.Worst != 1 || !(d.Precision[0] <= 0.02) || !(d.Precision[1] > 0.02) || d.Next <= 20 {
		t.Errorf("one precise, one not: %+v, want no stop, Worst 1, Next above 20", d)
	}
	for p, xs := range [][]float64{precise, imprecise} {
		if want := MeanCI(xs).Relative(); d.Precision[p] != want {
			t.Errorf("policy %d: precision %v, want MeanCI's %v", p, d.Precision[p], want)
		}
	}
	both := r.Decide([][]float64{precise, precise})
	if !both.Stop || !both.Met || both.Capped || both.Next != 20 {
		t.Errorf("both precise: %+v, want Stop and Met at 20", both)
	}
}

func TestDecideCapped(t *testing.T) {
	r := mustRule(t, 0.001, 5, 30, Mean)
	xs := normals(2, 0, 30, 10, 5)
	d := r.Decide([][]float64{xs})
	if !d.Stop || !d.Capped || d.Met || d.Next != 30 {
		t.Errorf("imprecise at the cap: %+v, want Stop, Capped, Next 30", d)
	}
	if d := r.Decide([][]float64{xs[:25]}); d.Stop || d.Next != 30 {
		t.Errorf("imprecise below the cap: %+v, want Next capped at 30", d)
	}
}

// TestDecideWithoutAPrecision: a policy whose precision cannot be computed
// (no finite value, or a mean of 0) is the worst, is never met, and
// doubles the replicates up to the cap.
func TestDecideWithoutAPrecision(t *testing.T) {
	r := mustRule(t, 0.05, 10, 50, Mean)
	nan := make([]float64, 10)
	for i := range nan {
		nan[i] = math.NaN()
	}
	zeroMean := []float64{-1, 1, -1, 1, -1, 1, -1, 1, -1, 1}
	for name, xs := range map[string][]float64{"all NaN": nan, "mean 0": zeroMean} {
		d := r.Decide([][]float64{normals(3, 0, 10, 10, 0.01), xs})
		if d.Stop || d.Met || d.Worst != 1 || d.Next != 20 {
			t.Errorf("%s: %+v, want no stop, Worst 1, Next 20", name, d)
		}
	}
	d := r.Decide([][]float64{normals(3, 0, 40, 10, 0.01), make([]float64, 40)}) // all 0: precise
	if !d.Met {
		t.Errorf("a policy at 0 in every replicate: %+v, want met (no spread)", d)
	}
}

func TestDecidePanicsOnUnpairedPolicies(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("policies with 10 and 9 replicates: no panic")
		}
	}()
	mustRule(t, 0.05, 10, 50, Mean).Decide([][]float64{make([]float64, 10), make([]float64, 9)})
}

// lawKeltonNext is n*(R) = min{i > n : t_{i−1}·s/√i ≤ R·|x̄|} from its
// definition, by brute force from i = n + 1.
func lawKeltonNext(xs []float64, R float64, cap int) int {
	m, s := stat.MeanStdDev(xs, nil)
	for i := len(xs) + 1; ; i++ {
		if i >= cap || TQuantile(i-1)*s/math.Sqrt(float64(i)) <= R*math.Abs(m) {
			return min(i, cap)
		}
	}
}

// TestNextIsLawKeltonsProjection: after a failed test the mean rule asks
// for Law & Kelton's approximate number of replicates n*(R), here computed
// by brute force, over many samples and targets.
func TestNextIsLawKeltonsProjection(t *testing.T) {
	study(t)
	capped := 0
	for run := range 60 {
		n := 10 + run%40
		R := []float64{0.005, 0.01, 0.05, 0.1, 0.15}[run%5]
		xs := normals(4, run, n, 10, 0.5+float64(run%7))
		r := mustRule(t, R, 10, 600, Mean)
		d := r.Decide([][]float64{xs})
		if d.Stop {
			continue
		}
		if want := lawKeltonNext(xs, R, r.Max); d.Next != want || d.Next <= n {
			t.Errorf("run %d (n %d, R %v): Next %d, want n*(R) = %d", run, n, R, d.Next, want)
		}
		if d.Next == r.Max {
			capped++
		}
	}
	if capped == 0 || capped == 60 {
		t.Errorf("%d of 60 projections reached the cap: the cases test one branch only", capped)
	}
}

// TestNextForTheMedian: the median rule projects ⌈n·(h/(R·m))²⌉.
func TestNextForTheMedian(t *testing.T) {
	xs := normals(5, 0, 25, 10, 3)
	r := mustRule(t, 0.02, 10, 100000, Median)
	d := r.Decide([][]float64{xs})
	rel := MedianCI(xs).Relative()
	if want := int(math.Ceil(25 * (rel / 0.02) * (rel / 0.02))); d.Stop || d.Next != want || d.Precision[0] != rel {
		t.Errorf("median rule: %+v, want Next %d from a relative half-width %v", d, want, rel)
	}
}

// TestScheduleLandsNearTheNeed: on normal replicates of mean 10 and sd 2 at
// R = 1%, a fixed-n interval needs about (1.96·0.2/0.01)² ≈ 1537
// replicates. The projected schedule gets there in a few looks; it stops
// at or after the need, never long after: its first projection uses the
// variance of 10 values, which is as likely above as below the truth, and
// a projection that falls short is followed by a short step. Over 200 runs
// the mean stopping point must be within 0.9 to 1.3 times the need and the
// mean number of looks at most 4.
func TestScheduleLandsNearTheNeed(t *testing.T) {
	r := mustRule(t, 0.01, 5, 100000, Mean)
	need := math.Pow(1.959963984540054*0.2/0.01, 2)
	c := StudyCoverage(r, 200, 10, func(run, rep int) float64 {
		return 10 + 2*rng(6, run, rep).NormFloat64()
	})
	t.Logf("need %.0f; stopped at %.0f on average (%d to %d), %.2f looks, coverage %d/%d", need, c.MeanReplicates, c.MinReplicates, c.MaxReplicates, c.MeanLooks, c.Covered, c.Runs)
	if c.Met != c.Runs {
		t.Errorf("%d of %d runs met the target below a cap of 100,000", c.Met, c.Runs)
	}
	if ratio := c.MeanReplicates / need; ratio < 0.9 || ratio > 1.3 {
		t.Errorf("mean stopping point %.0f is %.2f times the need %.0f, want 0.9 to 1.3", c.MeanReplicates, ratio, need)
	}
	if c.MeanLooks > 4 {
		t.Errorf("%.2f looks per run, want at most 4", c.MeanLooks)
	}
}

func ExampleRule_Decide() {
	rule, err := NewRule(0.05, 5, 200, Mean) // ±5%, --seeds 5, --max-seeds 200
	if err != nil {
		panic(err)
	}
	// Two policies' mean latencies over the same ten replicates.
	a := []float64{1.02, 0.97, 1.10, 0.91, 1.05, 0.99, 1.21, 0.88, 1.03, 0.95}
	b := []float64{2.4, 1.6, 2.9, 1.8, 2.2, 2.0, 3.1, 1.5, 2.6, 1.9}
	d := rule.Decide([][]float64{a, b})
	fmt.Printf("precision %.3f and %.3f: stop %v, next %d\n", d.Precision[0], d.Precision[1], d.Stop, d.Next)
	// Output: precision 0.068 and 0.176: stop false, next 96
}
