// Package results holds the per-run metrics of DESIGN §5 (one runs.csv row)
// and their aggregation across replicates (one summary.csv row). It is shared
// by the experiment runner, which fills it, and the report, which writes it.
package results

// Run is one (cell, policy, replicate) run. A metric that does not apply is
// NaN here and an empty cell in the CSV.
type Run struct {
	Experiment string
	Param      string  // swept parameter path, "" without a sweep
	Value      float64 // swept value, NaN without a sweep
	Policy     string
	Seed       int // replicate number, 0-based

	Tasks       int     // measured tasks
	MeanLatency float64 // s
	P50Latency  float64 // s
	P95Latency  float64 // s
	P99Latency  float64 // s
	MaxLatency  float64 // s
	MeanWait    float64 // s, time in the tier's queue
	MeanLarge   float64 // s, mean latency of large tasks (NaN if none)
	P95Large    float64 // s, P95 latency of large tasks (NaN if none)
	MAPE        float64 // percent; NaN for policies without an estimator
	DecisionNs  float64 // mean wall-clock ns per decision; NaN unless timed

	Share []float64 // fraction of measured tasks sent to each tier, tier order
	Util  []float64 // offered load of each tier: work sent per second / (c·s)
}
