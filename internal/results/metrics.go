package results

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/quantile"
)

// Column is one numeric column of runs.csv (after the key columns): its
// name, unit and meaning, and how to read it from a run's measurements. The
// columns are declared once, in RunColumns; writing, reading (--resume),
// summaries and their _ci95 columns all loop over that declaration, so a new
// column is one more line there.
type Column struct {
	Name string
	Unit string // "s", "%", "ns", "J", or "" for counts and fractions
	Doc  string
	Int  bool // written and read as an integer (tasks)
	// Get reads the column from a run's measurements; NaN when it does not
	// apply (a missing value, an empty cell).
	Get func(m *Measured) float64
}

// Names lists the columns' names in order.
func Names(cols []Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// Index returns the position of the named column, or −1.
func Index(cols []Column, name string) int {
	return slices.IndexFunc(cols, func(c Column) bool { return c.Name == name })
}

// The names of the columns every runs.csv has.
const (
	ColTasks       = "tasks"
	ColMeanLatency = "mean_latency_s"
	ColP50Latency  = "p50_latency_s"
	ColP95Latency  = "p95_latency_s"
	ColP99Latency  = "p99_latency_s"
	ColMaxLatency  = "max_latency_s"
	ColMeanWait    = "mean_wait_s"
	ColMeanLarge   = "mean_large_s"
	ColP95Large    = "p95_large_s"
	ColMAPE        = "mape"
	ColDecisionNs  = "decision_ns"
)

// ShareCol and UtilCol name a tier's share and offered-load columns.
func ShareCol(tier string) string { return "share_" + tier }

// UtilCol names a tier's offered-load column.
func UtilCol(tier string) string { return "util_" + tier }

// SLOMissCol names the column of the share of tasks over an SLO of
// threshold seconds: slo_miss_<ms>ms, the milliseconds written in decimal
// without trailing zeros (0.1 s: slo_miss_100ms, 0.0025 s: slo_miss_2.5ms).
func SLOMissCol(threshold float64) string { return "slo_miss_" + Millis(threshold) + "ms" }

// SLOMissLargeCol is SLOMissCol for the large tasks: slo_miss_large_<ms>ms.
func SLOMissLargeCol(threshold float64) string { return "slo_miss_large_" + Millis(threshold) + "ms" }

// TierLatencyCol and TierWaitCol name a tier's mean latency and mean wait
// columns (Layout.Breakdown).
func TierLatencyCol(tier string) string { return "mean_latency_" + tier }

// TierWaitCol names a tier's mean-wait column (Layout.Breakdown).
func TierWaitCol(tier string) string { return "mean_wait_" + tier }

// Millis writes seconds as milliseconds in plain decimal, exactly and
// without trailing zeros: the shortest decimal that reads back as the
// seconds, its point moved three places (so 0.007 s is "7", never
// "7.000000000000001" as 0.007·1000 would print). Distinct thresholds give
// distinct names.
func Millis(seconds float64) string {
	digits, exp := decimal(seconds)
	exp += 3 // value = 0.digits × 10^exp
	switch {
	case exp <= 0:
		return "0." + strings.Repeat("0", -exp) + digits
	case exp >= len(digits):
		return digits + strings.Repeat("0", exp-len(digits))
	}
	return digits[:exp] + "." + digits[exp:]
}

// decimal splits x > 0 into its shortest significant digits and the
// exponent e with x = 0.digits × 10^e.
func decimal(x float64) (string, int) {
	s := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, ex, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(ex)
	return strings.Replace(mant, ".", "", 1), e + 1
}

// Layout is what shapes a scenario's runs.csv beyond the fixed columns: its
// tiers (share_ and util_ columns), its SLO latency thresholds in seconds
// (slo_miss_ columns, only when there are some) and whether it asks for the
// per-tier breakdown (mean_latency_<tier>, mean_wait_<tier>). The zero SLO
// and Breakdown give the columns every scenario had before them, so that
// existing files do not change.
type Layout struct {
	Tiers     []string
	SLO       []float64 // s
	Breakdown bool
	// Sketch adds the quantiles_sketched column, for plans whose runs may
	// measure more than quantile.ExactLimit tasks (runs within the limit,
	// every shipped experiment's, keep the columns they always had).
	Sketch bool
	// Energy adds energy_j, energy_idle_j and every tier's
	// energy_<tier>_j (a scenario with energy models).
	Energy bool
	// Dynamic adds lost_share, timeout_share, retry_share and goodput (a
	// scenario with slow-downs, failures, timeouts or retries).
	Dynamic bool
	// WarmupAuto adds warmup_tasks, each run's own warm-up (warmup: auto).
	WarmupAuto bool
	// Buffer adds drop_share (a scenario with a finite buffer), Patience
	// abandon_share (a scenario with patience).
	Buffer, Patience bool
	// Classes are the task classes' names: each adds its mean and 95th
	// percentile latency and its deadline miss share (none without).
	Classes []string
	// Batches adds batch_ci95, batch_lag1 and batch_correlated, each run's
	// batch-means analysis of its mean latency (--batches).
	Batches bool
}

// The columns of a run's batch means (--batches).
const (
	ColBatchCI95       = "batch_ci95"
	ColBatchLag1       = "batch_lag1"
	ColBatchCorrelated = "batch_correlated"
)

// ColWarmupTasks is a run's own warm-up under warmup: auto.
const ColWarmupTasks = "warmup_tasks"

// ColSketched says whether a run's percentiles came from the sketch.
const ColSketched = "quantiles_sketched"

// RunColumns declares runs.csv's numeric columns for this layout, in file
// order: the fixed ones, then every tier's share, then every tier's offered
// load (docs/design.md §5), then for each SLO threshold the share of tasks
// and of large tasks over it, then, with the breakdown, every tier's mean
// latency and every tier's mean wait; with Sketch, quantiles_sketched
// comes before the breakdown; then, with energy models, the energy
// columns (energy_j, energy_idle_j, every tier's energy_<tier>_j).
func RunColumns(l Layout) []Column {
	tiers := l.Tiers
	cols := []Column{
		{Name: ColTasks, Doc: "measured tasks (in the emulation, those that completed)", Int: true, Get: func(m *Measured) float64 { return float64(m.Tasks) }},
		{Name: ColMeanLatency, Unit: "s", Doc: "mean latency T = D + W + S: the delay to the chosen tier, the wait in its queue and the service", Get: func(m *Measured) float64 { return m.Latencies.Mean() }},
		{Name: ColP50Latency, Unit: "s", Doc: "median latency (exact up to the exact limit, see quantiles_sketched)", Get: func(m *Measured) float64 { return m.Latencies.Quantile(0.50) }},
		{Name: ColP95Latency, Unit: "s", Doc: "95th percentile of latency", Get: func(m *Measured) float64 { return m.Latencies.Quantile(0.95) }},
		{Name: ColP99Latency, Unit: "s", Doc: "99th percentile of latency", Get: func(m *Measured) float64 { return m.Latencies.Quantile(0.99) }},
		{Name: ColMaxLatency, Unit: "s", Doc: "largest latency", Get: func(m *Measured) float64 { return m.Latencies.Quantile(1) }},
		{Name: ColMeanWait, Unit: "s", Doc: "mean wait W in the chosen tier's queue", Get: func(m *Measured) float64 { return m.per(m.SumWait, m.Tasks) }},
		{Name: ColMeanLarge, Unit: "s", Doc: "mean latency of the large tasks, those whose size is strictly above the large_quantile quantile of the size law; empty when there are none", Get: func(m *Measured) float64 { return m.LargeLatencies.Mean() }},
		{Name: ColP95Large, Unit: "s", Doc: "95th percentile of the large tasks' latency; empty when there are none", Get: func(m *Measured) float64 { return m.LargeLatencies.Quantile(0.95) }},
		{Name: ColMAPE, Unit: "%", Doc: "mean absolute percentage error of the policy's own latency prediction, |Ŵ + 1/μ + D̄ − T| / T; empty for a policy that predicts nothing", Get: func(m *Measured) float64 { return m.per(100*m.SumAPE, m.Predicted) }},
		{Name: ColDecisionNs, Unit: "ns", Doc: "mean wall-clock cost of a decision, timer included; empty unless --time-decisions (wall-clock time: not reproducible)", Get: func(m *Measured) float64 { return m.DecisionNs }},
	}
	for i, t := range tiers {
		cols = append(cols, Column{Name: ShareCol(t), Doc: "fraction of the measured tasks sent to " + t,
			Get: func(m *Measured) float64 { return m.share(i) }})
	}
	for i, t := range tiers {
		cols = append(cols, Column{Name: UtilCol(t), Doc: "offered load of " + t + ": the work of the measured tasks sent there per second of the measured window, over c·s; ≥ 1: its queue grows without bound",
			Get: func(m *Measured) float64 { return m.util(i) }})
	}
	for _, x := range l.SLO {
		cols = append(cols, Column{Name: SLOMissCol(x), Doc: "share of the measured tasks with latency strictly over " + Millis(x) + " ms",
			Get: func(m *Measured) float64 { return m.Latencies.Over(x) }})
		cols = append(cols, Column{Name: SLOMissLargeCol(x), Doc: "share of the large tasks with latency strictly over " + Millis(x) + " ms; empty when there are none",
			Get: func(m *Measured) float64 { return m.LargeLatencies.Over(x) }})
	}
	if l.Sketch {
		cols = append(cols, Column{Name: ColSketched, Int: true,
			Doc: "1 when the run measured more than " + strconv.Itoa(quantile.ExactLimit) + " tasks, so that its percentiles and SLO shares " +
				"come from a DDSketch of relative error " + strconv.FormatFloat(quantile.RelativeError, 'g', -1, 64) + "; 0 when exact",
			Get: func(m *Measured) float64 {
				if m.Latencies.Exact() && m.LargeLatencies.Exact() {
					return 0
				}
				return 1
			}})
	}
	if l.Breakdown {
		for i, t := range tiers {
			cols = append(cols, Column{Name: TierLatencyCol(t), Unit: "s", Doc: "mean latency of the measured tasks run at " + t + "; empty where none ran",
				Get: func(m *Measured) float64 { return m.tierMean(m.TierSumLatency, i) }})
		}
		for i, t := range tiers {
			cols = append(cols, Column{Name: TierWaitCol(t), Unit: "s", Doc: "mean wait of the measured tasks run at " + t + "; empty where none ran",
				Get: func(m *Measured) float64 { return m.tierMean(m.TierSumWait, i) }})
		}
	}
	if l.Energy {
		cols = append(cols, energyColumns(tiers)...)
	}
	if l.Dynamic {
		cols = append(cols, outcomeColumns()...)
	}
	if l.WarmupAuto {
		cols = append(cols, Column{Name: ColWarmupTasks, Int: true,
			Doc: "the unmeasured tasks that arrived first, chosen by the run from its own output by MSER-5 (warmup: auto); near half of tasks, the run is too short to show its steady state",
			Get: func(m *Measured) float64 { return float64(m.WarmupTasks) }})
	}
	if l.Buffer {
		cols = append(cols, dropColumn())
	}
	if l.Patience {
		cols = append(cols, abandonColumn())
	}
	cols = append(cols, classColumns(l.Classes)...)
	if l.Batches {
		cols = append(cols, batchColumns()...)
	}
	return cols
}

// batchColumns are the batch-means columns (Layout.Batches).
func batchColumns() []Column {
	return []Column{
		{Name: ColBatchCI95, Unit: "s", Doc: "half-width of the 95% interval of the run's mean latency from its --batches K batch means of consecutive tasks (Student-t on K − 1 degrees of freedom); empty with fewer measured tasks than K",
			Get: func(m *Measured) float64 { return m.BatchCI95 }},
		{Name: ColBatchLag1, Doc: "lag-1 autocorrelation of the run's batch means: near 0 when the batches are long enough to be nearly independent; well above 0, the interval is too narrow",
			Get: func(m *Measured) float64 { return m.BatchLag1 }},
		{Name: ColBatchCorrelated, Int: true, Doc: "1 when the von Neumann ratio test rejects independent batch means at 5% (the batches are too short: fewer batches or a longer run), else 0",
			Get: func(m *Measured) float64 { return m.BatchCorrelated }},
	}
}

// Measured is what one run measured, in the form both the simulator and
// the HTTP testbed accumulate it. The columns read it through their Get.
type Measured struct {
	Tasks int // measured tasks (completed, in the testbed)
	// Dispatched is the measured tasks dispatched, the shares' denominator,
	// where it differs from Tasks (the testbed); 0 means Tasks.
	Dispatched int
	// Each measured task's latency (s) and those of the large tasks: exact
	// up to quantile.ExactLimit tasks, sketched beyond (internal/quantile).
	// Nil reads as empty.
	Latencies, LargeLatencies *quantile.Sample
	SumWait                   float64 // s, Σ time in the tier's queue
	SumAPE                    float64 // Σ |predicted − realised latency| / realised
	Predicted                 int     // measured tasks that carried a prediction
	Span                      float64 // s, the measured window of arrivals
	// Per tier: measured tasks sent there and their work; the tier's
	// capacity c·s, for the offered load.
	TierCount    []int
	TierWork     []float64
	TierCapacity []float64
	// Per tier, over the measured tasks run there whose latency is known:
	// Σ latency and Σ wait (s), and their number where it differs from
	// TierCount (the testbed, where some requests fail); nil TierDone means
	// TierCount. Nil sums leave the breakdown columns missing.
	// Classes is each task class's account (Layout.Classes); nil without.
	Classes        []ClassMeasured
	TierSumLatency []float64
	TierSumWait    []float64
	TierDone       []int
	DecisionNs     float64 // NaN unless decisions were timed

	// TierData and TierReply are, per tier, the bits of the measured
	// tasks sent there and of their replies (the energy columns); nil
	// when not measured.
	TierData, TierReply []float64
	// Energy is every tier's energy model, as run (a sweep may vary it);
	// nil leaves the energy columns missing.
	Energy []TierEnergy
	// Outcomes is how the measured tasks ended (the outcome columns); nil
	// leaves them missing.
	Outcomes *Outcomes
	// WarmupTasks is the warm-up the run chose (Layout.WarmupAuto).
	WarmupTasks int
	// BatchCI95, BatchLag1 and BatchCorrelated (0 or 1) are the run's
	// batch means (Layout.Batches); NaN where it had too few tasks.
	BatchCI95, BatchLag1, BatchCorrelated float64
}

// Row reads every column from m, in order. It sorts m's latency samples.
func Row(cols []Column, m *Measured) []float64 {
	if m.Latencies == nil {
		m.Latencies = &quantile.Sample{}
	}
	if m.LargeLatencies == nil {
		m.LargeLatencies = &quantile.Sample{}
	}
	v := make([]float64, len(cols))
	for i, c := range cols {
		v[i] = c.Get(m)
	}
	return v
}

func (m *Measured) per(sum float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func (m *Measured) share(i int) float64 {
	if i >= len(m.TierCount) {
		return math.NaN()
	}
	n := m.Tasks
	if m.Dispatched > 0 {
		n = m.Dispatched
	}
	if n == 0 {
		return 0
	}
	return float64(m.TierCount[i]) / float64(n)
}

// tierMean is sums[i] over tier i's measured tasks; NaN where it ran none.
func (m *Measured) tierMean(sums []float64, i int) float64 {
	if i >= len(sums) {
		return math.NaN()
	}
	counts := m.TierDone
	if counts == nil {
		counts = m.TierCount
	}
	if i >= len(counts) || counts[i] == 0 {
		return math.NaN()
	}
	return sums[i] / float64(counts[i])
}

func (m *Measured) util(i int) float64 {
	if i >= len(m.TierWork) || !(m.Span > 0) {
		return math.NaN()
	}
	return m.TierWork[i] / m.Span / m.TierCapacity[i]
}

// NaNs returns n missing values: the starting point of a per-tier or
// per-replicate slice whose gaps must read as missing, not as zero.
func NaNs(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}
