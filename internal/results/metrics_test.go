package results

import (
	"math"
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/quantile"
)

func TestMillis(t *testing.T) {
	for x, want := range map[float64]string{
		0.1: "100", 0.05: "50", 0.0025: "2.5", 0.007: "7", 1: "1000", 2.5: "2500", 1e-7: "0.0001", 123.456789: "123456.789", 1e6: "1000000000",
	} {
		if got := Millis(x); got != want {
			t.Errorf("Millis(%v) = %q, want %q", x, got, want)
		}
	}
	if SLOMissCol(0.1) != "slo_miss_100ms" || SLOMissLargeCol(0.0025) != "slo_miss_large_2.5ms" {
		t.Errorf("column names %s, %s", SLOMissCol(0.1), SLOMissLargeCol(0.0025))
	}
}

// The SLO share counts latencies strictly above the threshold; none
// measured is a missing value.
func TestSLOMissShare(t *testing.T) {
	cols := RunColumns(Layout{Tiers: []string{"a", "b"}, SLO: []float64{0.1, 0.3}, Breakdown: true})
	names := Names(cols)
	wantTail := []string{"util_a", "util_b", "slo_miss_100ms", "slo_miss_large_100ms", "slo_miss_300ms", "slo_miss_large_300ms",
		"mean_latency_a", "mean_latency_b", "mean_wait_a", "mean_wait_b"}
	if !slices.Equal(names[len(names)-len(wantTail):], wantTail) {
		t.Fatalf("columns end %v, want %v", names[len(names)-len(wantTail):], wantTail)
	}
	m := &Measured{Tasks: 5, Latencies: quantile.Of([]float64{0.3, 0.05, 0.1, 0.2, 0.4}), LargeLatencies: nil, Span: 1,
		TierCount: []int{5, 0}, TierWork: []float64{1, 0}, TierCapacity: []float64{1, 1},
		TierSumLatency: []float64{1.05, 0}, TierSumWait: []float64{0.5, 0}}
	row := Row(cols, m)
	get := func(name string) float64 { return row[Index(cols, name)] }
	if got := get("slo_miss_100ms"); got != 3.0/5 { // 0.2, 0.3, 0.4; 0.1 itself is on time
		t.Errorf("slo_miss_100ms = %v, want 0.6", got)
	}
	if got := get("slo_miss_300ms"); got != 1.0/5 {
		t.Errorf("slo_miss_300ms = %v, want 0.2", got)
	}
	if got := get("slo_miss_large_100ms"); !math.IsNaN(got) {
		t.Errorf("slo_miss_large_100ms without large tasks = %v, want missing", got)
	}
	if got := get("mean_latency_a"); math.Abs(got-0.21) > 1e-15 || get("mean_wait_a") != 0.1 {
		t.Errorf("tier a: mean latency %v, wait %v; want 0.21, 0.1", got, get("mean_wait_a"))
	}
	if !math.IsNaN(get("mean_latency_b")) || !math.IsNaN(get("mean_wait_b")) {
		t.Errorf("tier b ran nothing: %v, %v, want missing", get("mean_latency_b"), get("mean_wait_b"))
	}
}

// The quantiles_sketched column is there only when the layout asks, and
// reads 1 exactly when a sample went past its exact limit.
func TestSketchedColumn(t *testing.T) {
	if Index(RunColumns(Layout{Tiers: []string{"a"}}), ColSketched) >= 0 {
		t.Fatal("quantiles_sketched without Layout.Sketch")
	}
	cols := RunColumns(Layout{Tiers: []string{"a"}, Sketch: true})
	i := Index(cols, ColSketched)
	if i < 0 {
		t.Fatal("no quantiles_sketched with Layout.Sketch")
	}
	sk := quantile.New(2, 0)
	for _, x := range []float64{1, 2, 3} {
		sk.Add(x)
	}
	for _, c := range []struct {
		name string
		lat  *quantile.Sample
		want float64
	}{{"exact", quantile.Of([]float64{1, 2, 3}), 0}, {"sketched", sk, 1}} {
		m := &Measured{Tasks: 3, Latencies: c.lat, TierCount: []int{3}, TierWork: []float64{1}, TierCapacity: []float64{1}}
		if got := Row(cols, m)[i]; got != c.want {
			t.Errorf("%s: quantiles_sketched %v, want %v", c.name, got, c.want)
		}
	}
}
