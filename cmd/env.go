package cmd

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/gymenv"
	"github.com/offload-sim/offload/internal/reproduce"
)

// envOptions are the flags of `offload env`.
type envOptions struct {
	io   IO
	sf   scenarioFlags
	envs int
}

const envLong = `Serve the simulator as a learning environment over stdin and stdout
(docs/env.md): one step is one dispatch decision of the scenario's device,
the observation is what its observation model lets the device see (plus the
task's size, marked clairvoyant, and its data where the scenario draws it),
the action is a tier, and the reward is −∫ (tasks in system) dt since the
previous step, so that an episode's return is minus the total sojourn time
of its tasks.

The server holds --envs environments and answers one binary frame per
batched reset or step; it exits when stdin ends. Environment i's first
episode is replicate i of the scenario's seed (that of ` + "`offload run`" + `), each of
its later ones --envs replicates on. A client normally starts it for you:
python/offload_gym's OffloadEnv and VectorOffloadEnv.`

func newEnvCmd(io IO, runF func(*envOptions) error) *cobra.Command {
	o := &envOptions{io: io}
	c := &cobra.Command{
		Use:     "env",
		Short:   "Serve the simulator as a learning environment on stdin/stdout",
		Long:    envLong,
		Example: "  offload env -f scenario.yaml\n  PYTHONPATH=python python3 -c 'import offload_gym; e = offload_gym.OffloadEnv(); print(e.reset(seed=1))'",
		Args:    noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return runEnv(c.Context(), o)
		},
	}
	o.sf.register(c)
	_ = c.Flags().MarkHidden("seeds") // an environment's episodes are replicates: the client picks them
	c.Flags().IntVarP(&o.envs, "envs", "n", 1, "environments in this server, stepped together")
	return c
}

func runEnv(ctx context.Context, o *envOptions) error {
	if o.sf.cmd != nil && o.sf.cmd.Flags().Changed("seeds") {
		return badInputf("--seeds: an environment's episodes are replicates its client picks (reset(seed=...)); leave it out")
	}
	sc, err := o.sf.load(reproduce.DefaultScenario, o.sf.sets)
	if err != nil {
		return err
	}
	setup, err := gymenv.New(sc)
	if err != nil {
		return badInput(err)
	}
	srv, err := setup.NewServer(o.envs)
	if err != nil {
		return badInput(err)
	}
	if o.io.In == nil {
		return errors.New("env: no input stream")
	}
	// Serve blocks in a read of stdin, which an interrupt cannot end: it
	// runs apart, and an interrupt returns at once (the process then exits).
	done := make(chan error, 1)
	go func() { done <- srv.Serve(o.io.In, o.io.Out) }()
	select {
	case err := <-done:
		if errors.Is(err, gymenv.ErrProtocol) {
			return badInput(err)
		}
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
