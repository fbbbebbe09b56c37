package pq

import "math"

// Keys is a min-heap of the integers 0 to n−1 by a key each, ties by the
// lower integer, with each one's place in it, so that a key that moves is
// fixed in O(log n). Every integer is in it from NewKeys on.
type Keys struct {
	at   []float64 // at[p]: p's key
	heap []int32   // heap-ordered by (at, p)
	pos  []int32   // pos[p]: p's index in heap
}

// NewKeys is the heap of 0 to n−1, every key +Inf.
func NewKeys(n int) Keys {
	h := Keys{at: make([]float64, n), heap: make([]int32, n), pos: make([]int32, n)}
	for p := range n {
		h.at[p], h.heap[p], h.pos[p] = math.Inf(1), int32(p), int32(p)
	}
	return h
}

// Top is the least element and its key.
func (h *Keys) Top() (int, float64) { p := h.heap[0]; return int(p), h.at[p] }

// Key is p's key.
func (h *Keys) Key(p int) float64 { return h.at[p] }

// less orders p before q.
func (h *Keys) less(p, q int32) bool {
	return h.at[p] < h.at[q] || h.at[p] == h.at[q] && p < q
}

// Set gives p the key t and restores the order.
func (h *Keys) Set(p int, t float64) {
	h.at[p] = t
	x := int32(p)
	i := int(h.pos[p])
	moved := false
	for i > 0 {
		up := (i - 1) / 2
		q := h.heap[up]
		if !h.less(x, q) {
			break
		}
		h.heap[i], h.pos[q] = q, int32(i)
		i, moved = up, true
	}
	if !moved {
		n := len(h.heap)
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			m := l
			if r := l + 1; r < n && h.less(h.heap[r], h.heap[l]) {
				m = r
			}
			q := h.heap[m]
			if !h.less(q, x) {
				break
			}
			h.heap[i], h.pos[q] = q, int32(i)
			i = m
		}
	}
	h.heap[i], h.pos[p] = x, int32(i)
}
