package runner

import "github.com/offload-sim/offload/internal/experiment"

// fewerSeedsHash is, under --resume, the scenario hash of the folder's
// results when they are this plan's scenario with fewer replicates (a
// finished `--seeds 5` resumed with `--seeds 10`), and "" otherwise.
// Replicate r's streams derive from (seed, r) alone, so the runs already
// there are runs of the larger plan, byte for byte, and --resume keeps them
// and runs only the new replicates. Fewer replicates than the folder holds
// are still refused: --resume adds runs, it never drops them.
func fewerSeedsHash(plan *experiment.Plan, opts Options) string {
	if !opts.Resume {
		return ""
	}
	m, err := ReadManifest(opts.Dir)
	if err != nil || m.Seeds <= 0 || m.Seeds >= plan.Scenario.Seeds {
		return ""
	}
	fewer := *plan.Scenario
	fewer.Seeds = m.Seeds
	if h := fewer.Hash(); h == m.ScenarioHash {
		return h
	}
	return ""
}
