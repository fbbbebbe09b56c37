package engine

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// TierResult is what one tier saw during the measured window.
type TierResult struct {
	// Copies is how many physical tiers this scenario tier is: 1, or the
	// device count for a local tier (each device has its own).
	Copies int
	Count  int     // measured tasks sent to the tier
	Work   float64 // sum of their sizes, work units
	// Little's law check: AreaN is ∫ n(t) dt over the measured window (n =
	// tasks waiting or in service); Reached and SumSojourn count the tasks that
	// reached the tier in the window and their time in it (wait + service).
	AreaN      float64
	Reached    int
	SumSojourn float64
	// SumLatency and SumWait add up the latency and the queueing wait of the
	// measured tasks sent to the tier (Count of them), s: the per-tier
	// breakdown of runs.csv.
	SumLatency, SumWait float64
	// Data and Reply add up the bits of the measured tasks sent to the
	// tier and of their replies, for the transfer energy (docs/design.md §1.11).
	Data, Reply float64
}

// ShadowResult is one shadow predictor's error over the measured tasks.
type ShadowResult struct {
	SumAPE     float64 // Σ |predicted − realised latency| / realised
	SumAbsWait float64 // Σ |predicted − realised wait|, s
	// The part of SumAPE over the IdleTasks measured tasks whose chosen
	// tier had an idle server in the view at the decision.
	IdleTasks  int
	SumAPEIdle float64
}

// Result is a run's raw measurements. Latencies are kept whole so that
// percentiles are exact; memory is 8 bytes per measured task (plus 8 per large
// task).
type Result struct {
	Tasks          int       // measured tasks
	Latencies      []float64 // s, in the order tasks reached their tier
	LargeLatencies []float64 // s, tasks with size > Config.Large
	SumWait        float64   // s
	SumAPE         float64   // the policy's own Σ |pred − real| / real
	Predicted      int       // measured tasks that carried a prediction
	Span           float64   // s, length of the measured window of arrivals
	Tier           []TierResult
	Shadow         []ShadowResult
}

func newResult(cfg *Config, phys []tierState, shadows int) *Result {
	r := &Result{Tier: make([]TierResult, len(cfg.Tiers)), Shadow: make([]ShadowResult, shadows)}
	for _, p := range phys {
		r.Tier[p.scen].Copies++
	}
	if cfg.Tasks > 0 {
		r.Latencies = make([]float64, 0, cfg.Tasks)
	}
	return r
}

// record adds one measured task. shPred holds the shadows' predicted waits.
func (r *Result) record(cfg *Config, rec *TaskRecord, x *transit, shPred []float64) {
	r.Tasks++
	r.Latencies = append(r.Latencies, rec.Latency)
	if rec.Size > cfg.Large {
		r.LargeLatencies = append(r.LargeLatencies, rec.Latency)
	}
	r.SumWait += rec.Wait
	t := &r.Tier[rec.Tier]
	t.Count++
	t.Work += rec.Size
	t.SumLatency += rec.Latency
	t.SumWait += rec.Wait
	t.Data += rec.Data
	t.Reply += rec.Reply
	tier := &cfg.Tiers[rec.Tier].Tier
	if x.hasPred {
		r.Predicted++
		r.SumAPE += math.Abs(x.predWait+1/tier.Mu+tier.MeanDelay-rec.Latency) / rec.Latency
	}
	for j, w := range shPred {
		sh := &r.Shadow[j]
		ape := math.Abs(w+1/tier.Mu+tier.MeanDelay-rec.Latency) / rec.Latency
		sh.SumAPE += ape
		sh.SumAbsWait += math.Abs(w - rec.Wait)
		if x.idle {
			sh.IdleTasks++
			sh.SumAPEIdle += ape
		}
	}
}

// Summary is the scalar metrics of a run (docs/design.md §5), NaN where undefined.
type Summary struct {
	Mean, P50, P95, P99, Max float64
	MeanWait                 float64
	MeanLarge, P95Large      float64
	MAPE                     float64 // percent
	Share, Util              []float64
}

// Summarize computes the run's metrics. It sorts the latency slices in place.
// Percentiles are gonum's stat.Quantile with stat.Empirical (the smallest
// sample whose empirical CDF reaches p), exact over every measured task.
func (r *Result) Summarize(cfg *Config) Summary {
	nan := math.NaN()
	s := Summary{Mean: nan, P50: nan, P95: nan, P99: nan, Max: nan, MeanWait: nan, MeanLarge: nan, P95Large: nan, MAPE: nan}
	s.Share = make([]float64, len(r.Tier))
	s.Util = make([]float64, len(r.Tier))
	for i, t := range r.Tier {
		c := &cfg.Tiers[i]
		if r.Tasks > 0 {
			s.Share[i] = float64(t.Count) / float64(r.Tasks)
		}
		s.Util[i] = nan
		if r.Span > 0 {
			s.Util[i] = t.Work / r.Span / (float64(c.Servers) * c.Speed)
		}
	}
	if r.Tasks == 0 {
		return s
	}
	slices.Sort(r.Latencies)
	s.Mean = stat.Mean(r.Latencies, nil)
	s.P50 = stat.Quantile(0.50, stat.Empirical, r.Latencies, nil)
	s.P95 = stat.Quantile(0.95, stat.Empirical, r.Latencies, nil)
	s.P99 = stat.Quantile(0.99, stat.Empirical, r.Latencies, nil)
	s.Max = r.Latencies[len(r.Latencies)-1]
	s.MeanWait = r.SumWait / float64(r.Tasks)
	if len(r.LargeLatencies) > 0 {
		slices.Sort(r.LargeLatencies)
		s.MeanLarge = stat.Mean(r.LargeLatencies, nil)
		s.P95Large = stat.Quantile(0.95, stat.Empirical, r.LargeLatencies, nil)
	}
	if r.Predicted > 0 {
		s.MAPE = 100 * r.SumAPE / float64(r.Predicted)
	}
	return s
}
