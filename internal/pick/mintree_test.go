package pick

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMin is MinTree.Pick by a scan: the present keys' minimum, the tied
// indices in order, and the r-th of them for r drawn as Pick draws it.
func bruteMin(keys []float64, present []bool, rng *rand.Rand) int {
	var tied []int
	best := math.NaN()
	for i, x := range keys {
		if !present[i] {
			continue
		}
		switch {
		case len(tied) == 0 || treeLess(x, best):
			best, tied = x, []int{i}
		case treeSame(x, best):
			tied = append(tied, i)
		}
	}
	switch {
	case len(tied) == 0:
		return -1
	case len(tied) == 1 || math.IsNaN(best):
		return tied[0]
	}
	return tied[rng.IntN(len(tied))]
}

// The tree's pick is the scan's, draw for draw, after every change of a
// key made one at a time (set, unset) or many then built: keys from a
// small set of values (many ties), absent leaves, NaN and +Inf among
// them, at sizes that are and are not powers of two.
func TestMinTreeIsTheScan(t *testing.T) {
	vals := []float64{0, 1, 1, 2, 2, 2, math.Inf(1), math.NaN()}
	for _, n := range []int{1, 2, 3, 5, 8, 13, 64, 100} {
		gen := rand.New(rand.NewPCG(uint64(n), 1))
		keys, present := make([]float64, n), make([]bool, n)
		var tr MinTree
		tr.Reset(n)
		for i := range n {
			keys[i], present[i] = vals[gen.IntN(len(vals))], gen.IntN(5) > 0
			if present[i] {
				tr.Put(i, keys[i])
			}
		}
		tr.Build()
		a, b, c := rand.New(rand.NewPCG(9, uint64(n))), rand.New(rand.NewPCG(9, uint64(n))), rand.New(rand.NewPCG(9, uint64(n)))
		for step := range 3000 {
			want := bruteMin(keys, present, b)
			if got := tr.Pick(a); got != want {
				t.Fatalf("n %d, step %d: pick %d, scan %d (keys %v, present %v)", n, step, got, want, keys, present)
			}
			if got := Scan(keys, present, c); got != want {
				t.Fatalf("n %d, step %d: Scan %d, scan %d (keys %v, present %v)", n, step, got, want, keys, present)
			}
			i := gen.IntN(n)
			if present[i] = gen.IntN(6) > 0; present[i] {
				keys[i] = vals[gen.IntN(len(vals))]
				tr.Set(i, keys[i])
			} else {
				tr.Unset(i)
			}
			if step%500 == 0 { // all at once, then one build
				for j := range n {
					if present[j] {
						tr.Put(j, keys[j])
					} else {
						tr.drop(j)
					}
				}
				tr.Build()
			}
		}
	}
}

// Ties are uniform: five tied leaves among twelve are each picked a fifth
// of the time, to a chi-square bound (4 degrees of freedom, p ≈ 10⁻⁶ at
// 35), and the others never.
func TestMinTreeTiesAreUniform(t *testing.T) {
	var tr MinTree
	tr.Reset(12)
	for i := range 12 {
		tr.Put(i, float64(1+i%3))
	}
	for _, i := range []int{0, 3, 6, 9} {
		tr.Put(i, 0.5)
	}
	tr.Put(11, 0.5)
	tr.Build()
	if tr.ties() != 5 {
		t.Fatalf("ties %d, want 5", tr.ties())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 50000
	got := map[int]int{}
	for range n {
		got[tr.Pick(rng)]++
	}
	var chi float64
	for _, i := range []int{0, 3, 6, 9, 11} {
		d := float64(got[i]) - n/5.0
		chi += d * d / (n / 5.0)
		delete(got, i)
	}
	if chi > 35 || len(got) > 0 {
		t.Errorf("χ² %v over the tied leaves; others picked %v", chi, got)
	}
}

// BenchmarkMinTreeSet changes one key of a tree of 1,000 and picks: what a
// tracked decision costs a tree policy per changed tier.
func BenchmarkMinTreeSet(b *testing.B) {
	var tr MinTree
	tr.Reset(1000)
	for i := range 1000 {
		tr.Put(i, float64(i%7))
	}
	tr.Build()
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for k := range b.N {
		tr.Set(k%1000, float64(k%7))
		_ = tr.Pick(rng)
	}
}
