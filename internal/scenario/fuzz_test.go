package scenario_test

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// fuzzPaths are the numeric fields FuzzParse sets near their bounds.
var fuzzPaths = []string{
	"seeds", "tasks", "warmup", "duration", "warmup_time", "arrivals.rate",
	"arrivals.bursts.0.start", "arrivals.bursts.0.every", "arrivals.bursts.0.length", "arrivals.bursts.0.factor",
	"workload.size.mean", "workload.size.alpha", "workload.size.cv",
	"tiers.0.servers", "tiers.0.speed", "tiers.0.delay.mean", "tiers.0.delay.cv",
	"estimator.window", "estimator.penalty.k", "policies.0.epsilon", "sweep.values.0",
}

// FuzzParse feeds arbitrary files and overrides to Parse: errors are fine,
// panics are not, whatever parses must survive Marshal and Parse, and every
// accepted scenario (and each of its cells) must be within the bounds. The
// override field=x sets one numeric field, seeded with values near and
// beyond each bound.
func FuzzParse(f *testing.F) {
	bounds := []float64{
		scenario.MaxServers, scenario.MaxSeeds, scenario.MaxTasks, scenario.MaxArrivals,
		scenario.MinRate, scenario.MaxRate, scenario.MinSpeed, scenario.MaxSpeed,
		scenario.MinMean, scenario.MaxMean, scenario.MaxAlpha, scenario.MaxCV, scenario.MaxDelay,
		scenario.MinBurstFactor, scenario.MaxBurstFactor, scenario.MinBurstTime, scenario.MaxSpan,
		scenario.MaxPenaltyK, 0, 1, 2,
	}
	lognormal := []byte("tasks: 1000\narrivals: {rate: 10, bursts: [{start: 0, every: 10, length: 1, factor: 2}]}\n" +
		"workload: {size: {dist: lognormal, mean: 1, cv: 1}}\n" +
		"tiers: [{name: edge, kind: edge, servers: 2, speed: 10, delay: {mean: 0.01, cv: 0.5}}]\n" +
		"policies: [{name: hybrid, epsilon: 0.1}]\nsweep: {param: tiers.0.speed, values: [5]}\n")
	duration := []byte("duration: 100\nwarmup_time: 10\narrivals: {rate: 10, bursts: [{start: 0, every: 10, length: 1, factor: 2}]}\n" +
		"tiers: [{name: edge, kind: edge, servers: 2, speed: 10}]\npolicies: [hybrid]\n")
	for i, b := range bounds {
		for _, x := range []float64{b, math.Nextafter(b, math.Inf(1)), math.Nextafter(b, math.Inf(-1)), b * 10, b / 10} {
			f.Add(lognormal, "seeds=1", uint8(i), x)
			f.Add(duration, "seeds=2", uint8(i+7), x)
		}
	}
	for _, file := range fixtureFiles(f, "*.yaml") {
		f.Add(readFixture(f, file), "tiers.0.servers=2", uint8(0), 1.0)
	}
	f.Add([]byte("a: &a [*a, *a]\n"), "sweep={param: arrivals.rate, values: [1]}", uint8(5), 1e300)
	f.Add([]byte("tiers: [{<<: &x {name: a}, <<: *x}]\n"), "workload.size.dist=lognormal", uint8(12), 1e200)
	f.Add(lognormal, "seeds=3\n---\nx", uint8(1), 1e9)
	f.Add(lognormal, "policies.0.penalty={k: 1e400}", uint8(19), math.NaN())
	f.Fuzz(func(t *testing.T, data []byte, set string, field uint8, x float64) {
		sets := []string{set, fuzzPaths[int(field)%len(fuzzPaths)] + "=" + strconv.FormatFloat(x, 'f', -1, 64)}
		s, err := scenario.Parse("fuzz.yaml", data, sets, catalog)
		if err != nil {
			_ = err.Error()
			return
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed scenario: %v", err)
		}
		again, err := scenario.Parse("resolved.yaml", out, nil, catalog)
		if err != nil {
			t.Fatalf("Parse(Marshal()) failed: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("Parse(Marshal()) = %+v, want %+v\n%s", again, s, out)
		}
		cells, err := s.Cells()
		if err != nil {
			t.Fatalf("Cells() of a valid scenario: %v", err)
		}
		if len(cells) > scenario.MaxCells {
			t.Fatalf("%d cells, over MaxCells", len(cells))
		}
		for _, c := range cells {
			if msg := outOfBounds(c.Scenario); msg != "" {
				t.Fatalf("accepted a scenario out of bounds: %s\n%s", msg, out)
			}
		}
		_ = s.Estimate()
	})
}

// outOfBounds says which bound an accepted scenario breaks, or "".
func outOfBounds(s *scenario.Scenario) string {
	in := func(x, lo, hi float64) bool { return x >= lo && x <= hi }
	switch {
	case !in(float64(s.Seeds), 1, scenario.MaxSeeds):
		return fmt.Sprintf("seeds %d", s.Seeds)
	case s.Tasks < 0 || (s.Warmup < 0 && !s.Warmup.Auto()) || s.Tasks+s.Warmup.Fixed() > scenario.MaxTasks:
		return fmt.Sprintf("tasks %d + warmup %v", s.Tasks, s.Warmup)
	case !in(s.Duration+s.WarmupTime, 0, scenario.MaxSpan):
		return fmt.Sprintf("duration %v + warmup_time %v", s.Duration, s.WarmupTime)
	case !in(s.Arrivals.Rate, scenario.MinRate, scenario.MaxRate):
		return fmt.Sprintf("rate %v", s.Arrivals.Rate)
	case !in(s.Workload.Size.Mean, scenario.MinMean, scenario.MaxMean) || !in(s.Workload.Size.CV, 0, scenario.MaxCV) ||
		!in(s.Workload.Size.Alpha, 0, scenario.MaxAlpha):
		return fmt.Sprintf("size %+v", s.Workload.Size)
	case !in(s.Estimator.Window, 0, scenario.MaxWindow) || !in(s.Estimator.Penalty.K, 0, scenario.MaxPenaltyK):
		return fmt.Sprintf("estimator %+v", s.Estimator)
	case len(s.Tiers) > scenario.MaxTiers || len(s.Arrivals.Bursts) > scenario.MaxBursts || len(s.Policies) > scenario.MaxEntries:
		return "too many items"
	}
	for _, b := range s.Arrivals.Bursts {
		if !in(b.Factor, scenario.MinBurstFactor, scenario.MaxBurstFactor) || !in(b.Length, scenario.MinBurstTime, scenario.MaxSpan) ||
			!(b.Every == 0 || in(b.Every, scenario.MinBurstTime, scenario.MaxSpan)) || !in(b.Start, 0, scenario.MaxSpan) {
			return fmt.Sprintf("burst %+v", b)
		}
	}
	for _, t := range s.Tiers {
		if !in(float64(t.Servers), 1, scenario.MaxServers) || !in(t.Speed, scenario.MinSpeed, scenario.MaxSpeed) ||
			!in(t.Delay.Mean, 0, scenario.MaxDelay) || !in(t.Delay.CV, 0, scenario.MaxCV) {
			return fmt.Sprintf("tier %+v", t)
		}
	}
	if e := s.Estimate(); !in(e.ArrivalsPerRun, 0, scenario.MaxArrivals) {
		return fmt.Sprintf("%v arrivals per run", e.ArrivalsPerRun)
	}
	return ""
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: 1\n", i)
	}
	return b.String()
}

