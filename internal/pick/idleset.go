package pick

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// IdleSet is jiq's idle list: the tiers offered (idle), with MinTree's
// rule over fixed keys (the smallest key, ties uniformly at random by one
// draw r of rng.IntN(ties) and the r-th tied tier in index order; NaN last
// and never drawn among), at O(1) a change and a decision that scans a
// count per 512 tiers, not O(log n) of a tree.
//
// The keys do not change (D̄ + 1/μ), so the tiers are laid out once in
// the order of (key, index), NaN last: each key's tiers take a run of
// places, in index order. A bit a place says the tier there is offered,
// with the bits counted per block of blockBits places and per key. The
// first offered place is in the run of the smallest offered key, every
// place before it is empty, so the r-th offered tier of that key is the
// r-th offered place of the whole set: a scan of the block counts, then
// of at most blockBits/64 words, then a select within one word.
//
// What a decision reads sits together (a place's tier and run, a run's
// count and NaN flag), so that with many tiers, whose states push the
// set out of the nearer caches between decisions, it misses few lines.
type IdleSet struct {
	on    []bool   // on[i]: tier i is offered
	place []int32  // place[i]: tier i's place in the order by (key, index)
	at    []spot   // at[r]: the tier at place r and its run
	runs  []keyRun // the runs of equal keys, in key order
	bits  []uint64 // bit r: the tier at place r is offered
	block []int32  // offered places in each block of blockBits
	n     int      // offered tiers in all
}

// spot is a place of the order: its tier and the run of its key.
type spot struct{ tier, run int32 }

// keyRun is the places of one key: how many of them are offered, and
// whether the key is NaN (no draw among its tiers).
type keyRun struct {
	ties int32
	nan  bool
}

// blockBits is the places a block count covers: at a thousand tiers, two
// counts and eight words a decision, and twenty counts at 10⁴.
const (
	blockBits  = 512
	blockWords = blockBits / 64
)

// NewIdleSet is an empty set over tiers of these keys.
func NewIdleSet(keys []float64) *IdleSet {
	n := len(keys)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	// By key, NaN last; equal keys (+0 and −0 among them) by index.
	slices.SortStableFunc(order, func(a, b int32) int {
		x, y := keys[a], keys[b]
		switch {
		case treeLess(x, y):
			return -1
		case treeLess(y, x):
			return 1
		}
		return cmp.Compare(a, b)
	})
	s := &IdleSet{on: make([]bool, n), place: make([]int32, n), at: make([]spot, n),
		bits: make([]uint64, (n+63)/64), block: make([]int32, (n+blockBits-1)/blockBits)}
	for r, i := range order {
		s.place[i] = int32(r)
		if r == 0 || !treeSame(keys[order[r-1]], keys[i]) {
			s.runs = append(s.runs, keyRun{nan: math.IsNaN(keys[i])})
		}
		s.at[r] = spot{i, int32(len(s.runs) - 1)}
	}
	return s
}

// Add offers tier i (it went idle): O(1).
func (s *IdleSet) Add(i int) {
	if s.on[i] {
		return
	}
	s.on[i] = true
	r := s.place[i]
	s.bits[r>>6] |= 1 << (r & 63)
	s.block[r/blockBits]++
	s.runs[s.at[r].run].ties++
	s.n++
}

// Remove withdraws tier i (it filled): O(1).
func (s *IdleSet) Remove(i int) {
	if !s.on[i] {
		return
	}
	s.on[i] = false
	r := s.place[i]
	s.bits[r>>6] &^= 1 << (r & 63)
	s.block[r/blockBits]--
	s.runs[s.at[r].run].ties--
	s.n--
}

// On is the offered flags, tier i's at i. A caller may write it whole
// (a view read at once), then must call Rebuild before Add, Remove or
// Pick; meanwhile it is a present slice for Scan.
func (s *IdleSet) On() []bool { return s.on }

// Rebuild sets the bits and counts from On, after it was written whole:
// O(n).
func (s *IdleSet) Rebuild() {
	clear(s.bits)
	clear(s.block)
	for k := range s.runs {
		s.runs[k].ties = 0
	}
	s.n = 0
	for i, o := range s.on {
		if o {
			s.on[i] = false
			s.Add(i)
		}
	}
}

// Pick is the offered tier of the smallest key, ties uniformly at random
// (see IdleSet); −1 when none is offered. O(1) of the changes, and a
// scan of a count per blockBits places.
func (s *IdleSet) Pick(rng *rand.Rand) int {
	if s.n == 0 {
		return -1
	}
	first := &s.at[s.first()]
	k := &s.runs[first.run]
	if k.ties <= 1 || k.nan {
		return int(first.tier)
	}
	r := rng.IntN(int(k.ties))
	if r == 0 {
		return int(first.tier)
	}
	return int(s.at[s.nth(r)].tier)
}

// first is the first offered place (n > 0), nth(0) by the first block and
// word that are not empty.
func (s *IdleSet) first() int {
	b := 0
	for s.block[b] == 0 {
		b++
	}
	w := b * blockWords
	for s.bits[w] == 0 {
		w++
	}
	return w*64 + bits.TrailingZeros64(s.bits[w])
}

// nth is the place of the r-th offered tier in place order (r below n):
// the block by its count, then the word and the bit without a branch on
// the data, which a predictor could not guess for a uniform r.
func (s *IdleSet) nth(r int) int {
	b := 0
	for r >= int(s.block[b]) {
		r -= int(s.block[b])
		b++
	}
	words := s.bits[b*blockWords : min(len(s.bits), (b+1)*blockWords)]
	// k: the words of the block whose offered places up to their end are
	// at most r, the r-th being in the word after them; before: those
	// places.
	k, before, acc := 0, 0, 0
	for _, x := range words {
		c := bits.OnesCount64(x)
		acc += c
		in := int(uint64(r-acc)>>63) ^ 1 // acc ≤ r
		k += in
		before += c * in
	}
	return (b*blockWords+k)*64 + selectBit(words[k], r-before)
}

// selectBit is the index of the r-th set bit of x (r below its count):
// the byte by its running counts (the bytes' popcounts summed by one
// multiplication, compared with r all at once), then at most seven lowest
// bits cleared within it.
func selectBit(x uint64, r int) int {
	const l8, h8 = 0x0101010101010101, 0x8080808080808080
	c := x - (x>>1)&0x5555555555555555
	c = c&0x3333333333333333 + (c>>2)&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	cum := c * l8 // byte j: the set bits of bytes 0 to j
	// Byte j of (r|0x80) − cum keeps its high bit when cum_j ≤ r (no
	// borrow crosses bytes: r < 64 and cum_j ≤ 64).
	k := bits.OnesCount64((uint64(r)*l8 | h8 - cum) & h8)
	r -= int(cum << 8 >> (8 * k) & 0xff)
	y := x >> (8 * k) & 0xff
	for ; r > 0; r-- {
		y &= y - 1
	}
	return 8*k + bits.TrailingZeros64(y)
}
