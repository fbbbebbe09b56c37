package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DataLaw is the law of a task's data, in bits (docs/design.md §1.5): a
// size distribution of its own (Dist, one draw per task on the data
// stream), or Factor bits per work unit of the task's size (no draw). The
// zero value is no data: a task carries 0 bits and nothing is drawn, so
// that a scenario without data draws exactly what it drew before data
// existed.
//
// Its methods take a pointer: a DataLaw holds a Dist (88 bytes), which a
// value receiver would copy at every task.
type DataLaw struct {
	Dist   Dist    // used when Factor is 0; the zero Dist is 0 bits
	Factor float64 // bits per work unit; > 0 makes the data proportional to the size
}

// Proportional is the law of Factor bits per work unit.
func Proportional(factor float64) (DataLaw, error) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return DataLaw{}, fmt.Errorf("proportional factor %v: must be finite and > 0 (bits per work unit)", factor)
	}
	return DataLaw{Factor: factor}, nil
}

// None reports whether the law always gives 0 bits.
func (l *DataLaw) None() bool { return l.Factor == 0 && l.Dist.Mean() == 0 }

// Random reports whether Draw reads its generator.
func (l *DataLaw) Random() bool { return l.Factor == 0 && l.Dist.Random() }

// Draw is one task's data, bits, for a task of this size (work units).
func (l *DataLaw) Draw(size float64, r *rand.Rand) float64 {
	if l.Factor > 0 {
		return l.Factor * size
	}
	if l.Dist.Random() {
		return l.Dist.Sample(r)
	}
	return l.Dist.Mean()
}

// Mean is E[data], bits, when the sizes have mean meanSize (work units).
func (l *DataLaw) Mean(meanSize float64) float64 {
	if l.Factor > 0 {
		return l.Factor * meanSize
	}
	return l.Dist.Mean()
}

// TransferTime is the time to send bits over bandwidth bit/s: bits/B, and
// 0 when the tier has no bandwidth limit (B = 0) or there is nothing to
// send.
func TransferTime(bits, bandwidth float64) float64 {
	if bandwidth <= 0 || bits == 0 {
		return 0
	}
	return bits / bandwidth
}
