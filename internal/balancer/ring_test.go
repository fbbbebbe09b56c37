package balancer

import (
	"math"
	"slices"
)

// haproxyFullHash is HAProxy's full_hash (include/haproxy/intops.h, 2.6):
// one of Bob Jenkins' integer hashes, times a prime.
func haproxyFullHash(a uint32) uint32 {
	a = (a + 0x7ed55d16) + (a << 12)
	a = (a ^ 0xc761c23c) ^ (a >> 19)
	a = (a + 0x165667b1) + (a << 5)
	a = (a + 0xd3a2646c) ^ (a << 9)
	a = (a + 0xfd7046c5) + (a << 3)
	a = (a ^ 0xb55a4f09) ^ (a >> 16)
	return a * 3221225473
}

// haproxyRing is the consistent-hash ring of HAProxy's "balance random"
// (src/lb_chash.c, 2.6): server i (puid i+1, in the order of the
// configuration) has 16 × weight points on a 2³² ring, at
// full_hash(puid × 4096 + j), sorted by key.
type haproxyRing []struct {
	key uint32
	srv int
}

func newHAProxyRing(weights []int) haproxyRing {
	const scale, ewghtRange = 16, 256 * 16 // BE_WEIGHT_SCALE, SRV_EWGHT_RANGE
	var r haproxyRing
	for i, w := range weights {
		puid := uint32(i + 1)
		for j := range uint32(w * scale) {
			r = append(r, struct {
				key uint32
				srv int
			}{haproxyFullHash(puid*ewghtRange + j), i})
		}
	}
	slices.SortFunc(r, func(a, b struct {
		key uint32
		srv int
	}) int {
		return int(int64(a.key) - int64(b.key))
	})
	return r
}

// server is chash_get_server_hash: the point at or after hash, or the one
// before it if that is no farther (the ring wraps around).
func (r haproxyRing) server(hash uint32) int {
	k, _ := slices.BinarySearchFunc(r, hash, func(p struct {
		key uint32
		srv int
	}, h uint32) int {
		return int(int64(p.key) - int64(h))
	})
	next := r[k%len(r)]
	prev := r[(k+len(r)-1)%len(r)]
	if hash-prev.key <= next.key-hash {
		return prev.srv
	}
	return next.srv
}

// haproxyRandom2 replays HAProxy's "balance random(2)" (get_server_rnd in
// src/backend.c, 2.6): two draws of the thread's xorshift32
// (statistical_prng, which starts from 2463534242 on thread 0 at every
// start, and which nothing else draws from while requests flow), each
// mapped to a server by the ring; the second is kept unless the first
// serves fewer requests per unit of weight. served gives the requests in
// flight at each of the n choices.
func haproxyRandom2(weights []int, served func(k, srv int) int, n int) []int {
	r := newHAProxyRing(weights)
	x := uint32(2463534242)
	draw := func() int {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return r.server(x)
	}
	out := make([]int, n)
	for k := range out {
		prev, cur := draw(), draw()
		if prev != cur && served(k, cur)*weights[prev] > served(k, prev)*weights[cur] {
			cur = prev
		}
		out[k] = cur
	}
	return out
}

// haproxyRandomShares is the chance that one draw of HAProxy's "balance
// random" picks each server, from its consistent-hash ring (src/lb_chash.c,
// 2.6): server i (puid i+1, in the order of the configuration) has 16 ×
// weight points on a 2³² ring, at full_hash(puid × 4096 + j); a uniform
// 32-bit draw goes to the nearer of the two points around it (the earlier
// one on a tie). So each server's chance is the total length of the arcs
// nearer its points than any other, over 2³².
func haproxyRandomShares(weights []int) []float64 {
	const scale, ewghtRange = 16, 256 * 16 // BE_WEIGHT_SCALE, SRV_EWGHT_RANGE
	type point struct {
		key uint32
		srv int
	}
	var ring []point
	for i, w := range weights {
		puid := uint32(i + 1)
		for j := range uint32(w * scale) {
			ring = append(ring, point{haproxyFullHash(puid*ewghtRange + j), i})
		}
	}
	slices.SortFunc(ring, func(a, b point) int { return int(int64(a.key) - int64(b.key)) })
	share := make([]float64, len(weights))
	for k, p := range ring {
		next := ring[(k+1)%len(ring)]
		gap := float64(next.key - p.key) // modulo 2³² for the last gap
		if len(ring) == 1 {
			gap = 1 << 32
		}
		share[p.srv] += gap / 2
		share[next.srv] += gap / 2
	}
	for i := range share {
		share[i] /= 1 << 32
	}
	return share
}

func nan() float64 { return math.NaN() }
func inf() float64 { return math.Inf(1) }
