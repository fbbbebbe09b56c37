package runner

import (
	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/scenario"
)

// attachMergedTrace gives a merged folder's scenario the rows of its trace,
// which merge needs to rebuild the plan (not to simulate). A results folder
// keeps scenario.yaml, not the trace, so only an embedded trace
// (experiments/traces) can be found again; any other is refused by name.
func attachMergedTrace(sc *scenario.Scenario) error {
	return attachData(sc, func(name string) (string, []byte, error) {
		b, err := experiments.Trace(name)
		return name, b, err
	}, func(format string, a ...any) error {
		return badInputf("merge: only data from an embedded trace can be merged: "+format, a...)
	})
}
