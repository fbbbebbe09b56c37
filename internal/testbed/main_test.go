package testbed

import (
	"testing"

	"go.uber.org/goleak"
)

// No goroutine may outlive a test: every request ends, every server stops.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tierNames lists the names of the tiers a result was run on.
func tierNames(r *Result) []string {
	names := make([]string, len(r.tiers))
	for i, t := range r.tiers {
		names[i] = t.Name
	}
	return names
}
