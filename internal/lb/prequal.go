package lb

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/offload-sim/offload/internal/dispatch"
)

var (
	_ dispatch.Policy   = (*prequal)(nil)
	_ dispatch.Sampler  = (*prequal)(nil)
	_ dispatch.Feedback = (*prequal)(nil)
)

// prequal is Google's probing load balancer (Wydrowski, Kleinberg, Rumble
// and Archer, "Load is not what you should balance: Introducing Prequal",
// NSDI 2024), as the simulator models it (docs/policies.md, "prequal").
//
// Probes. At each decision, after it, the balancer probes r_probe distinct
// tiers drawn uniformly. A probe reads the tier's requests in flight (RIF:
// the tasks at the tier, queued or in service, whoever sent them) and the
// tier's latency estimate, at the decision's instant through the view,
// and its answer is usable from that instant plus the round trip 2·D̄ of
// that tier. The latency estimate is the paper's: the median latency of
// the server's recent queries that arrived at about the current RIF (within
// one). The simulator keeps that record per tier from what this balancer
// sees: for each RIF value, its last K tasks sent there at that RIF, each
// with its server-side latency (wait + service); with no recent query near
// the RIF, the nearest lower RIF's median, and 0 with none below either.
//
// The pool. Answers join a pool of at most m probes, one a tier (a newer
// answer replaces the older), the oldest evicted when it is full. A probe
// older than max_age is dropped; one used b_reuse times is dropped; and
// every decision removes r_remove more, alternately the oldest and the
// worst (the hot one of highest RIF, else the one of highest latency).
//
// Hot-cold lexicographic rule. A probe is hot when its RIF exceeds the
// q_rif quantile of the RIFs of the last H answers received (the balancer's
// estimate of the RIF distribution over the tiers). If some probe is cold, the task goes
// to the cold probe of lowest latency (then lowest RIF); if all are hot,
// to the probe of lowest RIF (then lowest latency); ties to the earlier in
// the pool. The probe used counts the task: its RIF grows by one. With the
// pool empty, the tier is drawn uniformly.
type prequal struct {
	n       int
	rtt     []float64 // 2·D̄ a tier
	rProbe  int
	poolMax int
	maxAge  float64
	rRemove int
	reuse   int     // b_reuse; 0: drawn from reuseMean at each probe
	reuseF  float64 // the budget's mean, when reuse is 0
	qRIF    float64
	window  float64 // s: how recent a latency must be to count

	pool    []probeAnswer   // in order of arrival
	pending DueTimes        // the probes under way by when their answers are back: slots of slab
	slab    []probeAnswer   // the probes under way
	free    []int           // free slots of slab
	rec     []latencyRecord // each tier's last K queries: RIF when sent, latency
	sent    taskRIFs        // the RIF each task outstanding was sent at
	near    []float64       // scratch: the latencies near a RIF
	idx     []int           // a permutation of the tiers: its first r_probe are the probed
	hist    window[int32]   // the RIFs of the last answers received
	oldest  bool            // the next removal takes the oldest, else the worst
	rng     *rand.Rand
}

// probeAnswer is one probe: its tier, what it read and when.
type probeAnswer struct {
	tier  int32
	rif   int32
	uses  int32 // uses left
	lat   float64
	read  float64 // when it read the tier
	ready float64 // when its answer is back
}

// Prequal's defaults: r_probe, m, max_age (s), r_remove, δ, q_rif, K.
const (
	prequalProbes   = 3
	prequalPool     = 16
	prequalMaxAge   = 1.0
	prequalRemove   = 1
	prequalDelta    = 1.0
	prequalMaxReuse = 16
	prequalQRIF     = 0.84
	prequalSamples  = 16
	prequalHistory  = 64
	prequalWindow   = 1.0
	prequalMaxRIF   = 255 // RIFs above share the latency record's last bucket
)

// PrequalConfig is prequal's parameters (docs/policies.md, "prequal").
type PrequalConfig struct {
	Probes  int     // r_probe: probes sent after each decision, to distinct tiers
	Pool    int     // m: most probes kept, one a tier
	MaxAge  float64 // s: a probe older than this is dropped
	Remove  int     // r_remove: probes removed after each decision
	Reuse   int     // b_reuse: decisions one probe may serve; 0: the paper's budget of Delta
	Delta   float64 // δ of the paper's reuse budget
	QRIF    float64 // Q_RIF: the quantile of recent RIFs above which a probe is hot
	History int     // H: recent answers whose RIFs estimate the quantile
	Samples int     // K: queries a tier's latency record keeps for each RIF value
	Window  float64 // s: a recorded latency older than this does not count
}

