package experiment

import (
	"fmt"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// dataLaw maps a scenario's data law (workload.data, workload.reply) onto
// the workload's; the zero Data is none.
func dataLaw(d scenario.Data) (workload.DataLaw, error) {
	switch {
	case !d.Given():
		return workload.DataLaw{}, nil
	case d.Proportional > 0:
		return workload.Proportional(d.Proportional)
	}
	dist, err := sizeDist(d.Law())
	return workload.DataLaw{Dist: dist}, err
}

// addData gives cfg the scenario's data and reply laws and each tier's
// bandwidth, and adds the mean transfer time E[data]/B to each tier's D̄:
// what the estimator policies know of the delay is its configured mean,
// propagation and transfer alike (docs/design.md §1.5).
func addData(cfg *engine.Config, sc *scenario.Scenario) error {
	var err error
	if cfg.Data, err = dataLaw(sc.Workload.Data); err != nil {
		return fmt.Errorf("workload.data: %w", err)
	}
	if cfg.Reply, err = dataLaw(sc.Workload.Reply); err != nil {
		return fmt.Errorf("workload.reply: %w", err)
	}
	mean := cfg.Data.Mean(cfg.Size.Mean())
	for i, t := range sc.Tiers {
		tc := &cfg.Tiers[i]
		tc.Bandwidth = t.Delay.Bandwidth
		tc.MeanDelay += workload.TransferTime(mean, tc.Bandwidth)
	}
	return nil
}
