package policies

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/dispatch/dispatchtest"
	"github.com/offload-sim/offload/internal/workload"
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

// paretoSizes is the default continuum's size law, Pareto α = 2.5 of mean 1.
func paretoSizes() workload.Dist {
	d, err := workload.New("pareto", 1, 2.5, 0)
	if err != nil {
		panic(err)
	}
	return d
}

// fullBuild is a Build with everything a policy may read: the default
// parameters, Pareto sizes and 60 tasks/s.
func fullBuild(tiers []dispatch.Tier, seed uint64) Build {
	return Build{Tiers: tiers, Params: DefaultParams(), Rand: newRNG(seed), Sizes: paretoSizes(), Rate: 60}
}

func mustNew(t testing.TB, name string, tiers []dispatch.Tier, p Params, seed uint64) dispatch.Policy {
	t.Helper()
	b := fullBuild(tiers, seed)
	b.Params = p
	pol, err := Make(Entry{Name: name}, b)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	return pol
}

func view(now float64, tiers []dispatch.Tier, states ...dispatch.State) *dispatch.View {
	return &dispatch.View{Now: now, Tiers: tiers, States: states}
}

// feed tells o of n dispatches to tier spread evenly over (from, to].
func feed(o dispatch.Observer, tier, n int, from, to float64) {
	for k := 1; k <= n; k++ {
		o.Dispatched(from+(to-from)*float64(k)/float64(n), tier)
	}
}

// fakeOracle returns fixed completion times.
type fakeOracle struct{ done []float64 }

func (f *fakeOracle) TaskSize() float64        { return 1 }
func (f *fakeOracle) Completion(i int) float64 { return f.done[i] }

// checkUniform fails unless counts look like n draws spread evenly over
// len(counts) choices, within 5 standard deviations.
func checkUniform(t *testing.T, what string, counts []int) {
	t.Helper()
	n := 0
	for _, c := range counts {
		n += c
	}
	p := 1 / float64(len(counts))
	mean, sd := float64(n)*p, math.Sqrt(float64(n)*p*(1-p))
	for i, c := range counts {
		if math.Abs(float64(c)-mean) > 5*sd {
			t.Errorf("%s: tier %d chosen %d times of %d, want %.0f ± %.0f (5σ); counts %v", what, i, c, n, mean, 5*sd, counts)
		}
	}
}
