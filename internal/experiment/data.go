package experiment

import (
	"fmt"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
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

// addEnergy gives each tier its power model and per-bit costs, as the
// policies see them (dispatch.Tier) and the energy columns read them.
func addEnergy(cfg *engine.Config, sc *scenario.Scenario) {
	for i, t := range sc.Tiers {
		tc := &cfg.Tiers[i]
		tc.IdlePower, tc.MaxPower = t.Power.Idle, t.Power.Max
		tc.TxEnergy, tc.RxEnergy = t.TxEnergy, t.RxEnergy
	}
}

// measuredEnergy hands the tiers' bit counts and, when the scenario
// models energy, the cell's energy models to the energy columns.
func measuredEnergy(m *results.Measured, cfg *engine.Config, res *engine.Result, on bool) {
	m.TierData, m.TierReply = make([]float64, len(res.Tier)), make([]float64, len(res.Tier))
	for i, t := range res.Tier {
		m.TierData[i], m.TierReply[i] = t.Data, t.Reply
	}
	if !on {
		return
	}
	m.Energy = make([]results.TierEnergy, len(res.Tier))
	for i, t := range res.Tier {
		tc := &cfg.Tiers[i]
		m.Energy[i] = results.TierEnergy{IdlePower: tc.IdlePower, MaxPower: tc.MaxPower, Servers: tc.Servers * max(t.Copies, 1),
			Speed: tc.Speed, TxEnergy: tc.TxEnergy, RxEnergy: tc.RxEnergy}
	}
}
