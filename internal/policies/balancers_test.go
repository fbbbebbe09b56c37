package policies

import (
	"slices"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/lb"
)

// balancerNames are the production balancers' policies.
var balancerNames = []string{NameRoundRobin, NameWeightedRR, NameLeastConn, NameP2C, NameLeastRequest, nameEWMA, NamePeakEWMA, NamePrequal}

func makeBalancer(t testing.TB, name string, tiers []dispatch.Tier, opts map[string]any, seed uint64) dispatch.Policy {
	t.Helper()
	p, err := Make(Entry{Name: name, Options: opts}, fullBuild(tiers, seed))
	if err != nil {
		t.Fatalf("%s %v: %v", name, opts, err)
	}
	return p
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

// Round-robin is cyclic from tier 0; balancer d of k (Build.Device of
// Build.Devices) starts at ⌊d·n/k⌋.
func TestRoundRobinCyclesFromItsStart(t *testing.T) {
	tiers := identicalTiers(4)
	v := view(0, tiers, make([]dispatch.State, 4)...)
	if got := decideN(makeBalancer(t, NameRoundRobin, tiers, nil, 1), v, 9); !slices.Equal(got, []int{0, 1, 2, 3, 0, 1, 2, 3, 0}) {
		t.Errorf("one balancer: %v", got)
	}
	for _, c := range []struct{ d, k, n, want int }{{0, 1, 4, 0}, {1, 2, 4, 2}, {1, 3, 10, 3}, {2, 3, 10, 6}, {5, 8, 4, 2}, {7, 100, 10, 0}} {
		b := fullBuild(identicalTiers(c.n), 1)
		b.Device, b.Devices = c.d, c.k
		p, err := Make(Entry{Name: NameRoundRobin}, b)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Decide(view(0, b.Tiers, make([]dispatch.State, c.n)...)).Tier; got != c.want {
			t.Errorf("balancer %d of %d over %d tiers starts at %d, want %d", c.d, c.k, c.n, got, c.want)
		}
	}
}

// Its default weights are the tiers' capacities as internal/balancer
// makes them integers: 1×10, 4×25 and 64×50 are 10, 100 and 3200, 1, 10
// and 320 after their common divisor, and, 320 being above HAProxy's 256,
// scaled to 1, 8 and 256; every cycle of 265 requests gives each its
// weight.
func TestWeightedRoundRobinCapacityWeights(t *testing.T) {
	tiers := threeTiers()
	p := makeBalancer(t, NameWeightedRR, tiers, nil, 1)
	counts := make([]int, 3)
	for _, i := range decideN(p, view(0, tiers, make([]dispatch.State, 3)...), 265*3) {
		counts[i]++
	}
	if want := []int{3, 24, 768}; !slices.Equal(counts, want) {
		t.Errorf("tiers %+v: counts %v over three cycles, want %v", tiers, counts, want)
	}
	q := makeBalancer(t, NameWeightedRR, tiers, map[string]any{"weights": []any{1, 1, 2}}, 1)
	if got := decideN(q, view(0, tiers, make([]dispatch.State, 3)...), 8); !slices.Equal(got, []int{2, 0, 1, 2, 2, 0, 1, 2}) {
		t.Errorf("weights 1, 1, 2: %v", got)
	}
	if _, err := Make(Entry{Name: NameWeightedRR, Options: map[string]any{"weights": []any{1, 2}}}, fullBuild(tiers, 1)); err == nil {
		t.Error("two weights for three tiers: no error")
	}
}

// The registry's options reach internal/lb's algorithms: each entry makes
// the decisions of the algorithm built directly with what its options say.
func TestBalancerOptionsReachTheAlgorithm(t *testing.T) {
	tiers := threeTiers()
	pc := lb.DefaultPrequal()
	pc.Probes, pc.Pool, pc.MaxAge, pc.Remove, pc.Reuse = 2, 3, 0.5, 0, 4
	pc.QRIF, pc.History, pc.Samples, pc.Window = 0.5, 8, 4, 2
	for _, c := range []struct {
		name string
		opts map[string]any
		want dispatch.Policy
	}{
		{NameP2C, map[string]any{"choices": 3, "draws": "haproxy"}, lb.NewP2C([]int{1, 1, 1}, 3, lb.DrawHAProxy, newRNG(5))},
		{NameP2C, map[string]any{"draws": "distinct", "weights": []any{1, 2, 3}}, lb.NewP2C([]int{1, 2, 3}, 2, lb.DrawDistinct, newRNG(5))},
		{NameLeastRequest, map[string]any{"choices": 3, "bias": 2, "weights": []any{1, 2, 3}}, lb.NewLeastRequest([]int{1, 2, 3}, 3, 2, newRNG(5))},
		{NameLeastConn, map[string]any{"weights": []any{1, 2, 3}}, lb.NewLeastConn([]int{1, 2, 3})},
		{NamePeakEWMA, map[string]any{"decay": 2, "default_rtt": 0.03}, lb.NewEWMA(3, true, 2, 0.03, newRNG(5))},
		{nameEWMA, nil, lb.NewEWMA(3, false, 10, 0, newRNG(5))},
		{NamePrequal, map[string]any{"probes": 2, "pool": 3, "max_age": 0.5, "remove": 0, "reuse": 4,
			"q_rif": 0.5, "rif_history": 8, "latency_samples": 4, "latency_window": 2}, lb.NewPrequal(tiers, pc, newRNG(5))},
	} {
		got := makeBalancer(t, c.name, tiers, c.opts, 5)
		for k := range 2000 {
			v := view(float64(k)*0.01, tiers, dispatch.State{Busy: k % 3}, dispatch.State{Queued: k % 5}, dispatch.State{})
			a, b := got.Decide(v).Tier, c.want.Decide(v).Tier
			if a != b {
				t.Fatalf("%s %v, decision %d: tier %d, the algorithm's %d", c.name, c.opts, k, a, b)
			}
			if k%2 == 1 {
				done(got, a, v.Now, 0.05*float64(a+1))
				done(c.want, b, v.Now, 0.05*float64(b+1))
			}
		}
	}
}
