package workload

import (
	"fmt"
	"math"
	"testing"
)

// The closed-form partial moments against a numerical integral of
// x^k·f(x), computed from the CDF by the midpoint rule in quantile space
// (∫ x^k dF = ∫₀¹ Q(p)^k dp), for every family.
func TestPartialMomentsAgainstQuadrature(t *testing.T) {
	dists := map[string]Dist{}
	for _, c := range []struct {
		kind        string
		mean, a, cv float64
	}{{"pareto", 1, 4.5, 0}, {"pareto", 2, 2.5, 0}, {"exponential", 0.5, 0, 0}, {"lognormal", 1, 0, 1.5}, {"lognormal", 3, 0, 0.3}} {
		d, err := New(c.kind, c.mean, c.a, c.cv)
		if err != nil {
			t.Fatal(err)
		}
		dists[fmt.Sprintf("%s(mean %g)", c.kind, c.mean)] = d
	}
	for name, d := range dists {
		for _, pq := range [][2]float64{{0, 0.3}, {0.3, 0.9}, {0.2, 0.6}, {0.9, 0.99}} {
			a, b := d.Quantile(pq[0]), d.Quantile(pq[1])
			if pq[0] == 0 {
				a = 0
			}
			for k := range 3 {
				const n = 50000
				var want float64
				for j := range n {
					p := pq[0] + (pq[1]-pq[0])*(float64(j)+0.5)/n
					want += math.Pow(d.Quantile(p), float64(k))
				}
				want *= (pq[1] - pq[0]) / n
				if got := d.PartialMoment(k, a, b); math.Abs(got-want) > 1e-6*math.Max(want, 1e-3) {
					t.Errorf("%s: E[X^%d; %g < X ≤ %g] = %.12g, quadrature %.12g", name, k, a, b, got, want)
				}
			}
		}
		if m := d.Moment(1); math.Abs(m-d.Mean()) > 1e-12*d.Mean() {
			t.Errorf("%s: Moment(1) = %v, mean %v", name, m, d.Mean())
		}
		if m2 := d.Moment(2); math.Abs(m2/(d.Mean()*d.Mean())-1-d.Cs2()) > 1e-9 {
			t.Errorf("%s: Moment(2) = %v, want (1 + C_s²)·mean² = %v", name, m2, (1+d.Cs2())*d.Mean()*d.Mean())
		}
		for _, w := range []float64{0.01, 0.3, 0.5, 0.9, 0.999} {
			x := d.WorkQuantile(w)
			if got := d.PartialMoment(1, 0, x) / d.Mean(); math.Abs(got-w) > 1e-9 {
				t.Errorf("%s: work below WorkQuantile(%g) = %g is %.12g of the work", name, w, x, got)
			}
		}
	}
}
