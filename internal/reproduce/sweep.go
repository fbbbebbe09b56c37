package reproduce

import (
	"github.com/offload-sim/offload/internal/claims"
	"github.com/offload-sim/offload/internal/policies"
)

// The sweep experiments: each is its command, its embedded scenario
// (experiments/<name>.yaml) and its folder in a reproduction.
const (
	runName = "run"
	// DefaultScenario is the embedded scenario behind run, which the
	// commands that read a scenario without running an experiment
	// (validate, model, env) read too.
	DefaultScenario  = "default"
	sweepLoadName    = "sweep-load"
	edgeCapacityName = "edge-capacity"
	traceAzureName   = "trace-azure"
	// decisionName is claim 5's hybrid on the default scenario, its
	// decisions timed; a reproduction's experiment, with no command.
	decisionName = "decision"
	// explorationName is the folder of claim 1's ε = 0 comparison.
	explorationName = "exploration"
)

// runSpec is `offload run`: a scenario under its policies, its sweep
// expanded if it has one.
func runSpec() Experiment {
	s := sweepSpec(runName, "Run a scenario under its policies",
		`Run a scenario (the embedded default, or -f FILE) under each of its policies
and replicates, expanding its sweep if it has one. Writes runs.csv,
summary.csv, scenario.yaml and manifest.json (and plots for a sweep) into -o.`,
		"  offload run -f scenario.yaml -o results/run\n  offload run --policy hybrid,jsq --seeds 3 --set arrivals.rate=80 -o results/rate80")
	s.Embedded = DefaultScenario
	return s
}

func sweepLoadSpec() Experiment {
	return sweepSpec(sweepLoadName, "Latency of every policy against the arrival rate",
		`Run every policy over the arrival rates of the embedded sweep-load scenario:
mean, P95, P99 and large-task P95 latency and tier shares against the rate,
with 95% confidence intervals across replicates. -f FILE replaces the
scenario whole, its sweep included: the file's own sweep is run (one cell if
it has none), whatever parameter it sweeps.`,
		"  offload sweep-load -o results/sweep-load\n  offload sweep-load --policy hybrid,edge-first --seeds 3 --set 'sweep.values=[40, 120]'")
}

func edgeCapacitySpec() Experiment {
	return sweepSpec(edgeCapacityName, "Latency of every policy against the number of edge servers",
		`Run every policy over the edge server counts of the embedded edge-capacity
scenario, at a fixed arrival rate. -f FILE replaces the scenario whole, its
sweep included: the file's own sweep is run (one cell if it has none).`,
		"  offload edge-capacity -o results/edge-capacity\n  offload edge-capacity --policy hybrid,jsq --tasks 50000")
}

func traceAzureSpec() Experiment {
	return sweepSpec(traceAzureName, "Every policy replaying the Azure LLM code trace, against its rate",
		`Replay the Azure LLM inference trace 2023 (code; CC-BY 4.0) on the default
continuum under every policy, its time rescaled to each swept trace.rate and its
sizes to mean 1 (the embedded trace-azure scenario, or -f FILE with a trace block).`,
		"  offload trace-azure -o results/trace-azure\n  offload trace-azure --policy hybrid,jsq-s --set 'sweep.values=[60]'")
}

// sweepLoadStep is sweep-load in a reproduction: claims 1 and 2, and where
// --baselines adds the reference baselines.
func sweepLoadStep() step {
	return step{exp: sweepLoadSpec(), embedded: sweepLoadName, baselines: true, section: true}
}

func edgeCapacityStep() step {
	return step{exp: edgeCapacitySpec(), embedded: edgeCapacityName, section: true}
}

// decisionStep is claim 5's evidence: hybrid alone on the default
// scenario, its decisions timed.
func decisionStep() step {
	return step{exp: sweepSpec(decisionName, "", "", ""), embedded: runSpec().Embedded,
		extra: []string{"policies=[" + policies.NameHybrid + "]"}, timed: true, section: true}
}

// explorationStep is claim 1's evidence: sweep-load's scenario with an
// ε = 0 hybrid beside hybrid and edge-first, in a folder of its own so that
// sweep-load's published summary stays byte-identical (docs/paper/check.sh).
func explorationStep() step {
	return step{exp: sweepSpec(explorationName, "", "", ""), embedded: sweepLoadName, optional: true,
		extra: []string{"name=" + explorationName,
			"policies=[" + policies.NameHybrid + ", {name: " + policies.NameHybrid + ", as: " + claims.EpsZero + ", epsilon: 0}, " + policies.NameEdgeFirst + "]"}}
}
