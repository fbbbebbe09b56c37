package scenario_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// TestKeyReference reads the reference from this package's source: every
// key of a scenario file has a row with a meaning, the defaults are
// Default's and the catalog's, and keys of a type met before point to it.
func TestKeyReference(t *testing.T) {
	keys, limits, err := scenario.Reference(os.DirFS("."), catalog)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]scenario.KeyRef{}
	for _, k := range keys {
		if k.Doc == "" {
			t.Errorf("key %s: no meaning", k.Path)
		}
		rows[k.Path] = k
	}
	for path, def := range map[string]string{"seed": "1", "seeds": "10", "workload.size.dist": "pareto", "workload.large_quantile": "0.9",
		"estimator.penalty.threshold": "0.9", "policies": strings.Join(catalog.Defaults(), ", "), "tasks": "", "tiers[].servers": ""} {
		if r, ok := rows[path]; !ok || r.Default != def {
			t.Errorf("key %s: row %+v, want default %q", path, r, def)
		}
	}
	if r := rows["workload.reply"]; !strings.Contains(r.Doc, "Its keys are those of `workload.data`") {
		t.Errorf("workload.reply: %q, want a pointer to workload.data's keys", r.Doc)
	}
	if _, ok := rows["workload.reply.mean"]; ok {
		t.Error("workload.reply's keys are listed again")
	}
	// The values are evaluated from the source's constant expressions:
	// they must be the compiled constants'.
	want := map[string]float64{"MaxServers": scenario.MaxServers, "MaxFileSize": scenario.MaxFileSize, "MaxWindow": scenario.MaxWindow, "MinRate": scenario.MinRate,
		"MaxEnergyPerBit": scenario.MaxEnergyPerBit, "MaxSLOs": scenario.MaxSLOs, "MinProcessCV": scenario.MinProcessCV}
	seen := 0
	for _, l := range limits {
		if l.Doc == "" {
			t.Errorf("bound %v: no reason", l.Names)
		}
		for i, n := range l.Names {
			if x, ok := want[n]; ok {
				seen++
				if got, err := readLimit(l.Values[i]); err != nil || got != x {
					t.Errorf("bound %s: %s reads as %g (%v), want %g", n, l.Values[i], got, err, x)
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d bounds checked are in the reference", seen, len(want))
	}
}

// readLimit reads a bound as the reference writes it: 10⁹, 100,000, 0.1.
func readLimit(s string) (float64, error) {
	if e, ok := strings.CutPrefix(s, "10"); ok && e != "" && strings.ContainsAny(e, "⁰¹²³⁴⁵⁶⁷⁸⁹") {
		e = strings.NewReplacer("⁻", "-", "⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9").Replace(e)
		return strconv.ParseFloat("1e"+e, 64)
	}
	return strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
}
