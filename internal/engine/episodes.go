package engine

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/offload-sim/offload/internal/workload"
)

// Episode is a span [Start, End) of simulated time during which a tier
// runs at Speed times its speed, or serves nothing when Down.
type Episode struct {
	Start, End float64 // s
	Speed      float64 // multiplier of the tier's speed, > 0; ignored when Down
	Down       bool
}

// Recurring is a tier's random episodes: the first starts a Gap after 0,
// each next one a Gap after the previous one ends, and each lasts a
// Length; slow-downs run at Speed, failures are down.
type Recurring struct {
	Gap, Length workload.Dist // s
	Speed       float64       // slow-downs: multiplier of the tier's speed, > 0
}

// Capacity is a tier's speed over time (docs/model.md §1.12): fixed
// episodes, in time order and disjoint, and random slow-downs and
// failures. Where a down span and a slow-down overlap the tier is down;
// overlapping slow-downs multiply. The zero value: the tier's speed, always.
type Capacity struct {
	Episodes            []Episode
	Slowdowns, Failures *Recurring
}

// Dynamic reports whether the capacity ever differs from the tier's speed.
func (c *Capacity) Dynamic() bool {
	return len(c.Episodes) > 0 || c.Slowdowns != nil || c.Failures != nil
}

// Outcomes is how the measured tasks that arrived ended: each in exactly
// one way, so that Completed + Lost + TimedOut + Dropped + Abandoned =
// Arrived once the run is over. Filled only by a run that uses
// capacities, timeouts or retries (Config.Dynamic); Completed is then
// Result.Tasks.
type Outcomes struct {
	Arrived   int
	Completed int
	Lost      int // its tier failed with it present, or refused it while down, and no retry was left
	TimedOut  int // its last attempt outlived Config.Timeout, not lost
	// Dropped (a full buffer) and Abandoned (out of patience) are the
	// queue disciplines' outcomes: no run sets them yet.
	Dropped, Abandoned int
	// Retried counts the tasks sent again at least once; they are among
	// the others too.
	Retried int
	// Wasted is the server time, s, spent on attempts that did not
	// complete: lost mid-service, or timed out and left running (or
	// running until cancelled).
	Wasted float64
}

// Dynamic reports whether the run uses capacities that change, timeouts,
// retries, finite buffers or a discipline other than FCFS: only then does
// it keep the outcome account, and take reach's slower path.
func (c *Config) Dynamic() bool {
	if c.Timeout > 0 || c.Retries > 0 || len(c.Classes) > 0 || c.Patience.Mean() > 0 {
		return true
	}
	for i := range c.Tiers {
		if t := &c.Tiers[i]; t.Capacity.Dynamic() || t.Buffer > 0 || t.Discipline != FCFS {
			return true
		}
	}
	return false
}

func (c *Config) validateDynamic() []error {
	var errs []error
	if !(c.Timeout >= 0) {
		errs = append(errs, fmt.Errorf("timeout %v: need ≥ 0 (0: none)", c.Timeout))
	}
	if c.Retries < 0 {
		errs = append(errs, fmt.Errorf("retries %d: need ≥ 0", c.Retries))
	}
	law := func(i int, what string, r *Recurring, speed bool) {
		if r == nil {
			return
		}
		if !(r.Gap.Mean() > 0) || !(r.Length.Mean() > 0) {
			errs = append(errs, fmt.Errorf("tier %d %s: gap mean %v, length mean %v: need > 0", i, what, r.Gap.Mean(), r.Length.Mean()))
		}
		if speed && !(r.Speed > 0 && !math.IsInf(r.Speed, 1)) {
			errs = append(errs, fmt.Errorf("tier %d %s: speed %v: need a finite number > 0", i, what, r.Speed))
		}
	}
	for i := range c.Tiers {
		cp := &c.Tiers[i].Capacity
		for k, e := range cp.Episodes {
			if !(e.Start >= 0) || !(e.End > e.Start) || (!e.Down && !(e.Speed > 0 && !math.IsInf(e.Speed, 1))) {
				errs = append(errs, fmt.Errorf("tier %d episode %d: %+v: need 0 ≤ start < end, speed > 0 unless down", i, k, e))
			}
			if k > 0 && e.Start < cp.Episodes[k-1].End {
				errs = append(errs, fmt.Errorf("tier %d episode %d starts at %v, before episode %d ends (%v): need disjoint episodes in time order", i, k, e.Start, k-1, cp.Episodes[k-1].End))
			}
		}
		law(i, keySlowdowns, cp.Slowdowns, true)
		law(i, keyFailures, cp.Failures, false)
	}
	if a, b, all := downThroughout(c); all {
		errs = append(errs, fmt.Errorf("%w in [%v, %v): no task could be served then", errAllDown, a, b))
	}
	return errs
}

// piece is one source's current or next interval of a timeline.
type piece struct {
	start, end, speed float64
	down              bool
}

