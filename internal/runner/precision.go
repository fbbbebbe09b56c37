package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/stats"
)

// DefaultMaxSeeds is --max-seeds' default: the cap on a cell's replicates
// under --precision. At R = 1% it covers a coefficient of variation across
// replicates of up to about 0.16 (n ≈ (1.96·cv/R)²).
const DefaultMaxSeeds = 1000

// Precision is a run until precise (--precision): the sequential rule and
// the runs.csv column whose mean (or median, for a percentile) it makes
// precise in every policy of every cell.
type Precision struct {
	Rule   stats.Rule
	Column string // results.ColMeanLatency, ColP95Latency or ColP99Latency
}

// PrecisionOn maps --precision-on's values to their column and statistic:
// a percentile takes the order-statistics interval of the median over
// replicates, which holds whatever the law of a run's percentile.
var PrecisionOn = map[string]struct {
	Column string
	On     stats.Statistic
}{
	"mean": {results.ColMeanLatency, stats.Mean},
	"p95":  {results.ColP95Latency, stats.Median},
	"p99":  {results.ColP99Latency, stats.Median},
}

// NewPrecision returns the precision of --precision target, --seeds seeds,
// --max-seeds maxSeeds and --precision-on on; its errors name the flag.
func NewPrecision(target float64, seeds, maxSeeds int, on string) (*Precision, error) {
	p, ok := PrecisionOn[on]
	if !ok {
		return nil, fmt.Errorf("--precision-on %q: allowed: mean, p95, p99", on)
	}
	rule, err := stats.NewRule(target, seeds, maxSeeds, p.On)
	if err != nil {
		return nil, err
	}
	return &Precision{Rule: rule, Column: p.Column}, nil
}

// extraPrecision is the manifest's key of a run until precise.
const extraPrecision = "precision"

// precisionRecord is the manifest's account of the rule a folder's runs
// were made under.
type precisionRecord struct {
	Target   float64 `json:"target"`
	On       string  `json:"column"`
	Min      int     `json:"min_seeds"`
	MaxSeeds int     `json:"max_seeds"`
}

func (p *Precision) record() precisionRecord {
	return precisionRecord{Target: p.Rule.Target, On: p.Column, Min: p.Rule.Min, MaxSeeds: p.Rule.Max}
}

// executePrecise runs the plan look by look until the rule stops every
// cell. At each look every cell not yet stopped is brought to the
// replicates the rule asks for (Decision.Next, from the values seen so
// far: never from the timing of the runs, so the replicates made and the
// bytes written do not depend on -j); all the new runs of a look run
// together on the worker pool. The runs in have (--resume) are not run
// again; since the looks are replayed from the first, a resumed run makes
// the same replicates as an uninterrupted one. It leaves plan.Replicates
// at each cell's final count and returns the outcomes in job order, those
// of have included.
func executePrecise(ctx context.Context, plan *experiment.Plan, prec *Precision, opt experiment.Options,
	have map[RunKey]experiment.Outcome, progress func(name string, total int) (func(done, total int), func())) ([]experiment.Outcome, error) {
	got := make(map[RunKey]experiment.Outcome, len(have))
	for k, o := range have {
		got[k] = o
	}
	plan.Replicates = make([]int, len(plan.Cells))
	for look := 1; ; look++ {
		more := false
		for c := range plan.Cells {
			if d := prec.Rule.Decide(cellValues(plan, c, prec.Column, got)); !d.Stop {
				plan.Replicates[c], more = d.Next, true
			}
		}
		if !more {
			break
		}
		jobs := plan.Jobs()
		o := opt
		o.Have = func(i int) bool { _, ok := got[jobKey(plan, jobs[i])]; return ok }
		finish := func() {}
		if progress != nil {
			o.Progress, finish = progress(fmt.Sprintf("%s, look %d", plan.Name, look), len(jobs))
		}
		out, err := plan.Execute(ctx, o)
		finish()
		for i := range out {
			if out[i].Policy != "" {
				got[jobKey(plan, jobs[i])] = out[i]
			}
		}
		if err != nil {
			return collect(plan, got), err
		}
	}
	return collect(plan, got), nil
}

