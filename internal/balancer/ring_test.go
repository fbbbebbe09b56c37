package balancer

import (
	"math"
	"slices"
)

// haproxyFullHash is fullHash, under the name the tests use.
func haproxyFullHash(a uint32) uint32 { return fullHash(a) }

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

// haproxyRandomShares is HAProxyRandomShares, which the tests knew first.
func haproxyRandomShares(weights []int) []float64 { return HAProxyRandomShares(weights) }

func nan() float64 { return math.NaN() }
func inf() float64 { return math.Inf(1) }
