package workload

import (
	"math"
	"math/rand/v2"
)

// Trace is a recorded workload to replay: task n arrives at Arrivals[n]
// (s, non-decreasing) with size Sizes[n]. With Bootstrap, each task's size
// is instead drawn with replacement from Sizes on the size stream, so that
// replicates differ in their sizes too; arrivals are always the trace's.
// Without it, replicates differ only in the delays and the policies' own
// randomness (docs/design.md §5).
type Trace struct {
	Arrivals  []float64
	Sizes     []float64
	Bootstrap bool
}

// arrival is task n's arrival time, +Inf past the last row: the source
// has nothing more to give.
func (t *Trace) arrival(n int) float64 {
	if n < len(t.Arrivals) {
		return t.Arrivals[n]
	}
	return math.Inf(1)
}

// size is task n's size: the row's, or a bootstrap draw.
func (t *Trace) size(n int, r *rand.Rand) float64 {
	if t.Bootstrap {
		return t.Sizes[r.IntN(len(t.Sizes))]
	}
	return t.Sizes[n]
}

// Rate is the trace's mean arrival rate, (N − 1)/(last − first arrival).
func (t *Trace) Rate() float64 {
	n := len(t.Arrivals)
	if n < 2 {
		return 0
	}
	return float64(n-1) / (t.Arrivals[n-1] - t.Arrivals[0])
}

// SizeMoments are the sizes' empirical mean and squared coefficient of
// variation (population variance over the squared mean): those of
// SizeLaw.
func (t *Trace) SizeMoments() (mean, scv float64) {
	d, err := NewEmpirical(t.Sizes)
	if err != nil {
		return 0, 0
	}
	return d.Mean(), d.Cs2()
}

// SizeLaw is the size law the estimators and policies are given for a
// replay: the empirical law of the trace's sizes (NewEmpirical), so that μ
// and C_s² (all the hybrid and model-only estimators read) and the
// quantiles and partial moments the size-interval rules read (sita-e,
// sita-opt) are the trace's own, exactly.
func (t *Trace) SizeLaw() (Dist, error) {
	return NewEmpirical(t.Sizes)
}
