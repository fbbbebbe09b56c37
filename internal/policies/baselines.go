package policies

import (
	"fmt"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy = (*JSQ)(nil)
	_ dispatch.Policy = (*JSQS)(nil)
	_ dispatch.Policy = (*EdgeFirst)(nil)
	_ dispatch.Policy = (*Random)(nil)
	_ dispatch.Blind  = (*Random)(nil)
	_ dispatch.Blind  = (*EdgeFirst)(nil)
)

// JSQ joins the shortest queue: the tier with the fewest tasks present,
// argmin_i q_i + b_i, blind to speed, servers and delay; ties uniformly at
// random. Tasks still in transit to a tier are not counted. Its keys sit
// in a tournament tree (minTree) that follows the view's changes, so that
// a decision costs O(log n) of the tiers when the view tracks them.
type JSQ struct {
	rng  *rand.Rand
	tree minTree
	keys []float64 // tier i's q + b, for the tree
}

// NewJSQ returns a JSQ policy drawing ties from rng.
func NewJSQ(rng *rand.Rand) *JSQ { return &JSQ{rng: rng} }

// Decide implements dispatch.Policy.
func (p *JSQ) Decide(v *dispatch.View) dispatch.Decision {
	if len(p.keys) != len(v.States) {
		p.keys = make([]float64, len(v.States))
	}
	if p.tree.all(v.Tracked, len(p.keys)) {
		for i := range p.keys {
			p.keys[i] = float64(v.States[i].Present())
		}
	} else {
		for _, i := range v.Changed {
			p.keys[i] = float64(v.States[i].Present())
		}
	}
	return dispatch.Decision{Tier: p.tree.decide(p.keys, nil, v.Changed, v.Tracked, p.rng)}
}

// JSQS is shortest expected delay (SED), JSQ made aware of speed, servers and
// delay: argmin_i D̄_i + (q_i + b_i + 1)/(c_i μ_i), the mean delay plus the
// time for the tier's full capacity to clear everyone present and this task;
// ties uniformly at random. Its keys sit in a tournament tree, as JSQ's.
type JSQS struct {
	delay  []float64 // D̄_i
	invCap []float64 // 1/(c_i μ_i)
	rng    *rand.Rand
	tree   minTree
	keys   []float64
}

// NewJSQS returns a jsq-s policy for these tiers, drawing ties from rng.
func NewJSQS(tiers []dispatch.Tier, rng *rand.Rand) *JSQS {
	p := &JSQS{delay: make([]float64, len(tiers)), invCap: make([]float64, len(tiers)), rng: rng, keys: make([]float64, len(tiers))}
	for i, t := range tiers {
		p.delay[i] = t.MeanDelay
		p.invCap[i] = 1 / (float64(t.Servers) * t.Mu)
	}
	return p
}

// Decide implements dispatch.Policy.
func (p *JSQS) Decide(v *dispatch.View) dispatch.Decision {
	if p.tree.all(v.Tracked, len(p.keys)) {
		for i := range p.keys {
			p.keys[i] = p.delay[i] + float64(v.States[i].Present()+1)*p.invCap[i]
		}
	} else {
		for _, i := range v.Changed {
			p.keys[i] = p.delay[i] + float64(v.States[i].Present()+1)*p.invCap[i]
		}
	}
	return dispatch.Decision{Tier: p.tree.decide(p.keys, nil, v.Changed, v.Tracked, p.rng)}
}

// EdgeFirst always sends to the first tier of kind edge, whatever the state.
type EdgeFirst struct{ tier int }

// NewEdgeFirst returns an edge-first policy, or an error when no tier is an
// edge tier.
func NewEdgeFirst(tiers []dispatch.Tier) (*EdgeFirst, error) {
	for i, t := range tiers {
		if t.Kind == dispatch.Edge {
			return &EdgeFirst{tier: i}, nil
		}
	}
	return nil, fmt.Errorf("policy %q: the scenario has no edge tier", NameEdgeFirst)
}

// The registry's constructors: one signature for every policy. Each returns
// an untyped nil policy with its error, never a typed nil.

func newJSQ(b Build) (dispatch.Policy, error)  { return NewJSQ(b.Rand), nil }
func newJSQS(b Build) (dispatch.Policy, error) { return NewJSQS(b.Tiers, b.Rand), nil }
func newRandom(b Build) (dispatch.Policy, error) {
	return NewRandom(len(b.Tiers), b.Rand), nil
}
func newOracle(b Build) (dispatch.Policy, error) { return NewOracle(b.Rand), nil }

func newEdgeFirst(b Build) (dispatch.Policy, error) {
	p, err := NewEdgeFirst(b.Tiers)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Blind implements dispatch.Blind: the tier is fixed.
func (*EdgeFirst) Blind() {}

// Decide implements dispatch.Policy.
func (p *EdgeFirst) Decide(*dispatch.View) dispatch.Decision { return dispatch.Decision{Tier: p.tier} }

// Random sends each task to a tier drawn uniformly, whatever the state.
type Random struct {
	n   int
	rng *rand.Rand
}

// NewRandom returns a policy choosing uniformly among n tiers with rng.
func NewRandom(n int, rng *rand.Rand) *Random { return &Random{n: n, rng: rng} }

// Blind implements dispatch.Blind: the draw ignores the state.
func (*Random) Blind() {}

// Decide implements dispatch.Policy.
func (p *Random) Decide(*dispatch.View) dispatch.Decision {
	return dispatch.Decision{Tier: p.rng.IntN(p.n)}
}
