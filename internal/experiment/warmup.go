package experiment

import (
	"context"
	"math"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/stats"
	"github.com/offload-sim/offload/internal/workload"
)

// warmupBatchCap bounds the batch means a run under warmup: auto keeps of
// its output: up to 5·2¹⁴ tasks MSER-5 sees every task's latency in
// batches of five; past that the kept means pair up and the batches
// double, so that the memory is fixed at any run length and the rule
// looks at no fewer than 2¹³ batches.
const warmupBatchCap = 1 << 14

// runJob runs one job; under warmup: auto, twice. The first run, with no
// warm-up and nothing recorded but the latencies' batch means in arrival
// order, gives MSER-5 the series it truncates; the second, on the same
// streams and so the same tasks, measures only the tasks after the chosen
// warm-up. Its tasks are the scenario's tasks: the warm-up is taken from
// them, at most half.
func (p *Plan) runJob(ctx context.Context, j Job, opt Options, tapes []*workload.Tape) (Outcome, error) {
	if !p.Cells[j.Cell].Scenario.Warmup.Auto() {
		return p.runOnce(ctx, j, opt, tapes, 0, nil)
	}
	bare := *p // the first pass: no shadows, series, timing, trace or program log
	bare.Shadows, bare.SeriesWidth, bare.TimeDecisions = nil, 0, false
	b := &warmupBatches{size: 1}
	if _, err := bare.runOnce(ctx, j, Options{}, nil, 0, b.add); err != nil {
		return Outcome{}, err
	}
	return p.runOnce(ctx, j, opt, tapes, b.warmup(), nil)
}

// warmupBatches are the sums and counts of latencies in consecutive
// batches of size tasks by arrival index.
type warmupBatches struct {
	size  int
	sum   []float64
	count []int
}

// add records a task's latency (a lost or timed-out task has none).
func (b *warmupBatches) add(r *engine.TaskRecord) {
	if math.IsNaN(r.Latency) || math.IsInf(r.Latency, 0) {
		return
	}
	for r.ID >= warmupBatchCap*b.size {
		b.halve()
	}
	i := r.ID / b.size
	for len(b.sum) <= i {
		b.sum, b.count = append(b.sum, 0), append(b.count, 0)
	}
	b.sum[i] += r.Latency
	b.count[i]++
}

// halve pairs the batches up: twice the size, half as many.
func (b *warmupBatches) halve() {
	n := (len(b.sum) + 1) / 2
	for i := range n {
		s, c := b.sum[2*i], b.count[2*i]
		if 2*i+1 < len(b.sum) {
			s, c = s+b.sum[2*i+1], c+b.count[2*i+1]
		}
		b.sum[i], b.count[i] = s, c
	}
	b.sum, b.count = b.sum[:n], b.count[:n]
	b.size *= 2
}

// warmup is MSER-5's truncation of the batch means, in tasks: batches of
// 5·size tasks (a batch that saw no latency repeats the mean before it).
func (b *warmupBatches) warmup() int {
	z := make([]float64, len(b.sum))
	prev := 0.0
	for i := range z {
		if b.count[i] > 0 {
			prev = b.sum[i] / float64(b.count[i])
		}
		z[i] = prev
	}
	return stats.MSER5(z).Discard * b.size
}
