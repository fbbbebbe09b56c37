package lb

import (
	"math"
	"testing"
)

// The alias table gives each tier its probability exactly, up to
// rounding: column i's share prob[i]/n plus the shares (1 − prob[j])/n of
// the columns j whose alias it is. Tiers of probability 0 get nothing at
// all, with splits of one to 200 tiers, some of them 0, one of them most
// of the mass.
func TestAliasTableGivesEachTierItsProbability(t *testing.T) {
	r := newRNG(8)
	for k := range 2000 {
		n := 1 + r.IntN(200)
		p := make([]float64, n)
		sum := 0.0
		for i := range p {
			if r.IntN(4) > 0 {
				p[i] = r.ExpFloat64()
				if i == k%n {
					p[i] *= 1000
				}
			}
		}
		p[r.IntN(n)] += 0.1 // one positive at least
		for _, x := range p {
			sum += x
		}
		for i := range p {
			p[i] /= sum
		}
		prob, alias := AliasTable(p)
		got := make([]float64, n)
		for j := range prob {
			if prob[j] < 0 || prob[j] > 1 {
				t.Fatalf("column %d: probability %v", j, prob[j])
			}
			got[j] += prob[j] / float64(n)
			got[alias[j]] += (1 - prob[j]) / float64(n)
		}
		for i := range p {
			if p[i] == 0 && got[i] != 0 || math.Abs(got[i]-p[i]) > 1e-12 {
				t.Fatalf("%d tiers: tier %d given %v, want %v", n, i, got[i], p[i])
			}
		}
	}
}
