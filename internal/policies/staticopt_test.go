package policies

import (
	"testing"
	"unsafe"
)

// TestStaticOptIsOneLine: what static-opt's decision reads of itself (the
// generator, the tier count, a table of up to smallSplit tiers) lies in
// its first 64 bytes, and the value is 128 bytes, the size class whose
// objects start on a cache line.
func TestStaticOptIsOneLine(t *testing.T) {
	var s staticOpt
	if end := unsafe.Offsetof(s.n) + unsafe.Sizeof(s.n); end > 64 || unsafe.Offsetof(s.small) >= 64 || unsafe.Offsetof(s.rng) >= 64 {
		t.Errorf("a decision's fields end at byte %d, past the first line", end)
	}
	if size := unsafe.Sizeof(s); size != 128 {
		t.Errorf("staticOpt is %d bytes, want 128", size)
	}
	for _, n := range []int{1, smallSplit, smallSplit + 1} {
		tiers := identicalTiers(n)
		p := newStaticOpt(tiers, 1, newRNG(1))
		if len(p.cols) != n || n <= smallSplit && &p.cols[0] != &p.small[0] {
			t.Errorf("%d tiers: a table of %d columns, in the value %v", n, len(p.cols), n <= smallSplit)
		}
	}
}
