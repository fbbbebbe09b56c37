package engine

import (
	"math"

	"github.com/offload-sim/offload/internal/quantile"
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

// Result is a run's raw measurements. Latencies are kept whole up to
// Config.ExactLimit measured tasks, so that percentiles are exact (8 bytes
// per measured task, plus 8 per large task), and sketched beyond it, so that
// memory stays bounded at any run length (internal/quantile).
type Result struct {
	Tasks          int              // measured tasks
	Latencies      *quantile.Sample // s
	LargeLatencies *quantile.Sample // s, tasks with size > Config.Large
	SumWait        float64          // s
	SumAPE         float64          // the policy's own Σ |pred − real| / real
	Predicted      int              // measured tasks that carried a prediction
	Span           float64          // s, length of the measured window of arrivals
	Tier           []TierResult
	Shadow         []ShadowResult
	// Out is how the measured tasks ended, kept by a run that uses
	// capacities, timeouts or retries (Config.Dynamic); zero otherwise.
	Out Outcomes
	// Class is each class's account (Config.Classes); nil without.
	Class []ClassResult

	// invMu is 1/μ of each scenario tier, the quotient record's errors
	// take on every predicted task: computed once, the same value, so
	// that record divides nothing per task.
	invMu []float64
}

func newResult(cfg *Config, phys []tierState, shadows int) *Result {
	r := &Result{Tier: make([]TierResult, len(cfg.Tiers)), Shadow: make([]ShadowResult, shadows)}
	for _, p := range phys {
		r.Tier[p.scen].Copies++
	}
	r.invMu = make([]float64, len(cfg.Tiers))
	for i := range cfg.Tiers {
		r.invMu[i] = 1 / cfg.Tiers[i].Mu
	}
	r.Latencies = quantile.New(cfg.ExactLimit, cfg.Tasks)
	r.LargeLatencies = quantile.New(cfg.ExactLimit, largeHint(cfg))
	if len(cfg.Classes) > 0 {
		r.Class = make([]ClassResult, len(cfg.Classes))
		for k := range r.Class {
			r.Class[k].Latencies = quantile.New(cfg.ExactLimit, 0)
		}
	}
	return r
}

// record adds one measured task x, run at scenario tier i with this wait
// and latency (s), and the policy's own prediction error if it made one
// (recordShadows adds the shadows' errors).
func (r *Result) record(cfg *Config, i int, x *transit, wait, latency float64) {
	r.Tasks++
	r.Latencies.Add(latency)
	if x.size > cfg.Large {
		r.LargeLatencies.Add(latency)
	}
	r.SumWait += wait
	if r.Class != nil {
		r.recordClass(cfg, x, latency)
	}
	t := &r.Tier[i]
	t.Count++
	t.Work += x.size
	t.SumLatency += latency
	t.SumWait += wait
	t.Data += x.data
	t.Reply += x.reply
	if x.hasPred {
		r.Predicted++
		r.SumAPE += math.Abs(x.predWait+r.invMu[i]+cfg.Tiers[i].MeanDelay-latency) / latency
	}
}

// recordShadows adds the shadows' errors on measured task x, run at
// scenario tier i with this wait and latency (s): shPred holds their
// predicted waits. Apart from record, so that a run without shadows
// carries none of it on the per-task path.
func (r *Result) recordShadows(cfg *Config, i int, x *transit, wait, latency float64, shPred []float64) {
	inv, d := r.invMu[i], cfg.Tiers[i].MeanDelay
	for j, w := range shPred {
		sh := &r.Shadow[j]
		ape := math.Abs(w+inv+d-latency) / latency
		sh.SumAPE += ape
		sh.SumAbsWait += math.Abs(w - wait)
		if x.idle {
			sh.IdleTasks++
			sh.SumAPEIdle += ape
		}
	}
}

// largeHint is room for the large tasks a run of cfg expects by its size
// law, and a tenth more, so that their sample seldom grows its slice.
func largeHint(cfg *Config) int {
	if cfg.Tasks <= 0 || !(cfg.Large < math.Inf(1)) {
		return 0
	}
	return int(float64(cfg.Tasks)*(1-cfg.Size.CDF(cfg.Large))*1.1) + 16
}
