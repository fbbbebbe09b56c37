package experiment

import (
	"context"
	"errors"
	"io"
	"math"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/extpolicy"
)

// PolicyLog opens where the stderr of job j's program for device d goes
// (an exec policy's): w receives it, name is how messages cite it, and
// close is called once the program has ended, whatever happened.
type PolicyLog func(j Job, d int) (w io.Writer, name string, close func() error, err error)

// ProgramEnv is what the program of job j's device d is told of its run
// (the start message), and where it runs: Plan.Dir.
func (p *Plan) ProgramEnv(j Job, d int) extpolicy.Env {
	c := p.Cells[j.Cell]
	cfg := p.configs[j.Cell]
	o := cfg.Observe
	obs := extpolicy.Observation{Model: o.Model.String(), Period: o.Period, Phase: o.Phase, CountOwn: o.CountOwn, Noise: o.Noise}
	if o.Model == engine.Delayed {
		obs.DelayMean, obs.DelayCV = o.Delay.Mean(), math.Sqrt(max(0, o.Delay.Cs2()))
	}
	return extpolicy.Env{Dir: p.Dir, Observation: obs,
		Run: extpolicy.Run{Experiment: p.Name, Label: j.Policy, Cell: j.Cell, Param: c.Param, Value: c.Value,
			Replicate: j.Seed, Device: d, Devices: c.Scenario.DeviceCount()}}
}

// Programs are the programs of one run's exec policies: started before the
// run, ended after it, whatever happened. Execute keeps its runs'; the
// emulation, which drives policies itself, keeps its own. The zero value
// is ready to use.
type Programs struct {
	ps     []*extpolicy.Policy
	closes []func() error
	ended  bool
}

// Start starts pol's program if it has one (an exec policy) for device d
// of job j, with its stderr in log's file (nil: discarded), and returns
// what should be told of completions: the policy, if it wants them.
func (ps *Programs) Start(ctx context.Context, p *Plan, j Job, d int, pol dispatch.Policy, log PolicyLog) (dispatch.Feedback, error) {
	xp, ok := pol.(*extpolicy.Policy)
	if !ok {
		// Its capabilities, not its type: a policy that states them
		// (dispatch.Capable) may take feedback through another value.
		return dispatch.CapabilitiesOf(pol).Feedback, nil
	}
	env := p.ProgramEnv(j, d)
	if log != nil {
		w, name, closeLog, err := log(j, d)
		if err != nil {
			return nil, err
		}
		env.Stderr, env.Log = w, name
		ps.closes = append(ps.closes, closeLog)
	}
	ps.ps = append(ps.ps, xp)
	if err := xp.Start(ctx, env); err != nil {
		return nil, err
	}
	if !xp.Feedback() {
		return nil, nil
	}
	return xp, nil
}

// End ends every program and closes its log, and returns the run's error:
// a program's failure, which explains the engine's refusal of the tier −1
// it answered, before runErr; ErrCanceled when ctx ended, so that an
// interrupted run counts as interrupted, not failed. A second call returns
// runErr alone.
func (ps *Programs) End(ctx context.Context, runErr error) error {
	if ps.ended {
		return runErr
	}
	ps.ended = true
	var progErr, logErr error
	for _, xp := range ps.ps {
		if err := xp.Close(); err != nil && progErr == nil {
			progErr = err
		}
	}
	for _, cl := range ps.closes {
		if err := cl(); err != nil && logErr == nil {
			logErr = err
		}
	}
	switch {
	case errors.Is(runErr, engine.ErrCanceled) || (runErr != nil || progErr != nil) && ctx.Err() != nil:
		return engine.ErrCanceled
	case progErr != nil:
		return progErr
	case runErr != nil:
		return runErr
	}
	return logErr
}