// DefaultPrequal returns the paper's parameters, the reuse budget its
// formula's.
func DefaultPrequal() PrequalConfig {
	return PrequalConfig{Probes: prequalProbes, Pool: prequalPool, MaxAge: prequalMaxAge, Remove: prequalRemove,
		Delta: prequalDelta, QRIF: prequalQRIF, History: prequalHistory, Samples: prequalSamples, Window: prequalWindow}
}

// NewPrequal returns prequal over these tiers (their D̄ the probes' round
// trips), drawing from rng.
func NewPrequal(tiers []dispatch.Tier, c PrequalConfig, rng *rand.Rand) dispatch.Policy {
	return newPrequal(tiers, c, rng)
}

func newPrequal(tiers []dispatch.Tier, c PrequalConfig, rng *rand.Rand) *prequal {
	p := &prequal{n: len(tiers), rProbe: min(c.Probes, len(tiers)),
		poolMax: c.Pool, maxAge: c.MaxAge,
		rRemove: c.Remove, reuse: c.Reuse, qRIF: c.QRIF,
		oldest: true, rng: rng}
	if p.reuse == 0 {
		p.reuseF = reuseBudget(p.poolMax, p.n, p.rProbe, p.rRemove, c.Delta)
	}
	p.window = c.Window
	k := c.Samples
	p.rtt, p.rec, p.idx = make([]float64, p.n), make([]latencyRecord, p.n), make([]int, p.n)
	p.near = make([]float64, 0, 3*k)
	p.sent.init(64)
	for i, t := range tiers {
		p.rtt[i] = 2 * t.MeanDelay
		p.rec[i] = latencyRecord{k: k}
		p.idx[i] = i
	}
	p.pool = make([]probeAnswer, 0, p.poolMax+1)
	p.hist = newWindow[int32](c.History)
	return p
}

// reuseBudget is the paper's reuse budget b_reuse = 1 + δ / ((1 − m/n)·r_probe
// − r_remove), at least 1, and prequalMaxReuse where the denominator is not
// positive (probes cannot keep such a pool full). A pool holds at most one
// probe a tier, so m is at most n.
func reuseBudget(m, n, rProbe, rRemove int, delta float64) float64 {
	mm := float64(min(m, n))
	den := (1-mm/float64(n))*float64(rProbe) - float64(rRemove)
	if !(den > 0) {
		return prequalMaxReuse
	}
	return min(max(1+delta/den, 1), prequalMaxReuse)
}

// Sampler implements dispatch.Sampler: it reads the tiers it probes.
func (*prequal) Sampler() {}

// Decide implements dispatch.Policy.
func (p *prequal) Decide(v *dispatch.View) dispatch.Decision {
	now := v.Now
	for p.pending.Len() > 0 && p.pending.Next() <= now {
		k := p.pending.Pop()
		p.admit(p.slab[k])
		p.free = append(p.free, k)
	}
	p.expire(now)
	tier := -1
	if len(p.pool) > 0 {
		thr := p.threshold()
		k := p.hcl(thr)
		a := &p.pool[k]
		tier = int(a.tier)
		a.rif++
		if a.uses--; a.uses <= 0 {
			p.removeAt(k)
		}
		for range p.rRemove {
			if len(p.pool) == 0 {
				break
			}
			if p.oldest {
				p.removeAt(p.oldestAt())
			} else {
				p.removeAt(p.worstAt(thr))
			}
			p.oldest = !p.oldest
		}
	} else {
		tier = p.rng.IntN(p.n)
	}
	s := v.State(tier)
	p.sent.put(v.Task, int32(s.Queued+s.Busy))
	p.probe(v)
	return dispatch.Decision{Tier: tier}
}

// Done implements dispatch.Feedback: a completed task's server-side
// latency joins its tier's record. A failed or timed-out attempt adds
// nothing: Prequal's latency estimate is the server's own, over the
// queries it answered recently, and a server that is down answers
// none; its probes' RIF comes from the tier itself. A moved attempt keeps
// its entry, read at the tier chosen.
func (p *prequal) Done(c *dispatch.Completion) {
	if c.Outcome == dispatch.Moved {
		return
	}
	if rif, ok := p.sent.take(c.Task); ok && c.Outcome == dispatch.Completed {
		p.rec[c.Tier].add(rif, c.Wait+c.Service, c.Now)
	}
}

