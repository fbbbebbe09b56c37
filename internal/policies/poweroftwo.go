package policies

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy  = (*powerOfD)(nil)
	_ dispatch.Sampler = (*powerOfD)(nil)
)

// powerOfD samples d distinct tiers uniformly and sends the task to the
// best of them on the observed state: by default the shortest expected
// delay D̄ + (q + b + 1)/(cμ) (as jsq-s, over the sample), or with index
// count the fewest present, q + b (jsq-d, the supermarket model's rule:
// Mitzenmacher, "The power of two choices in randomized load balancing",
// IEEE TPDS 12(10), 2001). Ties at random. With d ≥ the tier count it is
// jsq-s (or jsq). Sampling only d tiers is what keeps it from herding on a
// stale board: two dispatchers rarely sample the same apparently-idle tier
// (Mitzenmacher, "How useful is old information?", IEEE TPDS 11(1), 2000).
type powerOfD struct {
	d      int
	count  bool
	delay  []float64
	invCap []float64
	idx    []int // a permutation of the tiers; its first d are the sample
	rng    *rand.Rand
}

// Decide implements dispatch.Policy.
func (p *powerOfD) Decide(v *dispatch.View) dispatch.Decision {
	n := len(p.idx)
	d := min(p.d, n)
	// A partial Fisher–Yates shuffle: d distinct uniform tiers, no allocation.
	for k := range d {
		j := k + p.rng.IntN(n-k)
		p.idx[k], p.idx[j] = p.idx[j], p.idx[k]
	}
	var m argmin
	for _, i := range p.idx[:d] {
		s := v.State(i)
		score := float64(s.Present())
		if !p.count {
			score = p.delay[i] + float64(s.Present()+1)*p.invCap[i]
		}
		m.offer(i, score, p.rng)
	}
	return dispatch.Decision{Tier: m.best}
}

// Sampler implements dispatch.Sampler: it reads the d tiers of its
// sample, through View.State.
func (*powerOfD) Sampler() {}

func buildPowerOfD(b Build) (dispatch.Policy, error) {
	n := len(b.Tiers)
	p := &powerOfD{d: b.options.Int("d", 2), count: b.options.String("index", "sed") == "count",
		delay: make([]float64, n), invCap: make([]float64, n), idx: make([]int, n), rng: b.Rand}
	for i, t := range b.Tiers {
		p.delay[i] = t.MeanDelay
		p.invCap[i] = 1 / (float64(t.Servers) * t.Mu)
		p.idx[i] = i
	}
	return p, nil
}

// NamePowerOfD and NameHybridAge are the registry names of the policies
// added beyond the paper's eight.
const (
	NamePowerOfD  = "power-of-d"
	NameHybridAge = "hybrid-age"
)

func powerOfDSpec() Spec {
	return Spec{Name: NamePowerOfD, summary: "best of d sampled tiers on the observed state: shortest expected delay, or fewest present (index: count)",
		options: []option{
			{Name: "d", Doc: "tiers sampled per decision (default 2)", Check: integer(1, 1000)},
			{Name: "index", Doc: "sed (D̄ + (q+b+1)/(cμ), the default) or count (q + b)", Check: oneOf("sed", "count")},
		},
		construct: buildPowerOfD}
}
