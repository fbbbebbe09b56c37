package estimators

import (
	"fmt"
	"math"
	"testing"
)

// BenchmarkModelWait is the cost of one uncached W^model, what an
// Estimator pays on a memo miss: one Erlang-B step per server up to
// recursionServers, beyond it O(√c) terms at most (invErlangBLarge). ρ
// runs from 0 to 0.9 and over again.
func BenchmarkModelWait(b *testing.B) {
	for _, c := range []int{1, 4, 64, 256, 257, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			mu, lam := 50.0, 0.0
			for b.Loop() {
				lam += 1e-3 * float64(c) // ρ through [0, 0.9] in 45,000 steps at every c
				if lam > 0.9*float64(c)*mu {
					lam = 0
				}
				_ = ModelWait(c, lam, mu, 0.8, 0.99)
			}
		})
	}
}

// BenchmarkErlangB is one Erlang B at a fixed load, either side of
// recursionServers: at 256 servers by the recursion, beyond by the sums,
// whose length depends on ρ (at 10⁴ servers and ρ = 0.5, B is below the
// float range and the sums do not run at all). BenchmarkModelWait's sweep
// over ρ mixes these.
func BenchmarkErlangB(b *testing.B) {
	for _, c := range []int{256, 257, 10000, 100000} {
		for _, rho := range []float64{0.5, 0.9, 0.99} {
			b.Run(fmt.Sprintf("c=%d/rho=%g", c, rho), func(b *testing.B) {
				a := rho * float64(c)
				for b.Loop() {
					a = math.Nextafter(a, 0) // a new load each time, as a memo miss is
					_ = ErlangB(c, a)
				}
			})
		}
	}
}
