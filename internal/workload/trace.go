package workload

import (
	"math"
	"math/rand/v2"
	"slices"
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
// variation (population variance over the squared mean).
func (t *Trace) SizeMoments() (mean, scv float64) {
	if len(t.Sizes) == 0 {
		return 0, 0
	}
	for _, s := range t.Sizes {
		mean += s
	}
	mean /= float64(len(t.Sizes))
	var v float64
	for _, s := range t.Sizes {
		v += (s - mean) * (s - mean)
	}
	v /= float64(len(t.Sizes))
	return mean, v / (mean * mean)
}

// SizeLaw is the size law the estimators and policies are given for a
// replay: the lognormal with the trace's empirical mean and SCV, so that μ
// and C_s² (all the hybrid and model-only estimators read) are the trace's
// exactly; the quantile and partial-moment rules (sita-e, sita-opt) get
// that moment-matched lognormal's, an approximation of the empirical ones.
func (t *Trace) SizeLaw() (Dist, error) {
	m, scv := t.SizeMoments()
	return LognormalDelay(m, math.Sqrt(scv))
}

// SizeQuantile is the empirical p-quantile of the sizes (the smallest size
// with at least a share p of the sizes at or below it): the threshold of a
// "large" task in a replay.
func (t *Trace) SizeQuantile(p float64) float64 {
	s := slices.Clone(t.Sizes)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
