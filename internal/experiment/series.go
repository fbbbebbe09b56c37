package experiment

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
)

// taskPoint is what a series keeps of a task.
type taskPoint struct {
	arrival, latency float64
	tier             int32
}

// collector gathers the task points of one run.
type collector struct{ pts []taskPoint }

func (c *collector) add(r *engine.TaskRecord) {
	c.pts = append(c.pts, taskPoint{r.Arrival, r.Latency, int32(r.Tier)})
}

// windows bins the points into windows of the given width over [0, end) and
// attaches the probe's samples.
func (c *collector) windows(width, end float64, ntiers int, sample []float64) []results.Window {
	n := int(math.Ceil(end/width - 1e-9))
	ws := make([]results.Window, n)
	bins := make([][]float64, n)
	counts := make([][]int, n)
	for i := range ws {
		ws[i].Start = float64(i) * width
		counts[i] = make([]int, ntiers)
	}
	for _, p := range c.pts {
		i := int(p.arrival / width)
		if i >= n {
			continue
		}
		bins[i] = append(bins[i], p.latency)
		counts[i][p.tier]++
	}
	for i := range ws {
		w := &ws[i]
		w.Tasks = len(bins[i])
		w.MeanLatency, w.P95Latency = math.NaN(), math.NaN()
		w.Share = results.NaNs(ntiers) // an empty window has no shares, not zero ones
		if w.Tasks > 0 {
			slices.Sort(bins[i])
			w.MeanLatency = stat.Mean(bins[i], nil)
			w.P95Latency = stat.Quantile(0.95, stat.Empirical, bins[i], nil)
			for t := range ntiers {
				w.Share[t] = float64(counts[i][t]) / float64(w.Tasks)
			}
		}
		w.Lambda, w.Beta, w.Rho = results.NaNs(ntiers), results.NaNs(ntiers), results.NaNs(ntiers)
		if k := 3 * ntiers * (i + 1); k <= len(sample) {
			s := sample[3*ntiers*i : k]
			for t := range ntiers {
				w.Lambda[t], w.Beta[t], w.Rho[t] = s[3*t], s[3*t+1], s[3*t+2]
			}
		}
	}
	return ws
}
