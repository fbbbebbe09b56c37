package estimators

import "testing"

// BenchmarkModelWait is the cost of one uncached W^model (one Erlang-B step
// per server), what an Estimator pays on a memo miss.
func BenchmarkModelWait(b *testing.B) {
	for _, c := range []int{1, 4, 64, 256} {
		b.Run(map[int]string{1: "c=1", 4: "c=4", 64: "c=64", 256: "c=256"}[c], func(b *testing.B) {
			mu, lam := 50.0, 0.0
			for b.Loop() {
				lam += 1e-3
				if lam > 0.9*float64(c)*mu {
					lam = 0
				}
				_ = ModelWait(c, lam, mu, 0.8, 0.99)
			}
		})
	}
}
