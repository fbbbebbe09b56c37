package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/offload-sim/offload/internal/results"
)

// The claims' texts, as docs/design.md §6 states them.
var texts = map[int]string{
	1: "Hybrid has lower mean latency than Edge-First and Model-Only at every load level.",
	2: "Hybrid has lower P95 latency for large tasks than JSQ (at every load where both are stable).",
	3: "The hybrid estimator has the lowest MAPE of the three at every load.",
	4: "Under bursts, Hybrid moves work to the cloud as the edge congests and recovers faster than the static policies.",
	5: "A decision costs a few µs at most (the paper: about 7.4 µs mean).",
	6: "The HTTP emulation reproduces the simulator's ranking of policies.",
}

// Text returns claim id's statement.
func Text(id int) string { return texts[id] }

// MeanLatency is claim 1, on the sweep-load runs. A cell where either
// policy is unstable keeps its verdict but says so: an unstable policy's
// mean latency grows with the run, so the difference measures the run
// length, not a steady state.
func MeanLatency(runs []results.Run) Claim {
	t := index(runs, func(r results.Run) float64 { return r.Get(results.ColMeanLatency) })
	unstable := unstableAt(runs)
	cs := []Comparison{
		t.compare("hybrid − edge-first, mean latency", "s", "hybrid", "edge-first", nil),
		t.compare("hybrid − model-only, mean latency", "s", "hybrid", "model-only", nil),
	}
	for i, b := range []string{"edge-first", "model-only"} {
		markUnstable(t, cs[i].Cells, unstable, "hybrid", b)
	}
	return Claim{ID: 1, Text: texts[1], Comparisons: cs, Verdict: verdictOf(cs)}
}

// UnstableNote is the note on a claim-1 cell against an unstable policy.
func UnstableNote(policy string) string {
	return policy + " unstable: the difference measures the run length, not a steady state"
}

// unstableAt marks (value, policy) pairs where some tier's offered load is
// shown above 1 (results.Summary.Unstable).
func unstableAt(runs []results.Run) map[string]bool {
	u := map[string]bool{}
	for _, s := range results.Summarize(runs) {
		u[key(s.Value, s.Policy)] = s.Unstable
	}
	return u
}

// markUnstable adds UnstableNote to the cells of t's values where a or b is
// unstable; cells are matched by label, as compare makes them.
func markUnstable(t table, cells []Cell, unstable map[string]bool, a, b string) {
	for _, v := range t.values {
		for i := range cells {
			if cells[i].Label != t.label(v) {
				continue
			}
			var notes []string
			for _, p := range []string{a, b} {
				if unstable[key(v, p)] {
					notes = append(notes, UnstableNote(p))
				}
			}
			if len(notes) > 0 && cells[i].Note == "" {
				cells[i].Note = strings.Join(notes, "; ")
			}
		}
	}
}

// EpsZero is the label of claim 1's ε = 0 variant of hybrid.
const EpsZero = "hybrid-eps0"

// Exploration is claim 1's evidence from the exploration runs (hybrid,
// hybrid-eps0 and edge-first on sweep-load's scenario): hybrid − hybrid-eps0
// isolates what ε-exploration costs or gains, and hybrid-eps0 − edge-first
// what the estimator does without it. It returns nil without those runs.
func Exploration(runs []results.Run) []Comparison {
	if len(runs) == 0 {
		return nil
	}
	t := index(runs, func(r results.Run) float64 { return r.Get(results.ColMeanLatency) })
	unstable := unstableAt(runs)
	cs := []Comparison{
		t.compare("hybrid − hybrid-eps0 (ε = 0), mean latency", "s", "hybrid", EpsZero, nil),
		t.compare("hybrid-eps0 − edge-first, mean latency", "s", EpsZero, "edge-first", nil),
	}
	markUnstable(t, cs[0].Cells, unstable, "hybrid", EpsZero)
	markUnstable(t, cs[1].Cells, unstable, EpsZero, "edge-first")
	if len(cs[0].Cells) == 0 && len(cs[1].Cells) == 0 {
		return nil
	}
	return cs
}

// LargeTail is claim 2, on the sweep-load runs; a load is left out when
// either policy is unstable there (some tier's offered load shown above 1).
func LargeTail(runs []results.Run) Claim {
	t := index(runs, func(r results.Run) float64 { return r.Get(results.ColP95Large) })
	unstable := map[string]bool{}
	for _, s := range results.Summarize(runs) {
		unstable[key(s.Value, s.Policy)] = s.Unstable
	}
	keep := func(v float64) (bool, string) {
		for _, p := range []string{"hybrid", "jsq"} {
			if unstable[key(v, p)] {
				return false, p + " unstable"
			}
		}
		return true, ""
	}
	cs := []Comparison{t.compare("hybrid − jsq, P95 latency of large tasks", "s", "hybrid", "jsq", keep)}
	return Claim{ID: 2, Text: texts[2], Comparisons: cs, Verdict: verdictOf(cs)}
}

