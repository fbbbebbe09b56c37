package runner

import "github.com/offload-sim/offload/internal/experiment"

// Descriptors a running exec program holds in offload: its stdin, stdout
// and stderr pipes' ends, the process handle (a pidfd) and its stderr log
// (a run of 1,000 devices peaked at 5,011 open files). fdReserve is kept
// for the rest: the ends a starting program is handed, stdio, the output
// files, the runtime's own.
const (
	fdsPerProgram = 5
	fdReserve     = 64
)

// checkDescriptors refuses, before anything is written, a plan whose exec
// programs, as many at once as it runs them (every device of a run has its
// own, and -j runs in parallel), would need more open files than the
// process may hold: the run would otherwise fail part-way with "too many
// open files". soft is the descriptor limit (0: unknown, not checked).
func checkDescriptors(plan *experiment.Plan, workers int, soft uint64) error {
	entries := plan.Programs()
	if entries == 0 || soft == 0 {
		return nil
	}
	devices := 1
	for _, c := range plan.Cells {
		devices = max(devices, c.Scenario.DeviceCount())
	}
	runs := len(plan.Cells) * entries * plan.Scenario.Seeds
	parallel := max(1, min(workers, runs))
	programs := devices * parallel
	need := uint64(programs*fdsPerProgram + fdReserve)
	if need <= soft {
		return nil
	}
	return BadInputf("the plan runs up to %d exec programs at once (%d devices × %d runs with -j %d), about %d open files, over this process's limit of %d (ulimit -n); lower -j or devices, or raise the limit",
		programs, devices, parallel, workers, need, soft)
}
