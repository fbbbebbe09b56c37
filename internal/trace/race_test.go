//go:build race

package trace

// raceOn is true under the race detector, whose instrumented inflate makes
// a gigabyte's decompression take seconds.
const raceOn = true
