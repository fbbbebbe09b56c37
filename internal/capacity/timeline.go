package capacity

import (
	"math"
	"math/rand/v2"
)

// Timeline is physical tier p's capacity over time as pieces of constant
// rate (the multiplier of its speed; 0 while down), generated as its
// reader reaches them. Its draws depend on the tier's streams alone (the
// run's episode seed, p and the kind), so that every policy of a
// replicate, and a testbed server following the simulator, sees the same
// episodes. Times are model seconds from the run's start; a time before 0
// reads as 0. Reads come in time order from the last Settle on; without
// Settle every piece generated is kept. It is not safe for concurrent use.
type Timeline struct {
	src  []episodeSource
	at   []float64 // at[k]: the start of piece k
	rate []float64
	head int     // the piece the last Settle fell in
	end  float64 // the end of the last piece generated
}

// New is tier p's timeline of capacity c under a run's episode seed (PCG's
// two words).
func New(c *Capacity, seed [2]uint64, p int) *Timeline {
	tl := &Timeline{}
	stream := func(k uint64) *rand.Rand {
		// Its own stream per physical tier and kind: the first seed word
		// mixed with both, the second the replicate's episode stream.
		mix := (uint64(p)*2 + k + 1) * 0x9E3779B97F4A7C15
		return rand.New(rand.NewPCG(seed[0]^mix, seed[1]))
	}
	if len(c.Episodes) > 0 {
		tl.src = append(tl.src, episodeSource{fixed: c.Episodes})
	}
	if c.Slowdowns != nil {
		tl.src = append(tl.src, episodeSource{law: c.Slowdowns, rng: stream(0)})
	}
	if c.Failures != nil {
		tl.src = append(tl.src, episodeSource{law: c.Failures, down: true, rng: stream(1)})
	}
	for i := range tl.src {
		tl.src[i].next()
	}
	tl.extend()
	return tl
}

// extend adds the piece that starts where the last one ends.
func (tl *Timeline) extend() {
	t := tl.end
	r, next, down := 1.0, math.Inf(1), false
	for i := range tl.src {
		e := &tl.src[i]
		for e.cur.end <= t {
			e.next()
		}
		if e.cur.start <= t {
			if e.cur.down {
				down = true
			} else {
				r *= e.cur.speed
			}
			next = min(next, e.cur.end)
		} else {
			next = min(next, e.cur.start)
		}
	}
	if down {
		r = 0
	}
	tl.at = append(tl.at, t)
	tl.rate = append(tl.rate, r)
	tl.end = next
}

// pieceEnd is where piece k ends.
func (tl *Timeline) pieceEnd(k int) float64 {
	if k+1 < len(tl.at) {
		return tl.at[k+1]
	}
	return tl.end
}

// find is the piece that holds t, for t no earlier than the head's start.
func (tl *Timeline) find(t float64) int {
	k := tl.head
	for !(tl.pieceEnd(k) > t) {
		if k+1 == len(tl.at) {
			tl.extend()
		}
		k++
	}
	return k
}

// Settle moves the timeline to t, after which no read comes earlier (a
// run's reaches come in time order), and drops the pieces before it once
// they are half the list.
func (tl *Timeline) Settle(t float64) {
	tl.head = tl.find(max(t, 0))
	if tl.head >= 32 && 2*tl.head >= len(tl.at) {
		n := copy(tl.at, tl.at[tl.head:])
		copy(tl.rate, tl.rate[tl.head:])
		tl.at, tl.rate = tl.at[:n], tl.rate[:n]
		tl.head = 0
	}
}

// DownAt settles the timeline at t (Settle) and reports whether the tier
// is down then. A nil timeline is a tier at its speed, always: never down.
func (tl *Timeline) DownAt(t float64) bool {
	if tl == nil {
		return false
	}
	tl.Settle(t)
	return tl.Down(t)
}

// Down reports whether the tier is down at t.
func (tl *Timeline) Down(t float64) bool { return tl.rate[tl.find(max(t, 0))] == 0 }

// Finish is when work seconds of service (at the tier's own speed)
// started at start end, the remaining work draining at each piece's
// rate; or, if the tier goes down first (or is down at start), the
// instant it does, and lost.
func (tl *Timeline) Finish(start, work float64) (float64, bool) {
	t := max(start, 0)
	k := tl.find(t)
	for {
		r := tl.rate[k]
		if r == 0 {
			return t, true
		}
		e := tl.pieceEnd(k)
		if d := work / r; t+d <= e {
			return t + d, false
		}
		work -= (e - t) * r
		t = e
		if k+1 == len(tl.at) {
			tl.extend()
		}
		k++
	}
}

// NextDown is the first instant in [t, until) at which the tier is down,
// or +Inf if there is none.
func (tl *Timeline) NextDown(t, until float64) float64 {
	t = max(t, 0)
	for k := tl.find(t); ; k++ {
		if tl.rate[k] == 0 {
			return max(tl.at[k], t)
		}
		if !(tl.pieceEnd(k) < until) {
			return math.Inf(1)
		}
		if k+1 == len(tl.at) {
			tl.extend()
		}
	}
}

// Work is the work done in [a, b) at speed 1 times the rate: ∫ₐᵇ rate,
// for a no earlier than the last Settle (a time before 0 reads as 0's).
// With Finish it lets a tier whose tasks share its speed (processor
// sharing, SRPT) drain them through the pieces.
func (tl *Timeline) Work(a, b float64) float64 {
	w, t := 0.0, a
	for k := tl.find(max(a, 0)); ; k++ {
		e := tl.pieceEnd(k)
		if b <= e {
			return w + (b-t)*tl.rate[k]
		}
		w += (e - t) * tl.rate[k]
		t = e
		if k+1 == len(tl.at) {
			tl.extend()
		}
	}
}