// collect returns the outcomes of the plan's jobs found in got, in job
// order.
func collect(plan *experiment.Plan, got map[RunKey]experiment.Outcome) []experiment.Outcome {
	jobs := plan.Jobs()
	out := make([]experiment.Outcome, len(jobs))
	for i, j := range jobs {
		out[i] = got[jobKey(plan, j)] // an empty Policy when missing
	}
	return out
}

// cellValues returns values[policy][replicate] of a column for cell c's
// first plan.ReplicatesOf(c) replicates, from the runs in got (NaN where
// a run is missing, which only an interrupted look leaves).
func cellValues(plan *experiment.Plan, c int, column string, got map[RunKey]experiment.Outcome) [][]float64 {
	n := plan.ReplicatesOf(c)
	values := make([][]float64, len(plan.Policies))
	for p, e := range plan.Policies {
		values[p] = results.NaNs(n)
		for r := range n {
			if o, ok := got[jobKey(plan, experiment.Job{Cell: c, Policy: e.Label, Seed: r})]; ok {
				values[p][r] = o.Get(column)
			}
		}
	}
	return values
}

// precisionOf fills the summaries' precision columns from the runs of a
// run until precise: each cell's decision on its final replicates, the
// relative half-width each policy reached and whether the cell met the
// target. It returns the decisions in Cells order.
func precisionOf(plan *experiment.Plan, prec *Precision, runs []results.Run, sums []results.Summary) []stats.Decision {
	got := make(map[RunKey]experiment.Outcome, len(runs))
	for _, r := range runs {
		got[keyOfRun(r)] = experiment.Outcome{Run: r}
	}
	ds := make([]stats.Decision, len(plan.Cells))
	for c, cell := range plan.Cells {
		ds[c] = prec.Rule.Decide(cellValues(plan, c, prec.Column, got))
		for p, e := range plan.Policies {
			for i := range sums {
				s := &sums[i]
				if s.Policy == e.Label && s.Param == cell.Param && (s.Value == cell.Value || math.IsNaN(s.Value) && math.IsNaN(cell.Value)) {
					s.Precise = true
					s.Precision, s.PrecisionMet = ds[c].Precision[p], ds[c].Met
				}
			}
		}
	}
	return ds
}

// noteCapped writes to w the cells whose replicates reached --max-seeds
// before every policy met the target: their intervals are wider than
// asked, and summary.csv marks them precision_met 0.
func noteCapped(w io.Writer, plan *experiment.Plan, prec *Precision, ds []stats.Decision) {
	if w == nil {
		return
	}
	var capped []string
	for c, d := range ds {
		if d.Met {
			continue
		}
		capped = append(capped, fmt.Sprintf("%s (%s at ±%s)", plan.CellName(c), plan.Policies[d.Worst].Label, relPct(d.Precision[d.Worst])))
	}
	if len(capped) == 0 {
		return
	}
	fmt.Fprintf(w, "offload: warning: %d of %d cells reached --max-seeds %d before every policy's %s was within ±%s: %s; a larger --max-seeds or longer runs (--tasks) would narrow them\n",
		len(capped), len(ds), prec.Rule.Max, prec.Column, relPct(prec.Rule.Target), strings.Join(capped, ", "))
}

// relPct formats a relative half-width as a percentage.
func relPct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "?"
	}
	return fmt.Sprintf("%.3g%%", 100*x)
}

// Precise says whether the experiment takes --precision.
func (s Spec) Precise() bool { return !s.FixedSeeds }

// checkPrecision refuses --precision where its replicates cannot be known
// or used: a shard must know its runs before any has run (the rule's
// counts depend on the results of all of a cell's replicates, which are
// spread over the shards), and an experiment whose outputs read every
// cell's replicates as the scenario's seeds.
func checkPrecision(spec Spec, o Options) error {
	switch {
	case o.Precision == nil:
		return nil
	case !o.Shard.Whole():
		return BadInputf("--shard %d/%d with --precision: a run until precise decides its replicates from the results of the ones before, so no shard knows its runs in advance; run it whole, or give the shards a fixed --seeds", o.Shard.Index, o.Shard.Count)
	case spec.FixedSeeds:
		return BadInputf("--precision: %s compares its cells replicate by replicate over a fixed number of them; give --seeds instead", spec.Name)
	}
	return nil
}
