package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/offload-sim/offload/internal/policies"
)

// RunKey identifies what job j computes, so that a plan can take a run an
// earlier plan already made instead of making it again (reproduce: the
// exploration folder's hybrid and edge-first runs are sweep-load's). It
// covers everything a run's row depends on: the cell's resolved scenario
// and attached data (Scenario.Hash, without the name, the policy list, the
// replicate count and the sweep, which only label or enumerate runs), the
// entry's policy and options (not its label), the replicate and the
// columns. ok is false for a job whose outcome holds more than its row or
// depends on more than the scenario: a plan with shadows, series or
// decision timing, and a policy that runs a program (the program's file is
// not part of the scenario).
func (p *Plan) RunKey(j Job) (key string, ok bool) {
	if p.TimeDecisions || len(p.Shadows) > 0 || p.SeriesWidth > 0 {
		return "", false
	}
	cell := p.Cells[j.Cell].Scenario
	e := p.entry(cell, j.Policy)
	if spec, found := policies.Lookup(e.Name); !found || spec.Program {
		return "", false
	}
	c := *cell
	c.Name, c.Seeds, c.Policies, c.Sweep = "", 0, nil, nil
	sh := c.Hash()
	opts, err := json.Marshal(e.Options)
	if sh == "" || err != nil {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s %s\nreplicate %d\n%+v\n", sh, e.Name, opts, j.Seed, p.Layout())
	return hex.EncodeToString(h.Sum(nil)), true
}

// Memo keeps finished runs by RunKey for later plans. It is not safe for
// concurrent use.
type Memo struct{ runs map[string]Outcome }

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{runs: map[string]Outcome{}} }

// Add remembers the finished outcomes of plan p (outs in the order of p's
// Jobs, an empty Policy for a job that did not run).
func (m *Memo) Add(p *Plan, outs []Outcome) {
	for i, j := range p.Jobs() {
		if i >= len(outs) || outs[i].Policy == "" {
			continue
		}
		if k, ok := p.RunKey(j); ok {
			m.runs[k] = outs[i]
		}
	}
}

// Lookup returns job j of plan p if the memo has its run, labelled as p's.
func (m *Memo) Lookup(p *Plan, j Job) (Outcome, bool) {
	k, ok := p.RunKey(j)
	if !ok {
		return Outcome{}, false
	}
	o, ok := m.runs[k]
	if !ok {
		return Outcome{}, false
	}
	c := p.Cells[j.Cell]
	o.Experiment, o.Param, o.Value, o.Policy, o.Seed = p.Name, c.Param, c.Value, j.Policy, j.Seed
	o.Cols, o.Values = p.Columns(), slices.Clone(o.Values)
	return o, true
}
