//go:build race

package cmd

// raceOn is true under the race detector, which slows real-time code
// enough to blur the loopback emulation's timing.
const raceOn = true
