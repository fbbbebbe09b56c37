package policies

import (
	"fmt"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/pick"
)

var (
	_ dispatch.Policy = (*jsq)(nil)
	_ dispatch.Policy = (*jsqs)(nil)
	_ dispatch.Policy = (*edgeFirst)(nil)
	_ dispatch.Policy = (*random)(nil)
	_ dispatch.Blind  = (*random)(nil)
	_ dispatch.Blind  = (*edgeFirst)(nil)
)

// jsq joins the shortest queue: the tier with the fewest tasks present,
// argmin_i q_i + b_i, blind to speed, servers and delay; ties uniformly at
// random. Tasks still in transit to a tier are not counted. Its keys sit
// in a tournament tree (pick.MinTree) that follows the view's changes, so that
// a decision costs O(log n) of the tiers when the view tracks them.
type jsq struct {
	rng  *rand.Rand
	tree pick.MinTree
	keys []float64 // tier i's q + b, for the tree
}

// newJSQ returns a JSQ policy drawing ties from rng.
func newJSQ(rng *rand.Rand) *jsq { return &jsq{rng: rng} }

// Decide implements dispatch.Policy.
func (p *jsq) Decide(v *dispatch.View) dispatch.Decision {
	if len(p.keys) != len(v.States) {
		p.keys = make([]float64, len(v.States))
	}
	if p.tree.All(v.Tracked, len(p.keys)) {
		for i := range p.keys {
			p.keys[i] = float64(v.States[i].Present())
		}
	} else {
		for _, i := range v.Changed {
			p.keys[i] = float64(v.States[i].Present())
		}
	}
	return dispatch.Decision{Tier: p.tree.Decide(p.keys, nil, v.Changed, v.Tracked, p.rng)}
}

// jsqs is shortest expected delay (SED), JSQ made aware of speed, servers and
// delay: argmin_i D̄_i + (q_i + b_i + 1)/(c_i μ_i), the mean delay plus the
// time for the tier's full capacity to clear everyone present and this task;
// ties uniformly at random. Its keys sit in a tournament tree, as JSQ's.
type jsqs struct {
	delay  []float64 // D̄_i
	invCap []float64 // 1/(c_i μ_i)
	rng    *rand.Rand
	tree   pick.MinTree
	keys   []float64
}

// newJSQS returns a jsq-s policy for these tiers, drawing ties from rng.
func newJSQS(tiers []dispatch.Tier, rng *rand.Rand) *jsqs {
	p := &jsqs{delay: make([]float64, len(tiers)), invCap: make([]float64, len(tiers)), rng: rng, keys: make([]float64, len(tiers))}
	for i, t := range tiers {
		p.delay[i] = t.MeanDelay
		p.invCap[i] = 1 / (float64(t.Servers) * t.Mu)
	}
	return p
}

// Decide implements dispatch.Policy.
func (p *jsqs) Decide(v *dispatch.View) dispatch.Decision {
	if p.tree.All(v.Tracked, len(p.keys)) {
		for i := range p.keys {
			p.keys[i] = p.delay[i] + float64(v.States[i].Present()+1)*p.invCap[i]
		}
	} else {
		for _, i := range v.Changed {
			p.keys[i] = p.delay[i] + float64(v.States[i].Present()+1)*p.invCap[i]
		}
	}
	return dispatch.Decision{Tier: p.tree.Decide(p.keys, nil, v.Changed, v.Tracked, p.rng)}
}

// edgeFirst always sends to the first tier of kind edge, whatever the state.
type edgeFirst struct{ tier int }

// newEdgeFirst returns an edge-first policy, or an error when no tier is an
// edge tier.
func newEdgeFirst(tiers []dispatch.Tier) (*edgeFirst, error) {
	for i, t := range tiers {
		if t.Kind == dispatch.Edge {
			return &edgeFirst{tier: i}, nil
		}
	}
	return nil, fmt.Errorf("policy %q: the scenario has no edge tier", NameEdgeFirst)
}

// The registry's constructors: one signature for every policy. Each returns
// an untyped nil policy with its error, never a typed nil.

func buildJSQ(b Build) (dispatch.Policy, error)  { return newJSQ(b.Rand), nil }
func buildJSQS(b Build) (dispatch.Policy, error) { return newJSQS(b.Tiers, b.Rand), nil }
func buildRandom(b Build) (dispatch.Policy, error) {
	return newRandom(len(b.Tiers), b.Rand), nil
}
func buildOracle(b Build) (dispatch.Policy, error) { return newOracle(b.Rand), nil }

func buildEdgeFirst(b Build) (dispatch.Policy, error) {
	p, err := newEdgeFirst(b.Tiers)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Blind implements dispatch.Blind: the tier is fixed.
func (*edgeFirst) Blind() {}

// Decide implements dispatch.Policy.
func (p *edgeFirst) Decide(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: p.tier} }

// random sends each task to a tier drawn uniformly, whatever the state.
type random struct {
	n   int
	rng *rand.Rand
}

// newRandom returns a policy choosing uniformly among n tiers with rng.
func newRandom(n int, rng *rand.Rand) *random { return &random{n: n, rng: rng} }

// Blind implements dispatch.Blind: the draw ignores the state.
func (*random) Blind() {}

// Decide implements dispatch.Policy.
func (p *random) Decide(*dispatch.View) dispatch.Decision {
	return dispatch.Decision{Tier: p.rng.IntN(p.n)}
}
