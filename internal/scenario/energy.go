package scenario

import "github.com/offload-sim/offload/internal/scenario/tier"

// The bounds of the tiers' energy models, declared in package tier.
const MaxPower, MaxEnergyPerBit = tier.MaxPower, tier.MaxEnergyPerBit

// HasEnergy reports whether the scenario models energy: some tier has a
// power model or a per-bit cost. Only then does runs.csv carry the energy
// columns (docs/design.md §1.11).
func (s *Scenario) HasEnergy() bool { return tier.HasEnergy(s.Tiers) }

// energy checks every tier's power model and per-bit costs, paid on the
// bits of workload.data and workload.reply.
func (c *checker) energy() {
	w := c.s.Workload
	tier.CheckEnergy(&c.Checker, c.s.Tiers, w.Data.Given(), w.Reply.Given())
}
