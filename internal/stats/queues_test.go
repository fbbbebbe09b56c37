package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The queues below are the tests' own, independent of the engine: a
// Lindley recursion for one FCFS server and an event-driven M/M/c, each a
// few lines that can be read against the textbook.

// rng returns the stream of (study, run, replicate): PCG's two words keep
// them apart.
func rng(study, run, rep int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(study)<<32|uint64(run), uint64(rep)))
}

// erlang2 draws an Erlang-2 size of mean 1 (SCV ½, E[S²] = 3/2).
func erlang2(r *rand.Rand) float64 { return (r.ExpFloat64() + r.ExpFloat64()) / 2 }

// hyperExp returns a balanced-means two-phase hyperexponential of mean 1
// and squared coefficient of variation c2 > 1 (E[S²] = 1 + c2), whose
// moments are all finite: phase i with probability pᵢ and rate 2pᵢ,
// p₁ = (1 + √((c2 − 1)/(c2 + 1)))/2.
func hyperExp(c2 float64) func(*rand.Rand) float64 {
	p1 := (1 + math.Sqrt((c2-1)/(c2+1))) / 2
	return func(r *rand.Rand) float64 {
		if r.Float64() < p1 {
			return r.ExpFloat64() / (2 * p1)
		}
		return r.ExpFloat64() / (2 * (1 - p1))
	}
}

// exponential draws an exponential size of mean 1.
func exponential(r *rand.Rand) float64 { return r.ExpFloat64() }

// lindley returns the waits of tasks 1…n of an M/G/1 queue at arrival rate
// lambda, W₀ = w0 and W_{i+1} = max(0, Wᵢ + Sᵢ − A_{i+1}) (Lindley 1952),
// into dst[:n]. With sojourn set it returns Wᵢ + Sᵢ instead.
func lindley(r *rand.Rand, lambda float64, size func(*rand.Rand) float64, w0 float64, dst []float64, sojourn bool) {
	w := w0
	for i := range dst {
		s := size(r)
		if sojourn {
			dst[i] = w + s
		} else {
			dst[i] = w
		}
		w = max(0, w+s-r.ExpFloat64()/lambda)
	}
}

// mm1Stationary draws W₀ from the M/M/1 stationary wait law (μ = 1): 0
// with probability 1 − ρ, else exponential of rate 1 − ρ.
func mm1Stationary(r *rand.Rand, rho float64) float64 {
	if r.Float64() >= rho {
		return 0
	}
	return r.ExpFloat64() / (1 - rho)
}

// pkWait is the Pollaczek–Khinchine mean wait of M/G/1 with E[S] = 1,
// λE[S²]/(2(1 − ρ)).
func pkWait(lambda, es2 float64) float64 { return lambda * es2 / (2 * (1 - lambda)) }

// erlangC is the probability of waiting in M/M/c at offered load a, from
// the stationary distribution term by term:
// (aᶜ/c!)/(1 − a/c) / (Σ_{k<c} aᵏ/k! + (aᶜ/c!)/(1 − a/c)).
func erlangC(c int, a float64) float64 {
	term, sum := 1.0, 0.0
	for k := range c {
		sum += term
		term *= a / float64(k+1)
	}
	tail := term / (1 - a/float64(c))
	return tail / (sum + tail)
}

// mmcMeanWait simulates an M/M/c FCFS queue (μ = 1) started empty, event by
// event, and returns the mean wait in queue of tasks warm … warm+n−1 in
// arrival order. Its state is the departure time of each server (+Inf when
// idle) and the arrival times of the waiting tasks; the next event is the
// earlier of the next arrival and the earliest departure.
func mmcMeanWait(r *rand.Rand, c int, lambda float64, warm, n int) float64 {
	free := make([]float64, c)
	for i := range free {
		free[i] = math.Inf(1)
	}
	// The waiting tasks' arrival times, first first: a slice used as a
	// queue, its head at queue[head].
	var queue []float64
	head := 0
	nextArrival := r.ExpFloat64() / lambda
	started := 0
	var sum float64
	record := func(wait float64) {
		if started >= warm {
			sum += wait
		}
		started++
	}
	for started < warm+n {
		s := 0 // the server that frees first
		for i := range free {
			if free[i] < free[s] {
				s = i
			}
		}
		if nextArrival < free[s] { // an arrival
			now := nextArrival
			nextArrival = now + r.ExpFloat64()/lambda
			idle := slices.IndexFunc(free, func(f float64) bool { return math.IsInf(f, 1) })
			if idle >= 0 {
				record(0)
				free[idle] = now + r.ExpFloat64()
			} else {
				queue = append(queue, now)
			}
			continue
		}
		now := free[s] // a departure
		free[s] = math.Inf(1)
		if head < len(queue) {
			record(now - queue[head])
			head++
			free[s] = now + r.ExpFloat64()
			if head == len(queue) {
				queue, head = queue[:0], 0
			}
		}
	}
	return sum / float64(n)
}

// nearestRank returns the p-quantile of xs by nearest rank, x₍⌈p·n⌉₎,
// reordering xs (Hoare's selection, expected linear time).
func nearestRank(xs []float64, p float64) float64 {
	k := int(math.Ceil(p*float64(len(xs)))) - 1
	lo, hi := 0, len(xs)-1
	for lo < hi {
		pivot := xs[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}

func meanOf(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// study skips a statistical study under -short: it runs many simulated
// series in one goroutine, where the race detector has nothing to find.
func study(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a statistical study: skipped under -short")
	}
}
