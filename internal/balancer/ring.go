package balancer

import "slices"

// HAProxyRandomShares is the chance that one draw of HAProxy's "balance
// random" picks each server, from its consistent-hash ring (src/lb_chash.c,
// 2.6): server i (puid i+1, in the order of the configuration) has 16 ×
// weight points on a 2³² ring, at full_hash(puid × 4096 + j); a uniform
// 32-bit draw goes to the nearer of the two points around it (the earlier
// one on a tie). So each server's chance is the total length of the arcs
// nearer its points than any other, over 2³².
func HAProxyRandomShares(weights []int) []float64 {
	const scale, ewghtRange = 16, 256 * 16 // BE_WEIGHT_SCALE, SRV_EWGHT_RANGE
	type point struct {
		key uint32
		srv int
	}
	var ring []point
	for i, w := range weights {
		puid := uint32(i + 1)
		for j := range uint32(w * scale) {
			ring = append(ring, point{fullHash(puid*ewghtRange + j), i})
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

// fullHash is HAProxy's full_hash (include/haproxy/intops.h, 2.6): one of
// Bob Jenkins' integer hashes, times a prime.
func fullHash(a uint32) uint32 {
	a = (a + 0x7ed55d16) + (a << 12)
	a = (a ^ 0xc761c23c) ^ (a >> 19)
	a = (a + 0x165667b1) + (a << 5)
	a = (a + 0xd3a2646c) ^ (a << 9)
	a = (a + 0xfd7046c5) + (a << 3)
	a = (a ^ 0xb55a4f09) ^ (a >> 16)
	return a * 3221225473
}