// aliasBomb nests aliases inside a policy option: each level doubles.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("policies: [{name: hybrid, penalty: &p0 [1, 1]}")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, ", {name: jsq, as: j%d, o: &p%d [*p%d, *p%d]}", i, i, i-1, i-1)
	}
	b.WriteString("]\n")
	return b.String()
}

// TestParseHostile pins inputs that once could, or easily could, blow up:
// they must fail fast with a message, not hang or panic.
func TestParseHostile(t *testing.T) {
	var merges strings.Builder
	merges.WriteString("tasks: 1\narrivals: {rate: 1}\ntiers:\n  - &t0 {name: a, kind: edge, servers: 1, speed: 1}\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&merges, "  - &t%d {<<: [*t%d, *t%d, *t%d]}\n", i, i-1, i-1, i-1)
	}
	tests := []struct {
		name, data, want string
		sets             []string
	}{
		{"second document in a --set", minimal, `--set seeds: "3\n---\nx" is not allowed: a second YAML document`, []string{"seeds=3\n---\nx"}},
		{"set out of range", minimal, `--set workload.size.cv: 1e+200 is out of range: must be ≤ 100`, []string{"workload.size={dist: lognormal, cv: 1e200}"}},
		{"merge bomb", merges.String(), "the document expands to more than", nil},
		{"self merge", "tasks: 1\nestimator: &e {<<: *e}\n", "estimator", nil},
		{"alias cycle", "tiers: &t [*t]\n", `tiers[0]: a list is not allowed: want a mapping`, nil},
		{"scalar document", "5\n", `"5" is not allowed: a scenario is a mapping`, nil},
		{"merge of a scalar", "estimator: {<<: 5}\n", `estimator: "5" is not allowed in a merge`, nil},
		{"key is a list", "[a]: 1\n", "a list is not allowed as a key", nil},
		{"many unknown keys", minimal + strings.Repeat("k: 1\n", 3) + manyKeys(20000), `unknown field "k19999"`, nil},
		{"two merge keys", "estimator: {<<: {window: 1}, <<: {epsilon: 0}}\n", `estimator: field "<<" given twice`, nil},
		{"too many cells", minimal + "sweep: {param: arrivals.rate, values: [" + strings.Repeat("1,", scenario.MaxCells) + "1]}\n",
			"sweep.values: 10001 values is out of range: must be ≤ 10000 (one cell each)", nil},
		{"too many tiers", "tasks: 1\narrivals: {rate: 1}\ntiers: [&t {name: a, kind: edge, servers: 1, speed: 1}" + strings.Repeat(", *t", scenario.MaxTiers) + "]\n",
			"tiers: 1001 tiers is out of range: must be ≤ 1000", nil},
		{"too many policies", minimal + "policies: [" + strings.Repeat("jsq, ", scenario.MaxEntries) + "jsq]\n",
			"policies: 1001 policies is out of range: must be ≤ 1000", nil},
		{"deep option", minimal + "policies: [{name: hybrid, penalty: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}]\n", "policies[0].penalty", nil},
		{"option alias bomb", minimal + "x: &a [1, 1]\n" + aliasBomb(), "the document expands to more than", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenario.Parse("hostile.yaml", []byte(tt.data), tt.sets, catalog)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%.60q) = %v, want an error containing %q", tt.data, err, tt.want)
			}
		})
	}
}
