//go:build !race

package testbed

// raceOn is true under the race detector (see race_on_test.go).
const raceOn = false
