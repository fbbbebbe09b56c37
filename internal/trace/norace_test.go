//go:build !race

package trace

// raceOn is true under the race detector (see race_test.go).
const raceOn = false
