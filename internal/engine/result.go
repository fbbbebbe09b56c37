package engine

import (
	"math"

	"github.com/offload-sim/offload/internal/tally"
)

// A run's result and its recording live in internal/tally; these aliases
// keep them the engine's names, as what Run returns and what its callers
// read (docs/layout.md says why aliases rather than tally's names).
type (
	Result       = tally.Result
	TierResult   = tally.TierResult
	ShadowResult = tally.ShadowResult
	Outcomes     = tally.Outcomes
	ClassResult  = tally.ClassResult
	TaskRecord   = tally.TaskRecord
)

// newResult is the empty result of a run of cfg over the physical tiers
// phys, with this many shadows: what recording needs of cfg, read once.
func newResult(cfg *Config, phys []tierState, shadows int) *Result {
	c := tally.Setup{Mu: make([]float64, len(cfg.Tiers)), MeanDelay: make([]float64, len(cfg.Tiers)),
		Shadows: shadows, ExactLimit: cfg.ExactLimit, Tasks: cfg.Tasks, Large: cfg.Large}
	for i := range cfg.Tiers {
		c.Mu[i], c.MeanDelay[i] = cfg.Tiers[i].Mu, cfg.Tiers[i].MeanDelay
	}
	if cfg.Tasks > 0 && cfg.Large < math.Inf(1) {
		c.LargeShare = 1 - cfg.Size.CDF(cfg.Large)
	}
	if len(cfg.Classes) > 0 {
		c.Deadlines = make([]float64, len(cfg.Classes))
		for k := range cfg.Classes {
			c.Deadlines[k] = cfg.Classes[k].Deadline
		}
	}
	r := tally.New(&c)
	for _, p := range phys {
		r.Tier[p.scen].Copies++
	}
	return r
}
