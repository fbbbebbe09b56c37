package runner

import (
	"bytes"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/trace"
)

// attachMergedTrace gives a merged folder's scenario the rows of its trace,
// which merge needs to rebuild the plan (not to simulate). A results folder
// keeps scenario.yaml, not the trace, so only an embedded trace
// (experiments/traces) can be found again; any other is refused by name.
func attachMergedTrace(sc *scenario.Scenario) error {
	if sc.Trace == nil {
		return nil
	}
	b, err := experiments.Trace(sc.Trace.File)
	if err != nil {
		return badInputf("merge: trace.file %s: only a replay of an embedded trace can be merged: %w", sc.Trace.File, err)
	}
	t, err := trace.Read(bytes.NewReader(b), sc.Trace.File)
	if err != nil {
		return badInputf("merge: %w", err)
	}
	if err := sc.AttachTrace(t.Arrivals, t.Sizes); err != nil {
		return badInputf("merge: %w", err)
	}
	return nil
}
