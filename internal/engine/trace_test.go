package engine

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/workload"
)

// readShipped reads testdata/traces/azure-llm-code.csv with a parser of its
// own (the engine may not import internal/trace).
func readShipped(t *testing.T) (arr, sizes []float64) {
	b, err := os.ReadFile("../../testdata/traces/azure-llm-code.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, l := range lines[1:] {
		f := strings.SplitN(l, ",", 3) // arrival_s, size, then the raw columns kept
		if len(f) < 2 {
			t.Fatalf("bad row %q", l)
		}
		x, err1 := strconv.ParseFloat(f[0], 64)
		y, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", l)
		}
		arr, sizes = append(arr, x), append(sizes, y)
	}
	return arr, sizes
}

// TestReplayIsLindley: replaying a trace on one FCFS server gives, task by
// task, the waits of the Lindley recursion W₁ = 0,
// W_{n+1} = max(0, W_n + S_n − A_{n+1}) over the same rows (S_n the
// service time, A_{n+1} the inter-arrival time), written here
// independently of the engine and its fcfs package.
func TestReplayIsLindley(t *testing.T) {
	arr, sizes := readShipped(t)
	if len(arr) != 8819 {
		t.Fatalf("%d rows, want 8819", len(arr))
	}
	tr := &workload.Trace{Arrivals: arr, Sizes: sizes}
	law, err := tr.SizeLaw()
	if err != nil {
		t.Fatal(err)
	}
	const speed = 6000.0 // tokens/s: ρ ≈ 0.89 at the trace's own rate
	cfg := &Config{
		Tiers:    []TierConfig{tier("one", 0, 1, speed, law, workload.Dist{})},
		Arrivals: workload.Schedule{Rate: tr.Rate()},
		Size:     law, Trace: tr, Tasks: len(arr),
	}
	waits := make([]float64, len(arr))
	seen := 0
	cfg.OnTask = func(r *TaskRecord) {
		if r.Arrival != arr[r.ID] || r.Size != sizes[r.ID] {
			t.Fatalf("task %d: arrival %v size %v, trace row %v %v", r.ID, r.Arrival, r.Size, arr[r.ID], sizes[r.ID])
		}
		waits[r.ID] = r.Wait
		seen++
	}
	if _, err := Run(cfg, always(0), workload.NewStreams(1, 0)); err != nil {
		t.Fatal(err)
	}
	if seen != len(arr) {
		t.Fatalf("%d tasks, want %d", seen, len(arr))
	}
	w, maxW := 0.0, 0.0
	for n := range arr {
		if n > 0 {
			w = math.Max(0, w+sizes[n-1]/speed-(arr[n]-arr[n-1]))
		}
		maxW = math.Max(maxW, w)
		// Equal up to rounding: the engine sums the same terms in another
		// order (departure times), so the last bits may differ.
		if d := math.Abs(waits[n] - w); d > 1e-12*math.Max(1, w) {
			t.Fatalf("task %d: engine wait %v, Lindley %v", n, waits[n], w)
		}
	}
	if maxW < 1 {
		t.Errorf("largest wait %v s: the test should load the server", maxW)
	}
}

// TestBootstrapKeepsArrivals: with Bootstrap the arrivals are the trace's
// and every size is one of its sizes, and two replicates differ in sizes.
func TestBootstrapKeepsArrivals(t *testing.T) {
	tr := &workload.Trace{Arrivals: []float64{0, 1, 2, 3, 4, 5}, Sizes: []float64{1, 2, 3, 4, 5, 6}, Bootstrap: true}
	draw := func(rep int) (sizes []float64) {
		src := workload.NewSource(workload.Spec{Trace: tr, Delays: []workload.Dist{{}}}, workload.NewStreams(3, rep), nil)
		for n := range 6 {
			var task workload.Task
			src.Next(&task)
			if task.Arrival != float64(n) || task.Size < 1 || task.Size > 6 || task.Size != math.Trunc(task.Size) {
				t.Fatalf("task %d: %+v", n, task)
			}
			sizes = append(sizes, task.Size)
		}
		if !math.IsInf(src.Peek(), 1) {
			t.Errorf("after the last row Peek = %v, want +Inf", src.Peek())
		}
		return sizes
	}
	a, b := draw(0), draw(1)
	if fmtFloats(a) == fmtFloats(b) {
		t.Errorf("replicates 0 and 1 drew the same sizes %v", a)
	}
}

func fmtFloats(x []float64) string {
	var b strings.Builder
	for _, v := range x {
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + " ")
	}
	return b.String()
}