// MAPE is claim 3, on the mape experiment's rows: runs whose Policy is the
// estimator and MAPE its error.
func MAPE(rows []results.Run) Claim {
	t := index(rows, func(r results.Run) float64 { return r.Get(results.ColMAPE) })
	cs := []Comparison{
		t.compare("hybrid − model-only estimator, MAPE", "%", "hybrid", "model-only", nil),
		t.compare("hybrid − queue-only estimator, MAPE", "%", "hybrid", "queue-only", nil),
	}
	c := Claim{ID: 3, Text: texts[3], Comparisons: cs, Verdict: verdictOf(cs)}
	c.Evidence, c.Notes = idleSplit(rows)
	return c
}

// idleSplit is claim 3's evidence: the same comparisons over the tasks
// whose chosen tier had an idle server in the router's view, where the
// blend's β = min(1, q/c) is 0 and the hybrid predicts the model's
// stationary mean wait, and over the others, where it leans on the queue;
// and a note with the share of idle-tier tasks. Rows from before the split
// (an empty idle_share everywhere) give none.
func idleSplit(rows []results.Run) ([]Comparison, []string) {
	share := index(rows, func(r results.Run) float64 { return r.Get(results.ColIdleShare) })
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range share.values {
		if m, _, _ := results.MeanCI95(share.get(v, "hybrid")); !math.IsNaN(m) {
			lo, hi = math.Min(lo, m), math.Max(hi, m)
		}
	}
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	idle := index(rows, func(r results.Run) float64 { return r.Get(results.ColMAPEIdle) })
	busy := index(rows, func(r results.Run) float64 { return r.Get(results.ColMAPEBusy) })
	ev := []Comparison{
		idle.compare("hybrid − queue-only estimator, MAPE over tasks whose chosen tier had an idle server", "%", "hybrid", "queue-only", nil),
		busy.compare("hybrid − queue-only estimator, MAPE over tasks whose chosen tier had every server busy", "%", "hybrid", "queue-only", nil),
		busy.compare("hybrid − model-only estimator, MAPE over tasks whose chosen tier had every server busy", "%", "hybrid", "model-only", nil),
	}
	span := fmt.Sprintf("%.0f–%.0f%% of the tasks, by load", 100*lo, 100*hi)
	if math.Round(100*lo) == math.Round(100*hi) {
		span = fmt.Sprintf("%.0f%% of the tasks", 100*lo)
	}
	note := fmt.Sprintf("The evidence splits each run's tasks by whether the tier chosen for them had an idle server in the router's view at the decision "+
		"(%s). There the queue is empty, β = min(1, q/c) = 0, and the hybrid predicts the model's stationary mean wait; "+
		"with an exact view model-only predicts the same, and queue-only predicts no wait. The split explains the verdict and does not count toward it.", span)
	return ev, []string{note}
}

// BurstRep is what claim 4 needs of one replicate of one policy: the mean
// over bursts of the cloud share before and during each burst, and of the
// recovery time (a burst never recovered from counts as the whole gap to the
// next one).
type BurstRep struct {
	Policy                   string
	Seed                     int
	CloudBefore, CloudDuring float64
	Recovery                 float64
}

// Bursts is claim 4: hybrid's cloud share is higher during bursts than
// before them, and hybrid recovers faster than each static policy listed.
// notes explain policies left out (e.g. unstable at the base load).
func Bursts(reps []BurstRep, static []string, notes []string) Claim {
	n := 0
	for _, r := range reps {
		n = max(n, r.Seed+1)
	}
	before, during, rec := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	for _, r := range reps {
		if rec[r.Policy] == nil {
			before[r.Policy], during[r.Policy], rec[r.Policy] = results.NaNs(n), results.NaNs(n), results.NaNs(n)
		}
		before[r.Policy][r.Seed], during[r.Policy][r.Seed], rec[r.Policy][r.Seed] = r.CloudBefore, r.CloudDuring, r.Recovery
	}
	cs := []Comparison{{Title: "hybrid's cloud share (share of its tasks), before − during bursts", A: "before bursts", B: "during bursts",
		Cells: []Cell{lower("bursts", before["hybrid"], during["hybrid"])}}}
	for _, p := range static {
		if rec[p] == nil {
			continue
		}
		cs = append(cs, Comparison{Title: fmt.Sprintf("hybrid − %s, recovery time after a burst", p), A: "hybrid", B: p, Unit: "s",
			Cells: []Cell{lower("bursts", rec["hybrid"], rec[p])}})
	}
	return Claim{ID: 4, Text: texts[4], Comparisons: cs, Verdict: verdictOf(cs), Notes: notes}
}

