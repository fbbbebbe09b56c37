package scenario

import (
	"slices"
	"strconv"
	"strings"
)

// disciplineNames lists the queue disciplines a tier may take; the
// empty one is fcfs.
func disciplineNames() []string { return []string{"fcfs", "ps", "srpt"} }

// HasBuffers reports whether a tier has a finite buffer: only then does
// runs.csv carry drop_share.
func (s *Scenario) HasBuffers() bool {
	return slices.ContainsFunc(s.Tiers, func(t Tier) bool { return t.Buffer > 0 })
}

// disciplines checks the tiers' disciplines and buffers. PS and SRPT
// tiers' departures are events whose times change with every task that
// reaches them: they take no capacity over time and no timeout.
func (c *checker) disciplines() {
	s := c.s
	for i, t := range s.Tiers {
		at := func(f string) []string { return sub(path("tiers", strconv.Itoa(i)), f) }
		if t.Discipline != "" && !slices.Contains(disciplineNames(), t.Discipline) {
			c.Add(at("discipline"), "%q is not allowed: must be one of %s", t.Discipline, strings.Join(disciplineNames(), ", "))
		}
		if t.Buffer != 0 {
			c.Integer(at("buffer"), t.Buffer, t.Buffer >= t.Servers, "must be ≥ servers ("+strconv.Itoa(t.Servers)+"): it counts the tasks in service too; leave it out for no limit")
			c.Upper(at("buffer"), float64(t.Buffer), MaxServers, "")
		}
		if t.Discipline != "ps" && t.Discipline != "srpt" {
			continue
		}
		if len(t.Episodes) > 0 || t.Slowdowns != nil || t.Failures != nil {
			c.Add(at("discipline"), "%s is not allowed with episodes, slowdowns or failures: only fcfs tiers take them", t.Discipline)
		}
		if s.Timeout > 0 {
			c.Add(at("discipline"), "%s is not allowed with timeout: only fcfs tiers take timeouts", t.Discipline)
		}
	}
}
