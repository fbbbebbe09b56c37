package workload

import (
	"math/bits"
	"math/rand/v2"
)

// Keyed is a counter-based random stream: the draws of the pair (task,
// tier) are a function of the stream's key and of the pair alone, so that
// they can be drawn in any order, or not at all, and are the same whenever
// they are drawn. The delay stream is one (docs/design.md §1.8): the delay
// of a device's task n to tier i is drawn only when something reads it
// (the chosen tier, the oracle), and is the same number under every
// policy, whichever other delays were read.
//
// The generator is Philox2x64-10 (Salmon, Moraes, Dror and Shaw, "Parallel
// random numbers: as easy as 1, 2, 3", SC'11, 2011): a ten-round
// multiply-and-xor network that maps a 128-bit counter under a 64-bit key
// to 128 bits, a bijection of the counter for each key, whose ten rounds
// are several more than the fewest the paper found to pass TestU01's
// BigCrush.
// The counter is (task, tier·2³² + block), so the blocks of distinct pairs
// are distinct inputs of one permutation: no two pairs share a draw, and
// none is correlated with another by construction, which a hash of the
// pair into a sequential generator's seed (SplitMix64-style) would only
// make unlikely, and a PCG jumped ahead to a pair's position would cost a
// jump of O(log position) multiplications per pair. A block is ten 64-bit
// multiplications, two 64-bit words: one lognormal delay takes one word
// almost always (the ziggurat's first try), so one block.
type Keyed struct{ key uint64 }

// NewKeyed is the keyed stream of stream id of replicate rep under a
// master seed: the same (seed, StreamID(rep, id)) words that seed a PCG
// stream, mixed by Philox itself into the 64-bit key.
func NewKeyed(seed uint64, rep int, id uint64) Keyed {
	k, _ := philox2x64(seed, StreamID(rep, id), keyedSalt)
	return Keyed{key: k}
}

// keyedSalt is the key under which a stream's seed words are mixed into
// its key: any fixed value; the first 64 bits of π's fraction.
const keyedSalt = 0x243f6a8885a308d3

// The Philox2x64 constants of Random123: the multiplier and the Weyl
// increment of the key (the golden ratio's fraction).
const (
	philoxM = 0xD2B74407B1CE6E93
	philoxW = 0x9E3779B97F4A7C15
)

// philox2x64 is Philox2x64-10: counter (c0, c1) under key k.
func philox2x64(c0, c1, k uint64) (uint64, uint64) {
	for r := range 10 {
		if r > 0 {
			k += philoxW
		}
		hi, lo := bits.Mul64(philoxM, c0)
		c0, c1 = hi^k^c1, lo
	}
	return c0, c1
}

// keyedSource is a rand.Source over a Keyed stream, positioned on one
// pair: its words are the pair's blocks, in counter order. Set positions
// it; a rand.Rand over it draws with the samplers of Dist unchanged.
type keyedSource struct {
	key    uint64
	c0, c1 uint64 // the next block's counter
	w      uint64 // the block's second word, not yet used
	have   bool   // w holds a word
}

// set positions the source at the first word of pair (task, tier).
func (s *keyedSource) set(task, tier uint64) {
	s.c0, s.c1, s.have = task, tier<<32, false
}

// Uint64 implements rand.Source: the words of the pair's blocks in turn.
func (s *keyedSource) Uint64() uint64 {
	if s.have {
		s.have = false
		return s.w
	}
	a, b := philox2x64(s.c0, s.c1, s.key)
	s.c1++
	s.w, s.have = b, true
	return a
}

var _ rand.Source = (*keyedSource)(nil)

// pairRand is a generator that draws the words of one pair of a Keyed
// stream at a time (at): the generator of Dist.Sample for keyed draws.
type pairRand struct {
	src keyedSource
	r   *rand.Rand
}

func newPairRand(k Keyed) *pairRand {
	p := &pairRand{src: keyedSource{key: k.key}}
	p.r = rand.New(&p.src)
	return p
}

// at is the generator positioned at the first draw of pair (task, tier).
func (p *pairRand) at(task, tier int) *rand.Rand {
	p.src.set(uint64(task), uint64(tier))
	return p.r
}
