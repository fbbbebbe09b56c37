package cmd

import (
	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/reproduce"
)

// validateOptions are the flags of `offload validate`.
type validateOptions struct {
	io IO
	sf scenarioFlags
}

func newValidateCmd(io IO, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{io: io}
	c := &cobra.Command{
		Use:   "validate",
		Short: "Check a scenario and print it resolved (defaults filled in)",
		Long: `Check a scenario file (or the embedded default) with its --set overrides,
and print it fully resolved, or every problem found (exit status 2).`,
		Example: "  offload validate -f scenario.yaml\n  offload validate --set tiers.edge.servers=8 --set 'policies=[hybrid, jsq]'",
		Args:    noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runValidate(opts)
		},
	}
	opts.sf.register(c)
	return c
}

func runValidate(o *validateOptions) error {
	sc, err := o.sf.load(reproduce.DefaultScenario, o.sf.sets)
	if err != nil {
		return err
	}
	if _, err := sc.Cells(); err != nil {
		return badInput(err)
	}
	b, err := sc.Marshal()
	if err != nil {
		return err
	}
	_, err = o.io.Out.Write(b)
	return err
}
