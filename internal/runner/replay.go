package runner

import (
	"strings"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/scenario"
)

// attachMergedTrace gives a merged folder's scenario the rows of its trace
// (and the values of its empirical laws), which merge needs to rebuild the
// plan (not to simulate). A results folder keeps scenario.yaml, not the
// data, so merge reads the data where the shards read it: beside the
// scenario file of their -f, as their command records it (a path relative
// to the folder merge runs in, as it was for the shards), or, without -f,
// from the embedded traces (experiments/traces). The scenario hash, which
// covers the data, then checks that it is the data the shards replayed.
func attachMergedTrace(sc *scenario.Scenario, shardCommand []string) error {
	if f := scenarioFlag(shardCommand); f != "" {
		if err := AttachTrace(sc, f); err != nil {
			return BadInputf("merge: the shards read their data beside -f %s, and merge reads it there too: run merge where that path leads to the same files: %w", f, err)
		}
		return nil
	}
	return attachData(sc, func(name string) (string, []byte, error) {
		b, err := experiments.Trace(name)
		return name, b, err
	}, func(format string, a ...any) error {
		return BadInputf("merge: the shards ran an embedded scenario, whose data is an embedded trace: "+format, a...)
	})
}

// scenarioFlag is the value of -f/--file in a command line ("" without).
func scenarioFlag(args []string) string {
	for i, a := range args {
		switch {
		case (a == "-f" || a == "--file") && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "--file="):
			return strings.TrimPrefix(a, "--file=")
		case strings.HasPrefix(a, "-f=") || (strings.HasPrefix(a, "-f") && len(a) > 2 && !strings.HasPrefix(a, "--")):
			return strings.TrimPrefix(strings.TrimPrefix(a, "-f"), "=")
		}
	}
	return ""
}
