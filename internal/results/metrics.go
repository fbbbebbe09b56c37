package results

import "math"

// Fixed lists the numeric runs.csv columns that every scenario has, in file
// order: the columns after seed and before the per-tier share_ and util_
// columns. Units are in the names (s, ns); mape is in percent.
var Fixed = []string{
	"tasks", "mean_latency_s", "p50_latency_s", "p95_latency_s", "p99_latency_s",
	"max_latency_s", "mean_wait_s", "mean_large_s", "p95_large_s", "mape", "decision_ns",
}

// Columns returns the names of every numeric runs.csv column after seed, in
// file order, for the given tiers. Index i of the result names index i of
// Metrics.Vector, so a column can be looked up by name without a switch.
func Columns(tiers []string) []string {
	cols := append([]string(nil), Fixed...)
	for _, t := range tiers {
		cols = append(cols, "share_"+t)
	}
	for _, t := range tiers {
		cols = append(cols, "util_"+t)
	}
	return cols
}

// Metrics holds one value per numeric runs.csv column after seed. It is used
// for the means and for the CI half-widths of a Summary; NaN means the value
// is missing (an empty cell).
type Metrics struct {
	Tasks       float64 // measured tasks (a mean, hence a float)
	MeanLatency float64 // s
	P50Latency  float64 // s
	P95Latency  float64 // s
	P99Latency  float64 // s
	MaxLatency  float64 // s
	MeanWait    float64 // s
	MeanLarge   float64 // s
	P95Large    float64 // s
	MAPE        float64 // percent
	DecisionNs  float64 // ns
	Share       []float64
	Util        []float64
}

// Vector returns the metrics in Columns order (Share and Util as stored).
func (m Metrics) Vector() []float64 {
	v := []float64{m.Tasks, m.MeanLatency, m.P50Latency, m.P95Latency, m.P99Latency,
		m.MaxLatency, m.MeanWait, m.MeanLarge, m.P95Large, m.MAPE, m.DecisionNs}
	v = append(v, m.Share...)
	return append(v, m.Util...)
}

// Column returns the value of the named column (a Columns name for these
// tiers) and whether the name is known.
func (m Metrics) Column(tiers []string, name string) (float64, bool) {
	if len(m.Share) != len(tiers) || len(m.Util) != len(tiers) {
		// Without matching tiers a share_/util_ name cannot be placed; the
		// fixed columns are still found.
		tiers = tiers[:0:0]
	}
	v := m.Vector()
	for i, c := range Columns(tiers) {
		if c == name {
			return v[i], true
		}
	}
	return math.NaN(), false
}

// metricsFromVector is the inverse of Vector for ntiers tiers.
func metricsFromVector(v []float64, ntiers int) Metrics {
	f := len(Fixed)
	return Metrics{
		Tasks: v[0], MeanLatency: v[1], P50Latency: v[2], P95Latency: v[3],
		P99Latency: v[4], MaxLatency: v[5], MeanWait: v[6], MeanLarge: v[7],
		P95Large: v[8], MAPE: v[9], DecisionNs: v[10],
		Share: append([]float64(nil), v[f:f+ntiers]...),
		Util:  append([]float64(nil), v[f+ntiers:f+2*ntiers]...),
	}
}

// Metrics returns the run's numeric columns after seed. Share and Util are
// padded with NaN to ntiers so that runs with a shorter slice (a tier never
// used, a metric not recorded) line up with the others.
func (r Run) Metrics(ntiers int) Metrics {
	return Metrics{
		Tasks: float64(r.Tasks), MeanLatency: r.MeanLatency, P50Latency: r.P50Latency,
		P95Latency: r.P95Latency, P99Latency: r.P99Latency, MaxLatency: r.MaxLatency,
		MeanWait: r.MeanWait, MeanLarge: r.MeanLarge, P95Large: r.P95Large,
		MAPE: r.MAPE, DecisionNs: r.DecisionNs,
		Share: padNaN(r.Share, ntiers), Util: padNaN(r.Util, ntiers),
	}
}

func padNaN(xs []float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
		if i < len(xs) {
			out[i] = xs[i]
		}
	}
	return out
}

// NaNs returns n missing values: the starting point of a per-tier or
// per-replicate slice whose gaps must read as missing, not as zero.
func NaNs(n int) []float64 { return padNaN(nil, n) }
