package results

import "math"

// BaselineSpan is how far before a burst the "level just before the burst" is
// averaged over, in seconds: one window alone is too noisy under heavy-tailed
// sizes.
const BaselineSpan = 30.0

// RecoveryBand: a burst is recovered from once the windowed mean latency is
// back within 20% of the level just before the burst.
const RecoveryBand = 0.2

// Interval is a burst's span of time, [Start, End) in seconds.
type Interval struct{ Start, End float64 }

// BurstStat describes how a series went through one burst.
type BurstStat struct {
	Index       int
	Start, End  float64 // s
	Baseline    float64 // s, mean windowed latency over BaselineSpan before Start
	Peak        float64 // s, highest windowed mean latency from Start until the next burst
	PeakAt      float64 // s, start of that window
	Recovery    float64 // s after End until the first window that ends within the band; NaN if none before the next burst
	CloudBefore float64 // share of the cloud tier over the baseline windows
	CloudDuring float64 // share of the cloud tier in windows inside the burst
}

// BurstStats measures every burst of a series with windows of width w. Each
// burst is followed until the next one starts (or until horizon). cloud is
// the index of the tier whose share is tracked (−1: none).
func BurstStats(ws []Window, w float64, bursts []Interval, horizon float64, cloud int) []BurstStat {
	out := make([]BurstStat, 0, len(bursts))
	for k, b := range bursts {
		limit := horizon
		if k+1 < len(bursts) {
			limit = bursts[k+1].Start
		}
		st := BurstStat{Index: k, Start: b.Start, End: b.End, Recovery: math.NaN(), Peak: math.NaN(), PeakAt: math.NaN()}
		var base, cloudBase, cloudIn MeanAcc
		for _, x := range ws {
			end := x.Start + w
			switch {
			case x.Start >= b.Start-BaselineSpan && end <= b.Start:
				base.Add(x.MeanLatency)
				cloudBase.Add(shareOf(x, cloud))
			case x.Start >= b.Start && end <= b.End:
				cloudIn.Add(shareOf(x, cloud))
			}
			if x.Start >= b.Start && end <= limit && !(x.MeanLatency <= st.Peak) && !math.IsNaN(x.MeanLatency) {
				st.Peak, st.PeakAt = x.MeanLatency, x.Start
			}
		}
		st.Baseline, st.CloudBefore, st.CloudDuring = base.Mean(), cloudBase.Mean(), cloudIn.Mean()
		for _, x := range ws {
			end := x.Start + w
			if x.Start >= b.End && end <= limit && x.MeanLatency <= (1+RecoveryBand)*st.Baseline {
				st.Recovery = end - b.End
				break
			}
		}
		out = append(out, st)
	}
	return out
}

func shareOf(x Window, tier int) float64 {
	if tier < 0 || tier >= len(x.Share) || x.Tasks == 0 {
		return math.NaN()
	}
	return x.Share[tier]
}

// MeanAcc averages the finite values it is given; its zero value is empty.
type MeanAcc struct {
	sum float64
	n   int
}

// Add counts x if it is finite.
func (m *MeanAcc) Add(x float64) {
	if isFinite(x) {
		m.sum += x
		m.n++
	}
}

// Mean is the average so far, NaN if nothing was counted.
func (m *MeanAcc) Mean() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.sum / float64(m.n)
}

// MeanSeries averages replicate series window by window (each field over
// the replicates where it is defined). The series must share their windows.
func MeanSeries(reps [][]Window) []Window {
	if len(reps) == 0 {
		return nil
	}
	n := len(reps[0])
	for _, r := range reps {
		n = min(n, len(r))
	}
	out := make([]Window, n)
	for i := range out {
		x := reps[0][i]
		w := Window{Start: x.Start}
		w.Share, w.Lambda, w.Beta, w.Rho = avgAt(reps, i, func(w Window) []float64 { return w.Share }),
			avgAt(reps, i, func(w Window) []float64 { return w.Lambda }),
			avgAt(reps, i, func(w Window) []float64 { return w.Beta }),
			avgAt(reps, i, func(w Window) []float64 { return w.Rho })
		var mean, p95 MeanAcc
		for _, r := range reps {
			w.Tasks += r[i].Tasks
			mean.Add(r[i].MeanLatency)
			p95.Add(r[i].P95Latency)
		}
		w.MeanLatency, w.P95Latency = mean.Mean(), p95.Mean()
		out[i] = w
	}
	return out
}

// avgAt averages a per-tier field of window i across replicates.
func avgAt(reps [][]Window, i int, field func(Window) []float64) []float64 {
	k := len(field(reps[0][i]))
	out := make([]float64, k)
	for t := range k {
		var m MeanAcc
		for _, r := range reps {
			if f := field(r[i]); t < len(f) {
				m.Add(f[t])
			}
		}
		out[t] = m.Mean()
	}
	return out
}
