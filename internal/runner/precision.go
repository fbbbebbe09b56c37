package runner

import "github.com/offload-sim/offload/internal/experiment"

// extraPrecision is the manifest's key of a run until precise.
const extraPrecision = "precision"

// precisionRecord is the manifest's account of the rule a folder's runs
// were made under.
type precisionRecord struct {
	Target   float64 `json:"target"`
	On       string  `json:"column"`
	Min      int     `json:"min_seeds"`
	MaxSeeds int     `json:"max_seeds"`
}

func recordOf(p *experiment.Precision) precisionRecord {
	return precisionRecord{Target: p.Rule.Target, On: p.Column, Min: p.Rule.Min, MaxSeeds: p.Rule.Max}
}

// Precise says whether the experiment takes --precision.
func (s Spec) Precise() bool { return !s.FixedSeeds }

// checkPrecision refuses --precision where its replicates cannot be known
// or used: a shard must know its runs before any has run (the rule's
// counts depend on the results of all of a cell's replicates, which are
// spread over the shards), and an experiment whose outputs read every
// cell's replicates as the scenario's seeds.
func checkPrecision(spec Spec, o Options) error {
	switch {
	case o.Precision == nil:
		return nil
	case !o.Shard.Whole():
		return BadInputf("--shard %d/%d with --precision: a run until precise decides its replicates from the results of the ones before, so no shard knows its runs in advance; run it whole, or give the shards a fixed --seeds", o.Shard.Index, o.Shard.Count)
	case spec.FixedSeeds:
		return BadInputf("--precision: %s compares its cells replicate by replicate over a fixed number of them; give --seeds instead", spec.Name)
	}
	return nil
}
