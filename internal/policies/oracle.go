package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy      = (*oracle)(nil)
	_ dispatch.Clairvoyant = (*oracle)(nil)
)

// oracle is the clairvoyant greedy reference: it sends each task to the tier
// where it would complete earliest, argmin_i v.Oracle.Completion(i), ties
// uniformly at random. The engine computes Completion from what no other
// policy may see: this task's size and realised delay to each tier, and the
// sizes and arrival times at the tier of every task already dispatched.
//
// Overtaking through delay jitter: a tier serves tasks FCFS in the order
// they reach it, not the order they were dispatched. Completion(i) therefore
// counts every already-dispatched task that reaches tier i before this one
// would (including tasks still in transit), in order of reaching it; a task
// dispatched earlier that would reach the tier after this one does not delay
// it (this one will delay that task, which the greedy rule ignores). What
// Completion cannot know is the future: a task dispatched later with a
// shorter delay can still overtake this one, so the realised completion may
// be later than the predicted one. Oracle is thus greedy per task, not a
// global optimum, and it predicts no wait (HasPred is false).
type oracle struct{ rng *rand.Rand }

// newOracle returns an oracle policy drawing ties from rng.
func newOracle(rng *rand.Rand) *oracle { return &oracle{rng: rng} }

// Clairvoyant marks Oracle as needing View.Oracle.
func (*oracle) Clairvoyant() {}

// Blind implements dispatch.Blind: the oracle reads completion times, not
// counts.
func (*oracle) Blind() {}

// Decide implements dispatch.Policy. It panics if v.Oracle is nil, which
// means the caller ignored dispatch.Clairvoyant.
func (p *oracle) Decide(v *dispatch.View) dispatch.Decision {
	if v.Oracle == nil {
		panic("policies: oracle decided without View.Oracle; the caller must set it for dispatch.Clairvoyant policies")
	}
	var m argmin
	for i := range v.States {
		m.offer(i, v.Oracle.Completion(i), p.rng)
	}
	return dispatch.Decision{Tier: m.best}
}
