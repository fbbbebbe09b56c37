package scenario

import "github.com/offload-sim/offload/internal/scenario/tier"

// The tiers' types, declared with their checks in package tier.
type (
	// Tier is one pool of identical servers behind a queue.
	Tier = tier.Tier
	// Power is a server's linear power model.
	Power = tier.Power
	// Delay is a lognormal communication delay.
	Delay = tier.Delay
)

// TierIndex returns the index of the tier with this name, or -1.
func (s *Scenario) TierIndex(name string) int {
	for i, t := range s.Tiers {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// tierKinds lists the tiers' kinds in order, for the catalog's Check.
func (s *Scenario) tierKinds() []string {
	kinds := make([]string, len(s.Tiers))
	for i, t := range s.Tiers {
		kinds[i] = t.Kind
	}
	return kinds
}

// tiers checks the list of tiers and each tier's own fields.
func (c *checker) tiers() { tier.Check(&c.Checker, c.s.Tiers) }

// ValidTierName reports whether name matches ^[a-z0-9_-]+$, the tier names
// (and policy labels) that become CSV column names; serve-tier checks its
// --name with it too.
func ValidTierName(name string) bool { return tier.ValidName(name) }