// probe sends r_probe probes to distinct tiers drawn uniformly (a partial
// Fisher–Yates shuffle), each answering after its tier's round trip.
func (p *prequal) probe(v *dispatch.View) {
	for k := range p.rProbe {
		j := k + p.rng.IntN(p.n-k)
		p.idx[k], p.idx[j] = p.idx[j], p.idx[k]
		i := p.idx[k]
		s := v.State(i)
		uses := p.reuse
		if uses == 0 { // the mean budget, rounded at random to a neighbouring integer
			f := math.Floor(p.reuseF)
			uses = int(f)
			if p.rng.Float64() < p.reuseF-f {
				uses++
			}
		}
		a := probeAnswer{tier: int32(i), rif: int32(s.Queued + s.Busy), uses: int32(uses),
			lat: p.estimate(i, s.Queued+s.Busy, v.Now), read: v.Now, ready: v.Now + p.rtt[i]}
		var slot int
		if n := len(p.free); n > 0 {
			slot, p.free = p.free[n-1], p.free[:n-1]
			p.slab[slot] = a
		} else {
			slot, p.slab = len(p.slab), append(p.slab, a)
		}
		p.pending.Push(a.ready, slot)
	}
}

// admit puts an answer into the pool: it replaces its tier's older answer,
// or evicts the oldest when the pool is full.
func (p *prequal) admit(a probeAnswer) {
	p.hist.add(a.rif)
	for k := range p.pool {
		if p.pool[k].tier == a.tier {
			p.removeAt(k)
			break
		}
	}
	if len(p.pool) >= p.poolMax {
		p.removeAt(p.oldestAt())
	}
	p.pool = append(p.pool, a)
}

// expire drops the probes older than max_age.
func (p *prequal) expire(now float64) {
	k := 0
	for _, a := range p.pool {
		if now-a.read <= p.maxAge {
			p.pool[k] = a
			k++
		}
	}
	p.pool = p.pool[:k]
}

// removeAt removes pool entry k, keeping the others in order.
func (p *prequal) removeAt(k int) {
	p.pool = append(p.pool[:k], p.pool[k+1:]...)
}

func (p *prequal) oldestAt() int {
	best := 0
	for k := range p.pool {
		if p.pool[k].read < p.pool[best].read {
			best = k
		}
	}
	return best
}

// worstAt is the hot probe of highest RIF, else the probe of highest
// latency (the first on a tie).
func (p *prequal) worstAt(thr int32) int {
	best, hot := -1, false
	for k := range p.pool {
		a := &p.pool[k]
		h := a.rif > thr
		switch {
		case best < 0:
			best, hot = k, h
		case h && !hot:
			best, hot = k, true
		case h && hot && a.rif > p.pool[best].rif:
			best = k
		case !h && !hot && a.lat > p.pool[best].lat:
			best = k
		}
	}
	return best
}

// threshold is the q_rif quantile of the recent answers' RIFs: the value
// of rank ⌈q·h⌉ among the h of them, in increasing order. A probe above it
// is hot. Before any answer nothing is hot.
func (p *prequal) threshold() int32 {
	h := len(p.hist.sorted)
	if h == 0 {
		return math.MaxInt32
	}
	k := int(math.Ceil(p.qRIF*float64(h))) - 1
	return p.hist.sorted[min(max(k, 0), h-1)]
}

// hcl is the pool entry the hot-cold lexicographic rule picks.
func (p *prequal) hcl(thr int32) int {
	best, cold := -1, false
	for k := range p.pool {
		a := &p.pool[k]
		c := a.rif <= thr
		switch {
		case best < 0:
			best, cold = k, c
		case c && !cold:
			best, cold = k, true
		case c && cold:
			b := &p.pool[best]
			if a.lat < b.lat || a.lat == b.lat && a.rif < b.rif {
				best = k
			}
		case !c && !cold:
			b := &p.pool[best]
			if a.rif < b.rif || a.rif == b.rif && a.lat < b.lat {
				best = k
			}
		}
	}
	return best
}

// window is the last values added (at most its size), kept in the order
// they came and sorted: an add costs O(size) in moves, a rank O(1).
type window[T int32 | float64] struct {
	ring   []T // the values in the order added, a ring once full
	next   int
	sorted []T
}

func newWindow[T int32 | float64](size int) window[T] {
	return window[T]{ring: make([]T, 0, size), sorted: make([]T, 0, size)}
}

// add adds x, dropping the oldest value when the window is full.
func (w *window[T]) add(x T) {
	if len(w.ring) < cap(w.ring) {
		w.ring = append(w.ring, x)
	} else {
		old := w.ring[w.next]
		w.ring[w.next] = x
		w.next = (w.next + 1) % len(w.ring)
		k, _ := slices.BinarySearch(w.sorted, old)
		w.sorted = slices.Delete(w.sorted, k, k+1)
	}
	k, _ := slices.BinarySearch(w.sorted, x)
	w.sorted = slices.Insert(w.sorted, k, x)
}

