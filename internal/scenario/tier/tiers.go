package tier

import (
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/scenario/limit"
	"github.com/offload-sim/offload/internal/schema"
)

// Tier is one pool of identical servers behind an FCFS queue.
type Tier struct {
	Name    string  `yaml:"name"`                                           // [a-z0-9_-]+, unique
	Kind    string  `yaml:"kind"`                                           // local, edge or cloud
	Servers int     `yaml:"servers"`                                        // ≥ 1
	Speed   float64 `yaml:"speed" label:"server speed" unit:"work units/s"` // work units/s of one server, > 0
	Delay   Delay   `yaml:"delay,omitempty"`                                // to reach the tier; omitted: none
	// Power is one server's power model, W (omitted: none; docs/design.md §1.11).
	Power Power `yaml:"power,omitempty"`
	// TxEnergy and RxEnergy are the device's cost per bit, J/bit, of
	// sending a task's data to the tier and of receiving its reply
	// (non-local tiers; omitted: 0).
	TxEnergy float64 `yaml:"tx_energy,omitempty" label:"send energy" unit:"J/bit"`
	RxEnergy float64 `yaml:"rx_energy,omitempty" label:"receive energy" unit:"J/bit"`
	// Episodes are fixed spans at another speed or down, in time order
	// and disjoint (docs/model.md §1.12; omitted: none).
	Episodes []Episode `yaml:"episodes,omitempty" label:""`
	// Slowdowns are random spans at speed times the tier's speed, gap
	// seconds apart (omitted: none).
	Slowdowns *Recurring `yaml:"slowdowns,omitempty" label:"slow-downs"`
	// Failures are random spans during which the tier is down, gap
	// seconds apart (omitted: none); down wins over a slow-down.
	Failures *Recurring `yaml:"failures,omitempty" label:"failures"`
	// Discipline is the order the tier serves its tasks in: fcfs, ps
	// (processor sharing), srpt (least remaining work first, preemptive)
	// or priority (by class, the lower priority number first)
	// (omitted: fcfs).
	Discipline string `yaml:"discipline,omitempty" label:"queue discipline"`
	// Preemptive makes a priority tier preempt-resume: a task of a more
	// urgent class takes the server of the least urgent in service.
	Preemptive bool `yaml:"preemptive,omitempty"`
	// Buffer is the most tasks the tier holds, in service included, ≥
	// servers: a task that reaches it full is dropped, or sent again with
	// retries (omitted: no limit).
	Buffer int `yaml:"buffer,omitempty" label:"buffer" unit:"tasks"`
}

// Power is a server's linear power model: P(u) = Idle + (Max − Idle)·u at
// utilisation u ∈ [0, 1], W.
type Power struct {
	Idle float64 `yaml:"idle" label:"idle" unit:"W"`        // W, ≥ 0
	Max  float64 `yaml:"max" label:"at full load" unit:"W"` // W, ≥ idle, > 0
}

// Delay is a lognormal communication delay with this mean (s) and coefficient
// of variation; cv 0 is a constant delay, mean 0 no delay. A tier's delay
// may add the data's transfer time over Bandwidth.
type Delay struct {
	Mean float64 `yaml:"mean" unit:"s"` // s, ≥ 0
	CV   float64 `yaml:"cv" label:"CV"` // coefficient of variation, ≥ 0
	// Bandwidth is the link's bandwidth, bit/s (tiers only; omitted: no
	// limit): a task's workload.data adds data/bandwidth to its delay.
	Bandwidth float64 `yaml:"bandwidth,omitempty" unit:"bit/s"`
}

// kindNames lists the tier kinds (dispatch.Kind spells them the same way).
func kindNames() []string { return []string{"local", "edge", "cloud"} }

// Check checks the list of tiers at tiers, and each tier's fields: those
// of its capacity over time, its energy and its discipline apart.
func Check(cc *schema.Checker, tiers []Tier) {
	c := tierChecker{cc}
	if len(tiers) == 0 {
		c.Add(path("tiers"), "none given: at least one tier is needed")
		return
	}
	if !c.Count(path("tiers"), len(tiers), limit.MaxTiers, "tiers") {
		return
	}
	first := map[string]int{}
	for i, t := range tiers {
		at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
		if !ValidName(t.Name) {
			c.Add(at("name"), "%q is not allowed: must match ^[a-z0-9_-]+$ (it becomes a CSV column name)", t.Name)
		} else if j, dup := first[t.Name]; dup {
			c.Add(at("name"), "%q is not allowed: tier names must be unique (tiers[%d] has it too)", t.Name, j)
		} else {
			first[t.Name] = i
		}
		c.tier(i, t)
	}
}

// tier checks one tier's fields but its name, whose uniqueness is the
// list's.
func (c tierChecker) tier(i int, t Tier) {
	at := func(f ...string) []string { return sub(path("tiers", strconv.Itoa(i)), f...) }
	if !slices.Contains(kindNames(), t.Kind) {
		c.Add(at("kind"), "%q is not allowed: must be one of %s", t.Kind, strings.Join(kindNames(), ", "))
	}
	c.Integer(at("servers"), t.Servers, t.Servers >= 1, "must be ≥ 1")
	c.Upper(at("servers"), float64(t.Servers), limit.MaxServers, "")
	c.Num(at("speed"), t.Speed, t.Speed > 0, "must be > 0 (work units/s)")
	c.Within(at("speed"), t.Speed, limit.MinSpeed, limit.MaxSpeed, " work units/s")
	c.Num(at("delay", "mean"), t.Delay.Mean, t.Delay.Mean >= 0, "must be ≥ 0 (s)")
	c.Upper(at("delay", "mean"), t.Delay.Mean, limit.MaxDelay, " s")
	c.Num(at("delay", "cv"), t.Delay.CV, t.Delay.CV >= 0, "must be ≥ 0 (coefficient of variation)")
	c.Upper(at("delay", "cv"), t.Delay.CV, limit.MaxCV, "")
}

// ValidName reports whether name matches ^[a-z0-9_-]+$, the tier names
// (and class names and policy labels) that become CSV column names.
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// CheckOne checks the fields of tiers[i], t, but its name, whose
// uniqueness is the list's: what a sweep's cell that varies one tier needs.
func CheckOne(cc *schema.Checker, i int, t Tier) { tierChecker{cc}.tier(i, t) }
