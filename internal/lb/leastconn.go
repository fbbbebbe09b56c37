package lb

import (
	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy   = (*leastConn)(nil)
	_ dispatch.Blind    = (*leastConn)(nil)
	_ dispatch.Feedback = (*leastConn)(nil)
)

// leastConn sends each task to the tier where this balancer has the fewest
// requests outstanding, as HAProxy's `balance leastconn` does (lb_fwlc.c):
// a server's key is 0 while it has nothing outstanding, else
// ⌊(a + 1)·SRV_EWGHT_MAX / eweight⌋ = ⌊(a + 1)·256 / w⌋ for a outstanding
// and weight w, and the server of the smallest key is chosen. A server is
// taken out of HAProxy's tree and put back at each change of its count, and
// put back behind those already holding its key, so ties go to the server
// that has held the key longest: round-robin among the tied. nginx's
// least_conn (ngx_http_upstream_get_least_conn_peer) chooses the least
// conns / w too, but breaks ties by its smooth weighted round-robin among
// the tied servers; with equal weights and one request at a time both give
// the same cycle. This one is HAProxy's, which costs O(log n) a change.
//
// The counts are the balancer's own: +1 at its decision, −1 when the task's
// completion is told (dispatch.Feedback). It reads nothing of the tiers.
type leastConn struct {
	active outstanding
	w      []int64
	heap   stampHeap
	stamp  int64
}

// NewLeastConn returns HAProxy's leastconn over tiers of these integer
// weights (> 0).
func NewLeastConn(w []int) dispatch.Policy { return newLeastConn(w) }

// newLeastConn returns HAProxy's leastconn over tiers of these weights
// (> 0), every tier idle, ties first to tier 0.
func newLeastConn(w []int) *leastConn {
	n := len(w)
	p := &leastConn{active: make(outstanding, n), w: make([]int64, n)}
	p.heap.init(n)
	for i, x := range w {
		p.w[i] = int64(x)
		p.heap.set(i, 0, p.next())
	}
	return p
}

func (p *leastConn) next() int64 { p.stamp++; return p.stamp }

// key is HAProxy's leastconn key of tier i.
func (p *leastConn) key(i int) float64 {
	a := int64(p.active[i])
	if a == 0 {
		return 0
	}
	return float64((a + 1) * 256 / p.w[i])
}

// Blind implements dispatch.Blind: the counts are the balancer's own.
func (*leastConn) Blind() {}

// Decide implements dispatch.Policy.
func (p *leastConn) Decide(*dispatch.View) dispatch.Decision {
	i := p.heap.top()
	p.active[i]++
	p.heap.set(i, p.key(i), p.next())
	return dispatch.Decision{Tier: i}
}

// Done implements dispatch.Feedback: the task no longer counts, whatever
// its outcome (HAProxy's count falls when the stream leaves the server, on
// a response, an error or a timeout alike).
func (p *leastConn) Done(c *dispatch.Completion) {
	if p.active.end(c) {
		p.heap.set(c.From, p.key(c.From), p.next())
	}
	p.heap.set(c.Tier, p.key(c.Tier), p.next())
}

// stampHeap is an indexed binary min-heap of the tiers by (key, stamp), a
// tie of keys going to the smaller stamp: a tier's entry moves when it is
// set again, O(log n). The stamps are the caller's, increasing: the order
// in which the entries were last set (leastconn) or added (an EDF
// schedule).
type stampHeap struct {
	key   []float64
	stamp []int64
	heap  []int32 // tiers in heap order
	pos   []int32 // tier → index in heap
}

func (h *stampHeap) init(n int) {
	h.key, h.stamp = make([]float64, n), make([]int64, n)
	h.heap, h.pos = make([]int32, n), make([]int32, n)
	for i := range n {
		h.heap[i], h.pos[i] = int32(i), int32(i)
	}
}

func (h *stampHeap) less(a, b int32) bool {
	return h.key[a] < h.key[b] || h.key[a] == h.key[b] && h.stamp[a] < h.stamp[b]
}

func (h *stampHeap) top() int { return int(h.heap[0]) }

// set gives tier i this key and stamp and restores the heap.
func (h *stampHeap) set(i int, key float64, stamp int64) {
	h.key[i], h.stamp[i] = key, stamp
	k := int(h.pos[i])
	for k > 0 { // up
		up := (k - 1) / 2
		if !h.less(h.heap[k], h.heap[up]) {
			break
		}
		h.swap(k, up)
		k = up
	}
	for n := len(h.heap); ; { // down
		l := 2*k + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(h.heap[r], h.heap[l]) {
			m = r
		}
		if !h.less(h.heap[m], h.heap[k]) {
			break
		}
		h.swap(k, m)
		k = m
	}
}

func (h *stampHeap) swap(a, b int) {
	h.heap[a], h.heap[b] = h.heap[b], h.heap[a]
	h.pos[h.heap[a]], h.pos[h.heap[b]] = int32(a), int32(b)
}
