package lb

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/balancer"
	"github.com/offload-sim/offload/internal/dispatch"
)

// draws: haproxy draws each tier with the chance of HAProxy's hash ring:
// with one choice, the shares are those chances, to the sampling error.
func TestP2CDrawsHAProxy(t *testing.T) {
	tiers := identicalTiers(10)
	p := NewP2C([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 1, DrawHAProxy, newRNG(1))
	want := balancer.HAProxyRandomShares([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	const n = 200000
	got := make([]float64, len(tiers))
	v := &dispatch.View{Tiers: tiers, States: make([]dispatch.State, len(tiers))}
	for range n {
		got[p.Decide(v).Tier]++
	}
	for i := range got {
		got[i] /= n
		if se := math.Sqrt(want[i] * (1 - want[i]) / n); math.Abs(got[i]-want[i]) > 5*se {
			t.Errorf("tier %d: share %.4f, want %.4f ± %.4f", i, got[i], want[i], 5*se)
		}
	}
}

// draws: distinct draws two different tiers, as nginx's random two: of two
// tiers, the one with fewer outstanding always wins, where independent
// draws send a quarter of the tasks to the busier one (both draws on it).
func TestP2CDrawsDistinct(t *testing.T) {
	tiers := identicalTiers(2)
	for _, c := range []struct {
		draws Draws
		want  float64 // share to the busier tier
	}{{DrawDistinct, 0}, {DrawWeights, 0.25}} {
		p := NewP2C([]int{1, 1}, 2, c.draws, newRNG(1)).(*p2c)
		v := &dispatch.View{Tiers: tiers, States: make([]dispatch.State, len(tiers))}
		const n = 40000
		busy := 0
		for range n {
			p.active[0], p.active[1] = 5, 0
			if p.Decide(v).Tier == 0 {
				busy++
			}
		}
		if got := float64(busy) / n; math.Abs(got-c.want) > 0.01 {
			t.Errorf("draws %d: %.3f to the busier tier, want %.2f", c.draws, got, c.want)
		}
	}
}
