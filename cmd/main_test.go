package cmd

import (
	"os"
	"testing"
)

// TestMain lets the test binary be offload itself: with OFFLOAD_TEST_MAIN=1
// in its environment it runs Main on its arguments, so that a test can send
// a real offload process signals, or run it under resource limits.
func TestMain(m *testing.M) {
	if os.Getenv("OFFLOAD_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], System()))
	}
	os.Exit(m.Run())
}

// offloadCommand is the test binary as offload, with args.
func offloadCommand(args ...string) (path string, argv []string, env []string) {
	return os.Args[0], args, append(os.Environ(), "OFFLOAD_TEST_MAIN=1")
}
