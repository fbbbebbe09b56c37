package reproduce

import (
	"fmt"
	"strings"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
)

// balancersName is the balancers experiment's command and embedded
// scenario.
const balancersName = "balancers"

// balancersSpec is the production balancers' experiment: their algorithms
// beside the queueing references over the number of balancers in front of
// one pool (the embedded scenario), over load, or over one backend slowed
// for a while (experiments/balancers-load.yaml, balancers-slow.yaml).
func balancersSpec() Experiment {
	s := sweepSpec(balancersName, "The production load balancers' algorithms against the number of balancers, the load or a slow server",
		`Run the production load balancers' algorithms (round-robin, least-conn, p2c,
peak-ewma, prequal) beside jsq, power-of-d, lwl, jiq, hybrid and the oracle on
a pool of ten alike backends, over the number of balancers in front of it, 1
to 100, each a device with its own counts and measurements (the embedded
balancers scenario, or -f FILE: experiments/balancers-load.yaml sweeps the
load, experiments/balancers-slow.yaml slows one backend for a while). The scenario must
sweep devices, arrivals.rate or a tier's speed, servers or episode speed. Writes the
sweep's files and plots.`,
		"  offload balancers -o results/balancers\n  offload balancers -f experiments/balancers-load.yaml -o results/balancers-load")
	s.Prepare = func(plan *experiment.Plan, _ runner.Args) error {
		sw := plan.Scenario.Sweep
		if sw == nil {
			return fmt.Errorf("%s: the scenario must sweep devices, arrivals.rate, or a tier's speed, servers or episode speed (tiers.<name>.speed, .servers, .episodes.<k>.speed)", balancersName)
		}
		p := sw.Param
		if p == "devices" || p == "arrivals.rate" ||
			strings.HasPrefix(p, "tiers.") && (strings.HasSuffix(p, ".speed") || strings.HasSuffix(p, ".servers")) {
			return nil
		}
		return fmt.Errorf("%s: the scenario sweeps %s; allowed: devices, arrivals.rate, tiers.<name>.speed, .servers, .episodes.<k>.speed", balancersName, p)
	}
	return s
}