// DecisionThresholdNs is what claim 5's "a few µs at most" is tested
// against: the paper's own mean decision time, ns.
const DecisionThresholdNs = 7400.0

// DecisionCost is claim 5: hybrid's mean wall-clock decision time per
// replicate against the paper's 7.4 µs.
func DecisionCost(ns []float64) Claim {
	paper := make([]float64, len(ns))
	for i := range paper {
		paper[i] = DecisionThresholdNs
	}
	cs := []Comparison{{Title: fmt.Sprintf("hybrid decision time − %g ns", DecisionThresholdNs), A: "hybrid", B: "the paper's mean", Unit: "ns",
		Cells: []Cell{lower("decisions", ns, paper)}}}
	return Claim{ID: 5, Text: texts[5], Comparisons: cs, Verdict: verdictOf(cs),
		Notes: []string{
			fmt.Sprintf("\"A few µs at most\" is tested as: hybrid's mean decision time per replicate is below %g µs (the paper's own mean), by the paired rule against that constant.", DecisionThresholdNs/1000),
			"Wall-clock time of Decide, timer overhead included, measured in the simulator (--time-decisions): not reproducible to the byte."}}
}

// NotRunClaim is a claim whose experiment did not run.
func NotRunClaim(id int, why string) Claim {
	return Claim{ID: id, Text: texts[id], Verdict: NotRun, Notes: []string{why}}
}

// Ranking is claim 6: for every pair of policies that the simulator
// separates (its paired 95% interval of the mean-latency difference excludes
// 0), the emulation must order them the same way, judged by the paired rule
// on the emulated runs. Pairs the simulator does not separate are skipped.
func Ranking(emu, sim []results.Run) Claim {
	te := index(emu, func(r results.Run) float64 { return r.Get(results.ColMeanLatency) })
	ts := index(sim, func(r results.Run) float64 { return r.Get(results.ColMeanLatency) })
	var pols []string
	for _, r := range sim {
		if !slices.Contains(pols, r.Policy) {
			pols = append(pols, r.Policy)
		}
	}
	c := Comparison{Title: "emulated mean latency, faster − slower by the simulator", A: "faster", B: "slower", Unit: "s"}
	for _, v := range ts.values {
		for i, a := range pols {
			for _, b := range pols[i+1:] {
				s := lower("", ts.get(v, a), ts.get(v, b))
				fast, slow := a, b
				if s.Verdict == Fail {
					fast, slow = b, a
				}
				label := fast + " < " + slow
				if s.Verdict != Pass && s.Verdict != Fail {
					c.Cells = append(c.Cells, Cell{Label: label, Verdict: Skipped, Note: "the simulator does not separate them",
						A: math.NaN(), B: math.NaN(), Diff: math.NaN(), CI95: math.NaN()})
					continue
				}
				c.Cells = append(c.Cells, lower(label, te.get(v, fast), te.get(v, slow)))
			}
		}
	}
	cs := []Comparison{c}
	return Claim{ID: 6, Text: texts[6], Comparisons: cs, Verdict: verdictOf(cs)}
}

// ExplainByExploration names the loads where claim 1 finds hybrid slower
// than edge-first (comparison 0 FAILs there) and the evidence says why:
// hybrid is slower than its ε = 0 variant, which is not slower than
// edge-first — the loss is what exploring costs when the edge is rarely
// busy. "" when no FAIL cell is explained that way.
func ExplainByExploration(c Claim) string {
	if c.ID != 1 || len(c.Comparisons) == 0 || len(c.Evidence) < 2 {
		return ""
	}
	find := func(cells []Cell, label string) (Cell, bool) {
		for _, x := range cells {
			if x.Label == label {
				return x, true
			}
		}
		return Cell{}, false
	}
	var labels []string
	for _, x := range c.Comparisons[0].Cells {
		if x.Verdict != Fail {
			continue
		}
		explore, ok1 := find(c.Evidence[0].Cells, x.Label)
		eps0, ok2 := find(c.Evidence[1].Cells, x.Label)
		if ok1 && ok2 && explore.Verdict == Fail && eps0.Verdict != Fail {
			labels = append(labels, x.Label)
		}
	}
	if len(labels) == 0 {
		return ""
	}
	return "Where hybrid is slower than edge-first (" + strings.Join(labels, ", ") + "), it is also slower than " + EpsZero +
		", and " + EpsZero + " is not slower than edge-first: the difference is the cost of exploring with ε > 0, not of the estimator."
}
