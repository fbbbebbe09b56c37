package lb

import (
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
)

func threeTiers() []dispatch.Tier { return dispatchtest.ThreeTiers(64) }

func identicalTiers(n int) []dispatch.Tier {
	ts := make([]dispatch.Tier, n)
	for i := range ts {
		ts[i] = dispatch.Tier{Name: "t", Kind: dispatch.Edge, Servers: 2, Speed: 10, Mu: 10, MeanDelay: 0.01, Cs2: 0.8}
	}
	return ts
}

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func view(now float64, tiers []dispatch.Tier, states ...dispatch.State) *dispatch.View {
	return &dispatch.View{Now: now, Tiers: tiers, States: states}
}

func decideN(p dispatch.Policy, v *dispatch.View, n int) []int {
	out := make([]int, n)
	for k := range out {
		out[k] = p.Decide(v).Tier
	}
	return out
}

func done(p dispatch.Policy, tier int, now, latency float64) {
	p.(dispatch.Feedback).Done(&dispatch.Completion{Tier: tier, Now: now, Latency: latency, Service: latency})
}
