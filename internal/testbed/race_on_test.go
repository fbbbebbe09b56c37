//go:build race

package testbed

// raceOn is true under the race detector, whose overhead makes real-time
// measurements meaningless.
const raceOn = true
