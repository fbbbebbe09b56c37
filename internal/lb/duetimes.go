package lb

// DueTimes is a binary min-heap of (time, index): prequal's probes under
// way by when their answers are back, and lwl's busy tiers by when each
// becomes ready (a tier dispatched to again gets a new entry there; its
// old one, earlier, comes out first and is passed over when the tier is
// still busy then).
type DueTimes struct {
	t    []float64
	tier []int
}

// Len is the number of entries.
func (h *DueTimes) Len() int { return len(h.t) }

// Next is the earliest time; the heap must not be empty.
func (h *DueTimes) Next() float64 { return h.t[0] }

func (h *DueTimes) less(i, j int) bool { return h.t[i] < h.t[j] }
func (h *DueTimes) swap(i, j int) {
	h.t[i], h.t[j] = h.t[j], h.t[i]
	h.tier[i], h.tier[j] = h.tier[j], h.tier[i]
}

// Push adds tier (an index of the caller's) due at t.
func (h *DueTimes) Push(t float64, tier int) {
	h.t, h.tier = append(h.t, t), append(h.tier, tier)
	for i := len(h.t) - 1; i > 0; {
		up := (i - 1) / 2
		if !h.less(i, up) {
			break
		}
		h.swap(i, up)
		i = up
	}
}

// Pop removes the earliest entry and returns its index.
func (h *DueTimes) Pop() int {
	top := h.tier[0]
	n := len(h.t) - 1
	h.swap(0, n)
	h.t, h.tier = h.t[:n], h.tier[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h.swap(i, m)
		i = m
	}
	return top
}
