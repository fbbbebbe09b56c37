package analysis

import (
	"testing"

	"github.com/offload-sim/offload/internal/report"
)

func TestDominated(t *testing.T) {
	pts := []report.FrontPoint{{Energy: 1, Latency: 1}, {Energy: 2, Latency: 2}, {Energy: 0.5, Latency: 3}, {Energy: 1, Latency: 1}}
	got := dominated(pts)
	want := []bool{false, true, false, false} // equal points do not dominate each other
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("point %d: dominated %v, want %v", i, got[i], want[i])
		}
	}
}
