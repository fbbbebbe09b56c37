package results

import "math"

// The names of the energy columns (docs/design.md §1.11), present only
// when the scenario models energy (Layout.Energy).
const (
	ColEnergy     = "energy_j"
	ColEnergyIdle = "energy_idle_j"
)

// EnergyCol names a tier's energy column: energy_<tier>_j.
func EnergyCol(tier string) string { return "energy_" + tier + "_j" }

// TierEnergy is one tier's energy model as the energy columns read it.
type TierEnergy struct {
	IdlePower, MaxPower float64 // W, one server: P(u) = idle + (max − idle)·u
	Servers             int     // servers in all: c × the tier's copies (one per device for a local tier)
	Speed               float64 // work units/s of one server
	TxEnergy, RxEnergy  float64 // J/bit: the device's cost of sending the data, of receiving the reply
}

// energyColumns are energy_j, energy_idle_j and every tier's
// energy_<tier>_j, computed from the run's own models (Measured.Energy).
//
// Per measured task: energy_j is the energy the tasks caused, Σ over the
// tiers of (max − idle)·(their service time there, Σ size/speed) plus
// their data bits × tx_energy and reply bits × rx_energy, over the
// measured tasks; energy_idle_j is Σ idle × servers × the measured span,
// over the measured tasks; energy_<tier>_j is the tier's share of both, so
// that the tiers' columns add up to energy_j + energy_idle_j.
func energyColumns(tiers []string) []Column {
	cols := []Column{
		{Name: ColEnergy, Unit: "J", Doc: "energy caused per measured task: dynamic compute (P_max − P_idle)·service time, plus data × tx_energy and reply × rx_energy",
			Get: func(m *Measured) float64 {
				return m.perTask(func(i int) float64 { return m.dynamic(i) + m.transfer(i) })
			}},
		{Name: ColEnergyIdle, Unit: "J", Doc: "idle energy per measured task: Σ P_idle × servers × measured span, over the measured tasks",
			Get: func(m *Measured) float64 { return m.perTask(m.idle) }},
	}
	for i, t := range tiers {
		cols = append(cols, Column{Name: EnergyCol(t), Unit: "J", Doc: "energy of " + t + " per measured task: its dynamic, transfer and idle energy",
			Get: func(m *Measured) float64 {
				if i >= len(m.Energy) {
					return math.NaN()
				}
				return m.per(m.dynamic(i)+m.transfer(i)+m.idle(i), m.Tasks)
			}})
	}
	return cols
}

// perTask is Σ over the tiers of part, per measured task; NaN without
// energy models.
func (m *Measured) perTask(part func(i int) float64) float64 {
	if m.Energy == nil {
		return math.NaN()
	}
	var sum float64
	for i := range m.Energy {
		sum += part(i)
	}
	return m.per(sum, m.Tasks)
}

// dynamic is the dynamic compute energy of the measured tasks run at tier
// i, J: (max − idle) × their busy time on one server each, Σ size/speed.
func (m *Measured) dynamic(i int) float64 {
	e := m.Energy
	if i >= len(m.TierWork) {
		return math.NaN()
	}
	return (e[i].MaxPower - e[i].IdlePower) * m.TierWork[i] / e[i].Speed
}

// transfer is the device's transfer energy for the measured tasks sent to
// tier i, J: data bits × tx_energy (the sender pays the transmit cost) +
// reply bits × rx_energy (the receiver the receive cost). NaN when the
// measurements carry no bit counts but the tier has a cost.
func (m *Measured) transfer(i int) float64 {
	e := m.Energy
	var j float64
	if e[i].TxEnergy != 0 {
		if i >= len(m.TierData) {
			return math.NaN()
		}
		j += m.TierData[i] * e[i].TxEnergy
	}
	if e[i].RxEnergy != 0 {
		if i >= len(m.TierReply) {
			return math.NaN()
		}
		j += m.TierReply[i] * e[i].RxEnergy
	}
	return j
}

// idle is tier i's idle energy over the measured span, J.
func (m *Measured) idle(i int) float64 {
	e := m.Energy
	return e[i].IdlePower * float64(e[i].Servers) * m.Span
}
