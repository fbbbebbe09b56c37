//go:build !race

package cmd

// raceOn is true under the race detector (see testbed_race_test.go).
const raceOn = false
