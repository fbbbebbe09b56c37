package runner

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/store"
)

// policyLogDir is the output folder's folder of exec policies' stderr logs.
const policyLogDir = "policies/"

// RunsPrograms reports whether a plan has an exec policy (a program of the
// user's), whose stderr logs go under policies/.
func RunsPrograms(plan *experiment.Plan) bool { return plan.Programs() > 0 }

// policyLogName is policies/<label>-cell<c>-rep<r>.log, with -dev<d> when
// the scenario has several devices (one program each).
func policyLogName(plan *experiment.Plan, j experiment.Job, d int) string {
	name := fmt.Sprintf("%s%s-cell%d-rep%d", policyLogDir, j.Policy, j.Cell, j.Seed)
	if plan.Scenario.DeviceCount() > 1 {
		name += fmt.Sprintf("-dev%d", d)
	}
	return name + ".log"
}

// PolicyLogs keeps each program's stderr in the folder, written atomically
// like every file there. A failed run's log is kept: it is the evidence.
func PolicyLogs(d *store.Dir, plan *experiment.Plan) experiment.PolicyLog {
	return func(j experiment.Job, dev int) (io.Writer, string, func() error, error) {
		name := policyLogName(plan, j, dev)
		f, err := d.Create(name)
		if err != nil {
			return nil, "", nil, err
		}
		return f, filepath.Join(d.Path(), filepath.FromSlash(name)), f.Close, nil
	}
}

// ProgramLogs lists policies/ among a folder's writes when the plan runs
// programs.
func ProgramLogs(plan *experiment.Plan) []string {
	if RunsPrograms(plan) {
		return []string{policyLogDir}
	}
	return nil
}
