package pick

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The idle set's Pick is MinTree's rule by a scan (bruteMin), draw for
// draw, after every tier offered or withdrawn one at a time and after a
// Rebuild from on: keys from a small set of values (many ties, +0 and −0
// tied), NaN and +Inf among them, at sizes below a word, across words and
// across blocks, and with every key alike.
func TestIdleSetIsTheScan(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, 1, 2, math.Inf(1), math.NaN()}
	for _, n := range []int{1, 2, 3, 63, 64, 65, 100, 511, 513, 1500} {
		for _, alike := range []bool{false, true} {
			gen := rand.New(rand.NewPCG(uint64(n), 1))
			keys, present := make([]float64, n), make([]bool, n)
			for i := range n {
				keys[i] = vals[gen.IntN(len(vals))]
				if alike {
					keys[i] = 0.105
				}
			}
			s := NewIdleSet(keys)
			a, b := rand.New(rand.NewPCG(9, uint64(n))), rand.New(rand.NewPCG(9, uint64(n)))
			for step := range 4000 {
				want := bruteMin(keys, present, b)
				if got := s.Pick(a); got != want {
					t.Fatalf("n %d, alike %v, step %d: pick %d, scan %d", n, alike, step, got, want)
				}
				i := gen.IntN(n)
				if present[i] = gen.IntN(3) > 0; present[i] {
					s.Add(i)
				} else {
					s.Remove(i)
				}
				if step%700 == 0 { // written whole, then rebuilt
					for j := range n {
						present[j] = gen.IntN(4) > 0
						s.on[j] = present[j]
					}
					s.Rebuild()
				}
			}
		}
	}
}

// selectBit is the r-th set bit, against clearing the lowest bits one by
// one, over words of every density.
func TestSelectBit(t *testing.T) {
	gen := rand.New(rand.NewPCG(3, 3))
	for range 20000 {
		x := gen.Uint64()
		switch gen.IntN(3) {
		case 0:
			x &= gen.Uint64() & gen.Uint64()
		case 1:
			x |= gen.Uint64()
		}
		if x == 0 {
			continue
		}
		y := x
		for r := 0; y != 0; r++ {
			want := 0
			for ; y&(1<<want) == 0; want++ {
			}
			if got := selectBit(x, r); got != want {
				t.Fatalf("selectBit(%#x, %d) = %d, want %d", x, r, got, want)
			}
			y &= y - 1
		}
	}
}

// BenchmarkIdleSetPick offers and withdraws a tier of 1,000 alike and
// picks: what a tracked jiq decision costs a tier that changed.
func BenchmarkIdleSetPick(b *testing.B) {
	keys := make([]float64, 1000)
	for i := range keys {
		keys[i] = 0.105
	}
	s := NewIdleSet(keys)
	for i := range keys {
		s.Add(i)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for k := range b.N {
		s.Remove(k % 1000)
		_ = s.Pick(rng)
		s.Add(k % 1000)
	}
}
