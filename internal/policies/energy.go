package policies

import "github.com/offload-sim/offload/internal/dispatch"

// NameHybridEnergy is this project's energy-aware hybrid (not the paper's).
const NameHybridEnergy = "hybrid-energy"

// maxEnergyWeight bounds energy_weight, s/J.
const maxEnergyWeight = 1e6

// energySpec is the energy-aware hybrid (docs/design.md §3.8): hybrid's
// routing score plus energy_weight × the task's expected energy at the
// tier, with every option of hybrid. At energy_weight 0 it decides exactly
// as hybrid does, draw for draw.
func energySpec() Spec {
	s := estimatorSpec(NameHybridEnergy, "ours: hybrid's score + energy_weight × the task's expected energy at the tier (dynamic compute, its data's tx, the mean reply's rx)", modeHybrid)
	s.paper = false
	s.options = append(s.options, option{Name: "energy_weight", Doc: "s/J: seconds of routing score per joule of expected energy; 0 (the default) decides as hybrid",
		Check: number(func(x float64) bool { return x >= 0 && x <= maxEnergyWeight }, "in [0, 1e6] (s/J)")})
	build := s.construct
	s.construct = func(b Build) (dispatch.Policy, error) {
		pol, err := build(b)
		if err != nil {
			return nil, err
		}
		e := pol.(*estimating)
		e.energy = newEnergyCost(b.Tiers, b.options.Float("energy_weight", 0), b.MeanReply)
		return e, nil
	}
	return s
}

// energyCost is the energy term of hybrid-energy's score at each tier:
// weight × (fixed_i + data × tx_i), with fixed_i = (P_max − P_idle)/μ_i
// (the dynamic energy of a mean service time on one server) + E[reply] ×
// rx_i, and data the bits of the task being decided (View.Data: a device
// knows what it uploads). Idle power is left out: it is drawn whatever the
// decision.
type energyCost struct {
	weight    float64
	fixed, tx []float64
}

func newEnergyCost(tiers []dispatch.Tier, weight, meanReply float64) *energyCost {
	c := &energyCost{weight: weight, fixed: make([]float64, len(tiers)), tx: make([]float64, len(tiers))}
	for i, t := range tiers {
		c.fixed[i] = (t.MaxPower-t.IdlePower)/t.Mu + meanReply*t.RxEnergy
		c.tx[i] = t.TxEnergy
	}
	return c
}

// cost is the term added to tier i's score for the task in v, s.
func (c *energyCost) cost(v *dispatch.View, i int) float64 {
	return c.weight * (c.fixed[i] + v.Data*c.tx[i])
}
