package experiment

import (
	"cmp"
	"math"
	"slices"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/stats"
)

// latencies are a run's measured latencies with their arrival index, for
// its batch means (--batches): 16 bytes a measured task, which is why
// only a run under --batches keeps them.
type latencies struct {
	obs []idLatency
}

type idLatency struct {
	id      int
	latency float64
}

// add records a measured task's latency (a lost or timed-out task has
// none).
func (l *latencies) add(r *engine.TaskRecord) {
	if r.Measured && !math.IsNaN(r.Latency) && !math.IsInf(r.Latency, 0) {
		l.obs = append(l.obs, idLatency{r.ID, r.Latency})
	}
}

// batches returns the half-width of the 95% interval of the mean latency
// from k batch means of consecutive tasks in arrival order (tasks finish
// out of order), their lag-1 autocorrelation, and 1 when the von Neumann
// test finds them correlated, else 0: stats.BatchMeans. NaN for all three
// when the run measured fewer than k tasks.
func (l *latencies) batches(k int) (ci95, lag1, correlated float64) {
	slices.SortFunc(l.obs, func(a, b idLatency) int { return cmp.Compare(a.id, b.id) })
	y := make([]float64, len(l.obs))
	for i, o := range l.obs {
		y[i] = o.latency
	}
	b, err := stats.BatchMeans(y, k)
	if err != nil {
		return math.NaN(), math.NaN(), math.NaN()
	}
	correlated = 0
	if b.Correlated {
		correlated = 1
	}
	return b.Half, b.Lag1, correlated
}
