package tier

import (
	"strconv"

	"github.com/offload-sim/offload/internal/schema"
)

// MaxPower bounds a server's power, W (a megawatt per server is already
// ten racks).
const MaxPower = 1e6

// MaxEnergyPerBit bounds tx_energy and rx_energy, J/bit (10⁶ times a
// cellular radio's).
const MaxEnergyPerBit = 1e-1

// HasEnergy reports whether some tier has a power model or a per-bit
// cost.
func HasEnergy(tiers []Tier) bool {
	for _, t := range tiers {
		if t.Power != (Power{}) || t.TxEnergy != 0 || t.RxEnergy != 0 {
			return true
		}
	}
	return false
}

// CheckEnergy checks every tier's power model and per-bit costs; data
// and reply say whether workload.data and workload.reply are given, the
// bits the costs are paid on.
func CheckEnergy(cc *schema.Checker, tiers []Tier, data, reply bool) {
	c := tierChecker{cc}
	on := HasEnergy(tiers)
	for i, t := range tiers {
		at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
		if on && t.Name == "idle" {
			c.Add(at("name"), `"idle" is not allowed with energy models: its column energy_idle_j would be the idle energy's`)
		}
		if p := t.Power; p != (Power{}) {
			okI := c.Num(at("power", "idle"), p.Idle, p.Idle >= 0, "must be ≥ 0 (W, one server's power when idle)")
			if c.Num(at("power", "max"), p.Max, p.Max > 0, "must be > 0 (W, one server's power at full load)") {
				c.Upper(at("power", "max"), p.Max, MaxPower, " W")
				if okI && p.Max < p.Idle {
					c.Add(at("power", "max"), "%s is not allowed: must be ≥ idle (%s W): power grows with load", fmtNum(p.Max), fmtNum(p.Idle))
				}
			}
		}
		c.perBit(i, t, data, reply)
	}
}

// perBit checks a tier's tx_energy and rx_energy: J/bit on a link, with
// bits to pay them on.
func (c tierChecker) perBit(i int, t Tier, data, reply bool) {
	at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
	for _, f := range []struct {
		name, what string
		x          float64
		has        bool
	}{{"tx_energy", "workload.data", t.TxEnergy, data}, {"rx_energy", "workload.reply", t.RxEnergy, reply}} {
		if f.x == 0 {
			continue
		}
		if !c.Num(at(f.name), f.x, f.x > 0, "must be > 0 (J/bit), or leave it out") {
			continue
		}
		c.Upper(at(f.name), f.x, MaxEnergyPerBit, " J/bit")
		switch {
		case t.Kind == "local":
			c.Add(at(f.name), "%s is not allowed: a local tier runs on the device, with no link to send data over", fmtNum(f.x))
		case !f.has:
			c.Add(at(f.name), "%s is not allowed without %s: the tasks carry no bits to pay it on", fmtNum(f.x), f.what)
		}
	}
}
