package cmd

import (
	"math"

	"github.com/spf13/cobra"

	"github.com/offload-sim/offload/internal/estimators"
	"github.com/offload-sim/offload/internal/reproduce"
)

// modelOptions are the flags of `offload model`.
type modelOptions struct {
	io      IO
	sf      scenarioFlags
	servers int
	rate    float64
	mu      float64
	cs2     float64
	alpha   float64
	csv     bool
	cmd     *cobra.Command
}

func newModelCmd(io IO, runF func(*modelOptions) error) *cobra.Command {
	opts := &modelOptions{io: io}
	c := &cobra.Command{
		Use:     "model",
		Example: "  offload model --servers 4 --rate 80 --mu 25 --alpha 2.5\n  offload model -f experiments/sweep-load.yaml --rate 120 --csv",
		Short:   "Queueing calculator: ρ, Erlang C, M/M/c and Allen–Cunneen waits",
		Long: `A queueing calculator for one multi-server FCFS queue with Poisson arrivals:
  offload model --servers C --rate L --mu M (--cs2 X | --alpha A) [--csv]
prints ρ = λ/(cμ), the Erlang C probability of waiting, the M/M/c mean wait
and the Allen–Cunneen G/G/c mean wait W = C/(cμ − λ) · (1 + C_s²)/2.
  offload model -f scenario.yaml --rate L
does the same for every tier of a scenario, as if all load went to that tier
(without --rate: the scenario's rate).
At ρ ≥ 1 the queue is unstable and no wait is printed (with --csv the cells
are empty and "unstable" goes to stderr; the exit status stays 0).`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runModel(opts)
		},
	}
	opts.cmd = c
	fl := c.Flags()
	fl.StringVarP(&opts.sf.file, "file", "f", "", "scenario YAML `file`: one row per tier")
	fl.StringArrayVar(&opts.sf.sets, "set", nil, "override a scenario field (`path=value`)")
	fl.IntVar(&opts.servers, "servers", 0, "servers c (≥ 1)")
	fl.Float64Var(&opts.rate, "rate", 0, "arrival rate λ, tasks/s (> 0)")
	fl.Float64Var(&opts.mu, "mu", 0, "service rate μ of one server, tasks/s (> 0)")
	fl.Float64Var(&opts.cs2, "cs2", 0, "squared coefficient of variation of service times (≥ 0)")
	fl.Float64Var(&opts.alpha, "alpha", 0, "Pareto shape α (> 2): C_s² = 1/(α(α−2))")
	fl.BoolVar(&opts.csv, "csv", false, "one CSV header line and one row per queue")
	opts.sf.cmd = c
	return c
}

func runModel(o *modelOptions) error {
	rows, err := o.rows()
	if err != nil {
		return err
	}
	return writeModel(o.io.Out, o.io.Err, rows, o.sf.file != "", o.csv)
}

// rows turns the flags into the queues to compute, checking every argument.
func (o *modelOptions) rows() ([]queue, error) {
	fl := o.cmd.Flags()
	if o.sf.file != "" && !fl.Changed("rate") {
		o.rate = -1 // the scenario's, once it is read
	} else if !(o.rate > 0) || math.IsInf(o.rate, 0) {
		return nil, badInputf("--rate %g: need an arrival rate > 0 (tasks/s)", o.rate)
	}
	if o.sf.file != "" {
		for _, f := range []string{"servers", "mu", "cs2", "alpha"} {
			if fl.Changed(f) {
				return nil, badInputf("--%s: not allowed with -f (the scenario gives each tier's)", f)
			}
		}
		return o.scenarioRows()
	}
	if o.servers < 1 {
		return nil, badInputf("--servers %d: need an integer ≥ 1", o.servers)
	}
	if !(o.mu > 0) || math.IsInf(o.mu, 0) {
		return nil, badInputf("--mu %g: need a service rate > 0 (tasks/s)", o.mu)
	}
	cs2, err := o.scv()
	if err != nil {
		return nil, err
	}
	return []queue{{Servers: o.servers, Rate: o.rate, Mu: o.mu, Cs2: cs2}}, nil
}

// scv reads exactly one of --cs2 and --alpha.
func (o *modelOptions) scv() (float64, error) {
	fl := o.cmd.Flags()
	switch {
	case fl.Changed("cs2") && fl.Changed("alpha"):
		return 0, badInputf("--cs2 and --alpha: give one, not both")
	case fl.Changed("cs2"):
		if !(o.cs2 >= 0) || math.IsInf(o.cs2, 0) {
			return 0, badInputf("--cs2 %g: need a finite value ≥ 0", o.cs2)
		}
		return o.cs2, nil
	case fl.Changed("alpha"):
		cs2, err := estimators.ParetoCs2(o.alpha)
		if err != nil || math.IsInf(o.alpha, 0) {
			return 0, badInputf("--alpha %g: need a Pareto shape > 2 (alpha ≤ 2 has infinite variance)", o.alpha)
		}
		return cs2, nil
	}
	return 0, badInputf("need --cs2 X or --alpha A (the service-time variability)")
}

func (o *modelOptions) scenarioRows() ([]queue, error) {
	sc, err := o.sf.load(reproduce.DefaultScenario, o.sf.sets)
	if err != nil {
		return nil, err
	}
	if o.rate < 0 {
		o.rate = sc.Arrivals.Rate
	}
	return scenarioQueues(sc, o.rate)
}
