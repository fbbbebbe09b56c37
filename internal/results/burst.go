package results

// BaselineSpan is how far before a burst the "level just before the burst" is
// averaged over, in seconds: one window alone is too noisy under heavy-tailed
// sizes.
const BaselineSpan = 30.0

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
