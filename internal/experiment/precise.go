package experiment

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
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

// ExecutePrecise runs the plan look by look until the rule stops every
// cell. At each look every cell not yet stopped is brought to the
// replicates the rule asks for (Decision.Next, from the values seen so
// far: never from the timing of the runs, so the replicates made and the
// bytes written do not depend on -j); all the new runs of a look run
// together on the worker pool. The jobs have holds (--resume) are not run
// again; since the looks are replayed from the first, a resumed run makes
// the same replicates as an uninterrupted one. opt.Have is replaced;
// progress, if set, starts the display of each look. It leaves
// p.Replicates at each cell's final count and returns the outcomes in job
// order, those of have included (an empty Policy where a job is missing).
func (p *Plan) ExecutePrecise(ctx context.Context, prec *Precision, opt Options, have func(Job) (Outcome, bool),
	progress func(name string, total int) (func(done, total int), func())) ([]Outcome, error) {
	got := map[Job]Outcome{}
	lookup := func(j Job) (Outcome, bool) {
		if o, ok := got[j]; ok {
			return o, true
		}
		if have != nil {
			if o, ok := have(j); ok {
				got[j] = o
				return o, true
			}
		}
		return Outcome{}, false
	}
	p.Replicates = make([]int, len(p.Cells))
	for look := 1; ; look++ {
		more := false
		for c := range p.Cells {
			if d := prec.Rule.Decide(p.cellValues(c, prec.Column, lookup)); !d.Stop {
				p.Replicates[c], more = d.Next, true
			}
		}
		if !more {
			break
		}
		jobs := p.Jobs()
		o := opt
		o.Have = func(i int) bool { _, ok := lookup(jobs[i]); return ok }
		finish := func() {}
		if progress != nil {
			o.Progress, finish = progress(fmt.Sprintf("%s, look %d", p.Name, look), len(jobs))
		}
		out, err := p.Execute(ctx, o)
		finish()
		for i := range out {
			if out[i].Policy != "" {
				got[jobs[i]] = out[i]
			}
		}
		if err != nil {
			return p.collect(lookup), err
		}
	}
	return p.collect(lookup), nil
}

// collect returns the outcomes of the plan's jobs, in job order.
func (p *Plan) collect(lookup func(Job) (Outcome, bool)) []Outcome {
	jobs := p.Jobs()
	out := make([]Outcome, len(jobs))
	for i, j := range jobs {
		out[i], _ = lookup(j) // an empty Policy when missing
	}
	return out
}

// cellValues returns values[policy][replicate] of a column for cell c's
// first p.ReplicatesOf(c) replicates (NaN where a run is missing, which
// only an interrupted look leaves).
func (p *Plan) cellValues(c int, column string, lookup func(Job) (Outcome, bool)) [][]float64 {
	n := p.ReplicatesOf(c)
	values := make([][]float64, len(p.Policies))
	for i, e := range p.Policies {
		values[i] = results.NaNs(n)
		for r := range n {
			if o, ok := lookup(Job{Cell: c, Policy: e.Label, Seed: r}); ok {
				values[i][r] = o.Get(column)
			}
		}
	}
	return values
}

// PrecisionOf fills the summaries' precision columns from the runs of a
// run until precise: each cell's decision on its final replicates, the
// relative half-width each policy reached and whether the cell met the
// target. It returns, for stderr, the note on the cells that reached
// --max-seeds before every policy met the target ("" when none did).
func (p *Plan) PrecisionOf(prec *Precision, runs []results.Run, sums []results.Summary) string {
	got := make(map[Job]Outcome, len(runs))
	for _, r := range runs {
		for c, cell := range p.Cells {
			if sameCell(r.Param, r.Value, cell) {
				got[Job{Cell: c, Policy: r.Policy, Seed: r.Seed}] = Outcome{Run: r}
			}
		}
	}
	lookup := func(j Job) (Outcome, bool) { o, ok := got[j]; return o, ok }
	var capped []string
	for c, cell := range p.Cells {
		d := prec.Rule.Decide(p.cellValues(c, prec.Column, lookup))
		for i, e := range p.Policies {
			for k := range sums {
				s := &sums[k]
				if s.Policy == e.Label && sameCell(s.Param, s.Value, cell) {
					s.Precise = true
					s.Precision, s.PrecisionMet = d.Precision[i], d.Met
				}
			}
		}
		if !d.Met {
			capped = append(capped, fmt.Sprintf("%s (%s at ±%s)", p.CellName(c), p.Policies[d.Worst].Label, relPct(d.Precision[d.Worst])))
		}
	}
	if len(capped) == 0 {
		return ""
	}
	// Their intervals are wider than asked, and summary.csv marks them
	// precision_met 0.
	return fmt.Sprintf("%d of %d cells reached --max-seeds %d before every policy's %s was within ±%s: %s; a larger --max-seeds or longer runs (--tasks) would narrow them",
		len(capped), len(p.Cells), prec.Rule.Max, prec.Column, relPct(prec.Rule.Target), strings.Join(capped, ", "))
}

// sameCell reports whether a run or summary of (param, value) is cell's.
func sameCell(param string, value float64, cell scenario.Cell) bool {
	return param == cell.Param && (value == cell.Value || math.IsNaN(value) && math.IsNaN(cell.Value))
}

// relPct formats a relative half-width as a percentage.
func relPct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "?"
	}
	return fmt.Sprintf("%.3g%%", 100*x)
}
