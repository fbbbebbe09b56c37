package experiment

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
)

// The SLO and per-tier columns of every run against the same run's trace:
// the share of measured tasks (and of large ones) over each threshold, and
// each tier's mean latency and wait, counted from the OnTask records.
// Random sends a few tasks to every tier; an empty tier's cells must be
// missing (edge-first leaves local and cloud empty).
func TestSLOAndBreakdownAgainstTrace(t *testing.T) {
	sc := defaultAt(t, 60, 3000, 2, "slo={latency: [0.05, 0.1, 0.0025]}", "breakdown=true", "policies=[random, edge-first, sita-e]")
	plan, err := NewPlan("test", sc)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Config(sc)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	traces := map[Job][]engine.TaskRecord{}
	outs, err := plan.Execute(context.Background(), Options{Workers: 2, Trace: func(j Job) (func(*engine.TaskRecord), func(error) error, error) {
		var recs []engine.TaskRecord
		return func(r *engine.TaskRecord) {
				if r.Measured {
					recs = append(recs, *r)
				}
			}, func(error) error {
				mu.Lock()
				traces[j] = recs
				mu.Unlock()
				return nil
			}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	tiers := plan.Tiers()
	for i, j := range plan.Jobs() {
		run, recs := outs[i].Run, traces[j]
		if len(recs) != 3000 {
			t.Fatalf("%+v: %d measured records", j, len(recs))
		}
		for _, x := range sc.SLO.Latency {
			var over, large, largeOver int
			for _, r := range recs {
				if r.Latency > x {
					over++
				}
				if r.Size > cfg.Large {
					large++
					if r.Latency > x {
						largeOver++
					}
				}
			}
			check(t, j, results.SLOMissCol(x), run.Get(results.SLOMissCol(x)), float64(over)/float64(len(recs)))
			check(t, j, results.SLOMissLargeCol(x), run.Get(results.SLOMissLargeCol(x)), float64(largeOver)/float64(large))
		}
		for k, name := range tiers {
			var n int
			var lat, wait float64
			for _, r := range recs {
				if r.Tier == k {
					n++
					lat += r.Latency
					wait += r.Wait
				}
			}
			wantLat, wantWait := math.NaN(), math.NaN()
			if n > 0 {
				wantLat, wantWait = lat/float64(n), wait/float64(n)
			}
			check(t, j, results.TierLatencyCol(name), run.Get(results.TierLatencyCol(name)), wantLat)
			check(t, j, results.TierWaitCol(name), run.Get(results.TierWaitCol(name)), wantWait)
		}
	}
}

func check(t *testing.T, j Job, col string, got, want float64) {
	t.Helper()
	if math.IsNaN(want) != math.IsNaN(got) || math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s replicate %d: %s = %v, the trace gives %v", j.Policy, j.Seed, col, got, want)
	}
}

// Without slo and breakdown the columns are those every runs.csv had.
func TestLayoutWithoutSLO(t *testing.T) {
	plan, err := NewPlan("test", defaultAt(t, 60, 100, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := results.Names(results.RunColumns(results.Layout{Tiers: plan.Tiers()}))
	got := results.Names(plan.Columns())
	if !slices.Equal(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
}
