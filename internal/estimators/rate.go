package estimators

import (
	"fmt"
	"math"
)

// DefaultBuckets is the number of time buckets per window an Estimator uses:
// at the default 10 s window the window edge is exact to 0.1 s.
const DefaultBuckets = 100

// RateWindow estimates an arrival rate over a sliding window (docs/design.md §2):
//
//	λ̂(t) = N(t−w, t] / max(min(w, t), 1 s)
//
// where N counts the arrivals recorded with Add. The 1 s floor keeps the
// first arrivals of a run from reading as a huge rate, and min(w, t) keeps
// the rate unbiased before a full window has elapsed (time starts at 0).
//
// Memory is fixed: the window is split into B buckets of width h = w/B, and
// bucket k counts arrivals in ((k−1)h, kh]. The count at time t covers the
// buckets up to ⌈t/h⌉, that is the interval (t' − w, t] with t' = h·⌈t/h⌉:
// arrivals in (t − w, t' − w] — at most one bucket width h = w/B at the old
// edge — have already expired. The window is exact when t is a multiple of h
// and is never wider than w. Add and Rate cost O(1) amortised: a call clears
// the buckets whose time has passed since the previous call, at most B, and
// over a run at most one per elapsed bucket width.
//
// Time passed in must not decrease; an earlier time is treated as the latest
// one seen. A RateWindow is not safe for concurrent use. The zero value is
// not usable; call NewRateWindow.
type RateWindow struct {
	w      float64  // window length, s
	invH   float64  // buckets per second, B/w
	counts []uint32 // ring of B bucket counts
	cur    int64    // absolute index ⌈t/h⌉ of the newest bucket
	at     int      // slot(cur), kept as it moves: a modulo is an integer division, two a call of slot, and Add and advance ran one every decision
	total  int      // sum of counts
}

// NewRateWindow returns an empty window of length w seconds split into
// buckets time buckets. w must be positive and finite, buckets ≥ 1.
func NewRateWindow(w float64, buckets int) (RateWindow, error) {
	if !(w > 0) || math.IsInf(w, 1) {
		return RateWindow{}, fmt.Errorf("rate window %g s: must be positive and finite", w)
	}
	if buckets < 1 {
		return RateWindow{}, fmt.Errorf("rate window buckets %d: must be at least 1", buckets)
	}
	return RateWindow{w: w, invH: float64(buckets) / w, counts: make([]uint32, buckets)}, nil
}

// Window returns the window length w, s.
func (r *RateWindow) Window() float64 { return r.w }

// Add records one arrival at time now.
func (r *RateWindow) Add(now float64) {
	r.advance(now)
	r.count()
}

// count adds an arrival to the newest bucket, which advance brought up to
// its time.
func (r *RateWindow) count() {
	r.counts[r.at]++
	r.total++
}

// Count returns the number of arrivals in the window ending at now.
func (r *RateWindow) Count(now float64) int {
	r.advance(now)
	return r.total
}

// Rate returns λ̂(now) = Count(now) / max(min(w, now), 1), arrivals/s. Its
// count and span are what the estimator's memo is keyed on (Estimator.eval
// reads them the same way).
func (r *RateWindow) Rate(now float64) float64 {
	r.advance(now)
	return rateOf(r.total, r.span(now))
}

// rateOf is λ̂ from a window's count and span: Rate's arithmetic, which a
// memo hit must reproduce bit for bit.
func rateOf(count int, span float64) float64 { return float64(count) / span }

// span is the denominator max(min(w, now), 1 s). The builtins, not
// math.Max and math.Min: the same results for every operand (NaN and
// signed zeros included, by the language spec), but compiled inline,
// where the math functions are calls on every decision.
func (r *RateWindow) span(now float64) float64 {
	return max(min(r.w, now), 1)
}

// advance expires the buckets that have left the window at time now.
//
// ⌈x⌉ ≤ cur exactly when x ≤ cur, cur being an integer; and float64(cur) is
// exact, since cur only ever takes the value of an integral float64. So the
// usual call, within the newest bucket, is told by that test, inlined,
// without math.Ceil, a call. A NaN fails it and takes the long
// way, as before.
func (r *RateWindow) advance(now float64) {
	if now*r.invH <= float64(r.cur) {
		return
	}
	r.step(now)
}

// step is advance past its inlined test.
func (r *RateWindow) step(now float64) {
	k := int64(math.Ceil(now * r.invH))
	if k <= r.cur {
		return
	}
	n := int64(len(r.counts))
	if k-r.cur >= n || r.total == 0 { // every bucket leaves, or all are empty: nothing to take off one by one
		if r.total != 0 {
			clear(r.counts)
			r.total = 0
		}
		r.cur, r.at = k, r.slot(k)
		return
	}
	for ; r.cur < k; r.cur++ { // the next bucket, slot(cur+1), by a step round the ring
		if r.at++; r.at == len(r.counts) {
			r.at = 0
		}
		r.total -= int(r.counts[r.at])
		r.counts[r.at] = 0
	}
}

// slot maps an absolute bucket index to its place in the ring.
func (r *RateWindow) slot(k int64) int {
	n := int64(len(r.counts))
	return int((k%n + n) % n)
}
