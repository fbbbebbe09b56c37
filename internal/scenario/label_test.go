package scenario

import (
	"reflect"
	"strings"
	"testing"
)

// TestParamLabel: a sweep's path reads as words with the unit the schema
// gives it, under the tier's name or the policy entry's label.
func TestParamLabel(t *testing.T) {
	for _, c := range []struct{ path, label, unit string }{
		{"arrivals.rate", "arrival rate", "tasks/s"},
		{"trace.rate", "arrival rate", "tasks/s"},
		{"trace.mean_size", "mean task size", "work units"},
		{"tiers.edge.servers", "edge servers", ""},
		{"tiers[1].speed", "tier 2 server speed", "work units/s"},
		{"tiers.cloud.delay.mean", "cloud delay mean", "s"},
		{"tiers.edge.delay.bandwidth", "edge delay bandwidth", "bit/s"},
		{"tiers.edge.power.max", "edge power at full load", "W"},
		{"tiers.edge.tx_energy", "edge send energy", "J/bit"},
		{"observation.period", "observation period T", "s"},
		{"observation.delay.mean", "observation delay mean", "s"},
		{"workload.size.mean", "task size mean", "work units"},
		{"tiers.edge.slowdowns.gap.mean", "edge slow-downs gap law mean", "s"},
		{"tiers[0].failures.length.low", "tier 1 failures length law lower bound", "s"},
		{"workload.data.proportional", "data per work unit", "bits"},
		{"arrivals.bursts.0.factor", "burst 1 factor", ""},
		{"arrivals.bursts[0].every", "burst 1 period", "s"},
		{"policies.0.epsilon", "policy 1 exploration probability ε", ""},
		{"arrivals.rates.1", "MMPP phase rate 2", "tasks/s"},
		{"estimator.window", "rate window", "s"},
		{"policies.h0.epsilon", "h0 exploration probability ε", ""},
		{"policies.h0.window", "h0 rate window", "s"},
		{"policies.h0.penalty.k", "h0 penalty k", ""},
		{"policies.hybrid-energy.energy_weight", "hybrid-energy energy weight", ""},
		{"devices", "devices", ""},
		{"nope.x", "nope.x", ""},
		{"tiers.edge.nope", "tiers.edge.nope", ""},
		{"a[", "a[", ""},
	} {
		l, u := ParamLabel(c.path)
		if l != c.label || u != c.unit {
			t.Errorf("ParamLabel(%q) = %q, %q; want %q, %q", c.path, l, u, c.label, c.unit)
		}
	}
}

// TestEveryNumberHasItsWords: every numeric field of the schema reads
// as words (no underscore) and a field whose doc gives a unit in seconds,
// tasks/s, work units, bits or watts has a unit tag, so that no sweep's
// axis falls back to a bare path.
func TestEveryNumberHasItsWords(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, at string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty == reflect.TypeFor[PolicyEntry]() {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			k := f.Type.Kind()
			if k == reflect.Slice {
				k = f.Type.Elem().Kind()
			}
			if k == reflect.Float64 && f.Tag.Get("unit") == "" && !unitless[at+name] {
				t.Errorf("%s%s (%s.%s): a number without a unit tag; add one, or list it as unitless", at, name, ty.Name(), f.Name)
			}
			walk(f.Type, at+name+".")
		}
	}
	walk(reflect.TypeFor[Scenario](), "")
}

// unitless are the schema's pure numbers: ratios, probabilities,
// coefficients of variation, factors, shapes.
var unitless = map[string]bool{
	"arrivals.cv": true, "arrivals.amplitude": true, "arrivals.bursts.factor": true,
	"workload.size.alpha": true, "workload.size.cv": true, "workload.large_quantile": true,
	"workload.data.alpha": true, "workload.data.cv": true, "workload.reply.alpha": true, "workload.reply.cv": true,
	"tiers.delay.cv": true, "estimator.epsilon": true, "estimator.rho_max": true,
	"estimator.penalty.threshold": true, "estimator.penalty.k": true,
	"observation.delay.cv": true, "observation.noise": true, "sweep.values": true,
	"tiers.episodes.speed": true, "tiers.slowdowns.speed": true, "classes.share": true,
}
