package balancer

import (
	"flag"
	"os"
	"testing"

	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite the golden configurations in testdata/golden from the current output")

// The test binary is also the fake balancer the process manager's tests
// start: with OFFLOAD_BALANCER_HELPER set it runs as one (helper_test.go)
// instead of running the tests. No goroutine may outlive a test.
func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	goleak.VerifyTestMain(m)
}
