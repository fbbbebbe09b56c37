package estimators

import "math"

// expiry follows which tiers' rate-window counts change, for an estimator
// whose caller rescores only those (Estimator.Follow): a tier's count
// changes when a task is dispatched to it, and when a bucket in which it
// had one leaves the window. Every tier's window has the same buckets (the
// estimator's w and B), so one clock serves them all: it keeps, for each
// bucket still in the window, the tiers dispatched to in it (once each),
// and as the clock passes a bucket's end of life it reports them. A tier
// with no dispatch in the buckets that left keeps its count: its window is
// not visited, and advancing it later zeroes the same buckets (RateWindow
// is path-free), so nothing is lost by the wait. O(1) a dispatch,
// amortised, and nothing per tier as time passes.
type expiry struct {
	invH  float64   // buckets a second, as RateWindow's
	cur   int64     // the newest bucket, ⌈t·invH⌉ as RateWindow's
	lists [][]int32 // ring of B: the tiers dispatched to in each live bucket
	held  int       // entries in lists
	last  []int64   // per tier: the bucket it was last listed in (−1: none)
	out   []int32   // tiers changed since Changed last took them
}

func newExpiry(w float64, buckets, tiers int) *expiry {
	f := &expiry{invH: float64(buckets) / w, lists: make([][]int32, buckets), last: make([]int64, tiers)}
	for i := range f.last {
		f.last[i] = -1
	}
	return f
}

// observe notes a dispatch to tier at now, after the tier's window counted it.
func (f *expiry) observe(now float64, tier int) {
	f.advance(now)
	if f.last[tier] != f.cur {
		f.last[tier] = f.cur
		at := f.slot(f.cur)
		f.lists[at] = append(f.lists[at], int32(tier))
		f.held++
	}
	f.out = append(f.out, int32(tier))
}

// advance moves the clock to now, reporting the tiers of the buckets that
// leave the window: the buckets RateWindow.step drops for the same move.
func (f *expiry) advance(now float64) {
	if now*f.invH <= float64(f.cur) {
		return
	}
	k := int64(math.Ceil(now * f.invH))
	if k <= f.cur {
		return
	}
	n := int64(len(f.lists))
	if f.held == 0 { // no bucket holds a tier: nothing to report as the clock moves
		f.cur = k
		return
	}
	if k-f.cur >= n {
		for at := range f.lists {
			f.expire(at)
		}
		f.cur = k
		return
	}
	for ; f.cur < k; f.cur++ {
		f.expire(f.slot(f.cur + 1)) // the bucket cur+1−B, whose slot bucket cur+1 takes
	}
}

// expire reports and empties the list of the bucket in slot at.
func (f *expiry) expire(at int) {
	f.out = append(f.out, f.lists[at]...)
	f.held -= len(f.lists[at])
	f.lists[at] = f.lists[at][:0]
}

func (f *expiry) slot(k int64) int {
	n := int64(len(f.lists))
	return int((k%n + n) % n)
}