// episodeSource yields one kind of episode in time order: a fixed list,
// or random ones drawn from their own generator.
type episodeSource struct {
	fixed []Episode
	i     int
	law   *Recurring
	down  bool
	rng   *rand.Rand
	cur   piece
}

func (e *episodeSource) next() {
	if e.law == nil {
		if e.i < len(e.fixed) {
			f := e.fixed[e.i]
			e.cur = piece{f.Start, f.End, f.Speed, f.Down}
			e.i++
		} else {
			e.cur = piece{math.Inf(1), math.Inf(1), 1, false}
		}
		return
	}
	// The gap first, then the length: two draws an episode, whatever the
	// laws, so that one law's change leaves the other's draws in place.
	gap := e.law.Gap.Sample(e.rng)
	length := e.law.Length.Sample(e.rng)
	start := e.cur.end + gap
	e.cur = piece{start, start + length, e.law.Speed, e.down}
}

// timeline is a physical tier's capacity as pieces of constant rate (the
// multiplier of its speed; 0 while down), generated as the run reaches
// them and dropped once the run is past them. Its draws depend on the
// tier's streams alone, so every policy sees the same episodes.
type timeline struct {
	src  []episodeSource
	at   []float64 // at[k]: the start of piece k
	rate []float64
	head int     // the piece the tier's last reach fell in
	end  float64 // the end of the last piece generated
}

func newTimeline(c *Capacity, seed [2]uint64, p int) *timeline {
	tl := &timeline{}
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
func (tl *timeline) extend() {
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
func (tl *timeline) pieceEnd(k int) float64 {
	if k+1 < len(tl.at) {
		return tl.at[k+1]
	}
	return tl.end
}

// find is the piece that holds t, for t no earlier than the head's start.
func (tl *timeline) find(t float64) int {
	k := tl.head
	for !(tl.pieceEnd(k) > t) {
		if k+1 == len(tl.at) {
			tl.extend()
		}
		k++
	}
	return k
}

// settle moves the head to t, the time of a reach (reaches come in time
// order), and drops the pieces before it once they are half the list.
func (tl *timeline) settle(t float64) {
	tl.head = tl.find(t)
	if tl.head >= 32 && 2*tl.head >= len(tl.at) {
		n := copy(tl.at, tl.at[tl.head:])
		copy(tl.rate, tl.rate[tl.head:])
		tl.at, tl.rate = tl.at[:n], tl.rate[:n]
		tl.head = 0
	}
}

// down reports whether the tier is down at t.
func (tl *timeline) down(t float64) bool { return tl.rate[tl.find(t)] == 0 }

// finish is when work seconds of service (at the tier's own speed)
// started at start end, the remaining work draining at each piece's
// rate; or, if the tier goes down first (or is down at start), the
// instant it does, and lost.
func (tl *timeline) finish(start, work float64) (float64, bool) {
	k := tl.find(start)
	t := start
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

// downThroughout reports the span during which every tier of cfg is down
// by its fixed episodes (a plan that can serve nothing then), if any.
func downThroughout(cfg *Config) (float64, float64, bool) {
	lo, hi := 0.0, math.Inf(1)
	type iv struct{ a, b float64 }
	cur := []iv{{lo, hi}}
	for i := range cfg.Tiers {
		var next []iv
		for _, e := range cfg.Tiers[i].Capacity.Episodes {
			if !e.Down {
				continue
			}
			for _, c := range cur {
				if a, b := max(c.a, e.Start), min(c.b, e.End); a < b {
					next = append(next, iv{a, b})
				}
			}
		}
		cur = next
		if len(cur) == 0 {
			return 0, 0, false
		}
	}
	return cur[0].a, cur[0].b, true
}

// errAllDown is returned for a run whose tiers are all down at once by their fixed episodes.
var errAllDown = errors.New("every tier is down at once")

// The keys of a tier's random episodes, as errors name them.
const (
	keySlowdowns = "slowdowns"
	keyFailures  = "failures"
)

// Schedule is one physical tier's capacity over time, the same pieces
// from the same streams as a run's (tier p of a run of this episode
// seed), for a server of the testbed to follow what the simulator
// simulates. Times are model seconds from the run's start. It keeps every
// piece it has generated and is not safe for concurrent use.
type Schedule struct{ tl *timeline }

// NewSchedule is tier p's schedule of capacity c under the episode seed
// of a run (Config.EpisodeSeed).
func NewSchedule(c *Capacity, seed [2]uint64, p int) *Schedule {
	return &Schedule{tl: newTimeline(c, seed, p)}
}

// Down reports whether the tier is down at t ≥ 0.
func (s *Schedule) Down(t float64) bool { return s.tl.down(max(t, 0)) }

// Finish is when work seconds of service at the tier's own speed, started
// at start, end as the simulator drains them; or the instant the tier
// goes down first, and lost.
func (s *Schedule) Finish(start, work float64) (float64, bool) {
	return s.tl.finish(max(start, 0), work)
}

// NextDown is the first instant in [t, until) at which the tier is down,
// or +Inf if there is none.
func (s *Schedule) NextDown(t, until float64) float64 {
	tl := s.tl
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
