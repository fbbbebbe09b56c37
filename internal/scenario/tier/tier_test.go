package tier_test

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario/load"
	"github.com/offload-sim/offload/internal/scenario/tier"
	"github.com/offload-sim/offload/internal/schema"
)

// problems runs one check and returns its messages, one a line.
func problems(check func(*schema.Checker)) string {
	var c schema.Checker
	check(&c)
	var lines []string
	for _, e := range c.Errs {
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

// TestClone: a clone's episodes and laws are its own.
func TestClone(t *testing.T) {
	tiers := []tier.Tier{{Name: "a", Episodes: []tier.Episode{{Start: 1, End: 2, Down: true}},
		Slowdowns: &tier.Recurring{Gap: load.Dist{Dist: "exponential", Mean: 1}, Speed: 0.5}}}
	c := tier.Clone(tiers)
	c[0].Episodes[0].End = 3
	c[0].Slowdowns.Speed = 0.25
	if tiers[0].Episodes[0].End != 2 || tiers[0].Slowdowns.Speed != 0.5 {
		t.Errorf("writing the clone changed the original: %+v", tiers[0])
	}
	if tier.Clone(nil) != nil {
		t.Error("a clone of no tiers is not nil")
	}
}

// TestCheckDynamics: the tiers may not all be down at once.
func TestCheckDynamics(t *testing.T) {
	down := func(a, b float64) []tier.Episode { return []tier.Episode{{Start: a, End: b, Down: true}} }
	tiers := []tier.Tier{{Name: "a", Episodes: down(10, 20)}, {Name: "b", Episodes: down(15, 30)}}
	got := problems(func(c *schema.Checker) { tier.CheckDynamics(c, tiers) })
	if want := "tiers: every tier is down at once in [15, 20) s by its episodes"; !strings.Contains(got, want) {
		t.Errorf("overlapping down episodes: %q, want %q", got, want)
	}
	tiers[1].Episodes = down(20, 30)
	if got := problems(func(c *schema.Checker) { tier.CheckDynamics(c, tiers) }); got != "" {
		t.Errorf("disjoint down episodes: %q, want no problem", got)
	}
}

// TestCheckEnergy: a per-bit cost needs the bits it is paid on, which the
// caller says are given.
func TestCheckEnergy(t *testing.T) {
	tiers := []tier.Tier{{Name: "edge", Kind: "edge", TxEnergy: 1e-6}}
	want := "tiers[0].tx_energy: 1e-06 is not allowed without workload.data"
	if got := problems(func(c *schema.Checker) { tier.CheckEnergy(c, tiers, false, false) }); !strings.Contains(got, want) {
		t.Errorf("no data: %q, want %q", got, want)
	}
	if got := problems(func(c *schema.Checker) { tier.CheckEnergy(c, tiers, true, false) }); got != "" {
		t.Errorf("with data: %q, want no problem", got)
	}
}

// TestValidName: the names that become CSV columns.
func TestValidName(t *testing.T) {
	for name, ok := range map[string]bool{"edge-1_b": true, "": false, "Edge": false, "a b": false, "a,b": false} {
		if tier.ValidName(name) != ok {
			t.Errorf("ValidName(%q) = %v, want %v", name, !ok, ok)
		}
	}
}
