package tier

import (
	"slices"
	"strconv"
	"strings"

	"github.com/offload-sim/offload/internal/scenario/limit"
	"github.com/offload-sim/offload/internal/schema"
)

// disciplineNames lists the queue disciplines a tier may take; the
// empty one is fcfs.
func disciplineNames() []string { return []string{"fcfs", "ps", "srpt", "priority"} }

// CheckDisciplines checks the tiers' disciplines and buffers.
func CheckDisciplines(cc *schema.Checker, tiers []Tier) {
	c := tierChecker{cc}
	for i, t := range tiers {
		at := func(f string) []string { return sub(path("tiers", strconv.Itoa(i)), f) }
		if t.Discipline != "" && !slices.Contains(disciplineNames(), t.Discipline) {
			c.Add(at("discipline"), "%q is not allowed: must be one of %s", t.Discipline, strings.Join(disciplineNames(), ", "))
		}
		if t.Preemptive && t.Discipline != "priority" {
			c.Add(at("preemptive"), "true is not allowed with discipline %q: only priority takes it", t.Discipline)
		}
		if t.Buffer != 0 {
			c.Integer(at("buffer"), t.Buffer, t.Buffer >= t.Servers, "must be ≥ servers ("+strconv.Itoa(t.Servers)+"): it counts the tasks in service too; leave it out for no limit")
			c.Upper(at("buffer"), float64(t.Buffer), limit.MaxServers, "")
		}
	}
}
