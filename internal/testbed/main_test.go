package testbed

import (
	"testing"

	"go.uber.org/goleak"
)

// No goroutine may outlive a test: every request ends, every server stops.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
