package experiment

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
)

// TestWarmupAuto: under warmup: auto every run carries its own warm-up,
// at most half its tasks, and is the run a fixed warm-up of that length
// gives over the same tasks (the second pass measures exactly the tasks
// after it); the runs do not depend on the workers.
func TestWarmupAuto(t *testing.T) {
	const tasks = 4000
	sc := defaultAt(t, 150, tasks, 3, "warmup=auto", "policies=[jsq, hybrid]")
	runs := execute(t, sc, 1)
	if again := execute(t, sc, 3); fmt.Sprint(runs) != fmt.Sprint(again) {
		t.Fatal("warmup: auto: the runs depend on the workers")
	}
	cols := runs[0].Cols
	w := results.Index(cols, results.ColWarmupTasks)
	if w < 0 {
		t.Fatalf("warmup: auto: no %s column in %v", results.ColWarmupTasks, results.Names(cols))
	}
	for _, r := range runs {
		d := int(r.Values[w])
		if d < 0 || d > tasks/2 || d%5 != 0 {
			t.Fatalf("%s seed %d: warmup_tasks %d, want a multiple of 5 in [0, %d]", r.Policy, r.Seed, d, tasks/2)
		}
		if got := int(r.Get(results.ColTasks)); got > tasks-d {
			t.Errorf("%s seed %d: %d measured tasks after a warm-up of %d of %d", r.Policy, r.Seed, got, d, tasks)
		}
		fixed := defaultAt(t, 150, tasks-d, 3, "warmup="+strconv.Itoa(d), "policies=[jsq, hybrid]")
		for _, f := range execute(t, fixed, 1) {
			if f.Policy != r.Policy || f.Seed != r.Seed {
				continue
			}
			for i, c := range f.Cols {
				if got := r.Get(c.Name); got != f.Values[i] && !(math.IsNaN(got) && math.IsNaN(f.Values[i])) {
					t.Errorf("%s seed %d: %s %v under auto (warm-up %d), %v with warmup %d", r.Policy, r.Seed, c.Name, got, d, f.Values[i], d)
				}
			}
		}
	}
}

// TestWarmupBatchesBounded: past the cap the batches double rather than
// grow in number, and MSER-5 still finds a transient at the start.
func TestWarmupBatchesBounded(t *testing.T) {
	b := &warmupBatches{size: 1}
	const n, transient = 10 * warmupBatchCap, 3000
	for id := range n {
		lat := 1.0 + float64(id%7)/7
		if id < transient {
			lat += 10
		}
		b.add(&engine.TaskRecord{ID: id, Latency: lat})
	}
	if len(b.sum) > warmupBatchCap || b.size != 16 {
		t.Fatalf("%d batches of %d tasks, want at most %d batches of 16", len(b.sum), b.size, warmupBatchCap)
	}
	if d := b.warmup(); d < transient || d > transient+5*b.size {
		t.Errorf("warm-up %d, want in [%d, %d]", d, transient, transient+5*b.size)
	}
}