// estimate is tier i's latency estimate at this RIF at now: the upper
// median of its recorded latencies of queries sent at a RIF within one of
// this one that completed within the last window. With none, those of the
// nearest lower RIF that has recent ones: latency grows with RIF, so that
// is a lower bound, where reporting nothing (0, the best a probe can say)
// made every RIF not seen lately look the fastest and drew the balancer
// to it. 0 only when no lower RIF has a recent record either, so that an
// idle tier is not starved by highs it reported long ago.
func (p *prequal) estimate(i, rif int, now float64) float64 {
	r := &p.rec[i]
	near := p.near[:0]
	c := min(rif, prequalMaxRIF)
	for b := max(c-1, 0); b <= c+1 && b < r.buckets(); b++ {
		if now-r.last[b] > p.window {
			continue
		}
		lat, at := r.bucket(b)
		for k := range lat {
			if now-at[k] > p.window {
				continue
			}
			x := lat[k]
			j := len(near)
			near = append(near, x)
			for j > 0 && near[j-1] > x { // insertion sort: at most 3K values
				near[j] = near[j-1]
				j--
			}
			near[j] = x
		}
	}
	if len(near) == 0 {
		for b := min(c-2, r.buckets()-1); b >= 0 && len(near) == 0; b-- {
			if now-r.last[b] > p.window {
				continue // nothing recent: one comparison, not K
			}
			lat, at := r.bucket(b)
			for k := range lat {
				if now-at[k] <= p.window {
					near = append(near, lat[k])
				}
			}
		}
		slices.Sort(near) // at most K values
	}
	p.near = near
	if len(near) == 0 {
		return 0
	}
	return near[len(near)/2]
}

// latencyRecord is a tier's record of its queries by the RIF each was sent
// at: for each RIF value up to prequalMaxRIF (higher ones share the last
// bucket), the last K, a ring, each with its server-side latency and when it
// completed. Buckets are added as higher RIFs are first seen, so the record
// stops growing once the tier's largest RIF has been met.
type latencyRecord struct {
	k       int
	lat, at []float64 // bucket b's ring is [b·k, (b+1)·k)
	n, next []int32   // each bucket's count and next slot
	last    []float64 // each bucket's latest completion, to skip a stale one whole
}

func (r *latencyRecord) buckets() int { return len(r.n) }

// bucket is bucket b's recorded latencies and completion times.
func (r *latencyRecord) bucket(b int) (lat, at []float64) {
	o := b * r.k
	return r.lat[o : o+int(r.n[b])], r.at[o : o+int(r.n[b])]
}

func (r *latencyRecord) add(rif int32, lat, at float64) {
	b := int(min(max(rif, 0), prequalMaxRIF))
	for len(r.n) <= b {
		r.n, r.next, r.last = append(r.n, 0), append(r.next, 0), append(r.last, math.Inf(-1))
		r.lat, r.at = append(r.lat, make([]float64, r.k)...), append(r.at, make([]float64, r.k)...)
	}
	o := b*r.k + int(r.next[b])
	r.lat[o], r.at[o] = lat, at
	r.next[b] = (r.next[b] + 1) % int32(r.k)
	r.n[b] = min(r.n[b]+1, int32(r.k))
	r.last[b] = max(r.last[b], at)
}

// taskRIFs holds a value per outstanding task, by task id: a table of
// 2^k slots indexed by the id's low bits, doubled when a new id meets a
// slot still taken, so that in a steady state it stops growing.
type taskRIFs struct {
	task []int // −1: free
	rif  []int32
}

func (t *taskRIFs) init(size int) {
	t.task, t.rif = make([]int, size), make([]int32, size)
	for i := range t.task {
		t.task[i] = -1
	}
}

func (t *taskRIFs) put(task int, rif int32) {
	for {
		k := task & (len(t.task) - 1)
		if t.task[k] < 0 || t.task[k] == task {
			t.task[k], t.rif[k] = task, rif
			return
		}
		old, oldRIF := t.task, t.rif
		t.init(2 * len(old))
		for j, id := range old {
			if id >= 0 {
				k := id & (len(t.task) - 1)
				t.task[k], t.rif[k] = id, oldRIF[j]
			}
		}
	}
}

func (t *taskRIFs) take(task int) (int32, bool) {
	k := task & (len(t.task) - 1)
	if t.task[k] != task {
		return 0, false
	}
	t.task[k] = -1
	return t.rif[k], true
}
