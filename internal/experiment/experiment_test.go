package experiment

import (
	"context"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

// defaultAt is the embedded default scenario at the given rate, shortened.
func defaultAt(t *testing.T, rate float64, tasks, seeds int, extra ...string) *scenario.Scenario {
	t.Helper()
	data, err := experiments.Get("default")
	if err != nil {
		t.Fatal(err)
	}
	sets := append([]string{"arrivals.rate=" + strconv.FormatFloat(rate, 'g', -1, 64),
		"tasks=" + strconv.Itoa(tasks), "warmup=" + strconv.Itoa(tasks/10), "seeds=" + strconv.Itoa(seeds)}, extra...)
	sc, err := scenario.Parse("default.yaml", data, sets, Catalog())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func execute(t *testing.T, sc *scenario.Scenario, workers int) []results.Run {
	t.Helper()
	plan, err := NewPlan("test", sc)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := plan.Execute(context.Background(), Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	runs := make([]results.Run, len(outs))
	for i := range outs {
		runs[i] = outs[i].Run
	}
	return runs
}

// TestOracleNotWorse: the clairvoyant greedy reference is not worse than any
// other policy on mean latency, by the paired 95% interval across replicates
// (common random numbers), at low, middle and high load.
func TestOracleNotWorse(t *testing.T) {
	tasks, seeds := 20000, 8
	if testing.Short() {
		tasks, seeds = 5000, 5
	}
	for _, rate := range []float64{20, 80, 150} {
		runs := execute(t, defaultAt(t, rate, tasks, seeds), 2)
		by := map[string][]float64{}
		for _, r := range runs {
			by[r.Policy] = append(by[r.Policy], r.Get(results.ColMeanLatency))
		}
		for pol, lat := range by {
			if pol == "oracle" {
				continue
			}
			d, ci, n := results.PairedDiff(by["oracle"], lat)
			if n != seeds {
				t.Fatalf("rate %v, %s: %d pairs, want %d", rate, pol, n, seeds)
			}
			if d-ci > 0 {
				t.Errorf("rate %v: oracle − %s = %.4g ± %.3g s: oracle is worse", rate, pol, d, ci)
			}
		}
	}
}

// TestWorkersDoNotChangeResults: 1 and 3 workers give identical runs.
func TestWorkersDoNotChangeResults(t *testing.T) {
	sc := defaultAt(t, 100, 3000, 3, "policies=[hybrid, jsq, random, oracle]")
	a, b := execute(t, sc, 1), execute(t, sc, 3)
	if !reflect.DeepEqual(nanFree(a), nanFree(b)) {
		t.Error("runs differ between 1 and 3 workers")
	}
}

// nanFree replaces NaN (never equal to itself) so runs compare with
// DeepEqual, and blanks decision_ns, which is wall-clock.
func nanFree(rs []results.Run) []results.Run {
	out := append([]results.Run(nil), rs...)
	for i := range out {
		if math.IsNaN(out[i].Value) {
			out[i].Value = -1
		}
		vals := append([]float64(nil), out[i].Values...)
		for j := range vals {
			if math.IsNaN(vals[j]) || out[i].Cols[j].Name == results.ColDecisionNs {
				vals[j] = -1
			}
		}
		out[i].Values = vals
		out[i].Cols = nil // functions do not compare; the names are the plan's
	}
	return out
}

// TestHaveSkipsJobs: jobs reported as had are not run.
func TestHaveSkipsJobs(t *testing.T) {
	sc := defaultAt(t, 60, 1000, 2, "policies=[jsq, random]")
	plan, err := NewPlan("test", sc)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := plan.Execute(context.Background(), Options{Workers: 2, Have: func(i int) bool { return i%2 == 0 }})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		if (i%2 == 0) != (r.Policy == "") {
			t.Errorf("job %d: policy %q", i, r.Policy)
		}
	}
}

// TestMAPEOnlyForEstimators: mape is filled exactly for the estimator policies.
func TestMAPEOnlyForEstimators(t *testing.T) {
	sc := defaultAt(t, 60, 2000, 1)
	for _, r := range execute(t, sc, 2) {
		est := r.Policy == "hybrid" || r.Policy == "model-only" || r.Policy == "queue-only"
		if mape := r.Get(results.ColMAPE); est == math.IsNaN(mape) {
			t.Errorf("%s: mape %v", r.Policy, mape)
		}
	}
}

// TestCatalogIsTheRegistry: scenarios validate against the registry
// itself, and a file without policies gets the paper's eight.
func TestCatalogIsTheRegistry(t *testing.T) {
	c := Catalog()
	if !reflect.DeepEqual(c.Names(), policies.Names()) || !reflect.DeepEqual(c.Defaults(), policies.Defaults()) {
		t.Errorf("catalog %v / %v, registry %v / %v", c.Names(), c.Defaults(), policies.Names(), policies.Defaults())
	}
	sc := defaultAt(t, 60, 100, 1, "policies=[hybrid, {name: hybrid, as: h0, epsilon: 0}]")
	plan, err := NewPlan("t", sc)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Labels(); !reflect.DeepEqual(got, []string{"hybrid", "h0"}) {
		t.Errorf("labels %v", got)
	}
	if _, err := scenario.Parse("x.yaml", []byte("policies: [{name: hybrid, epsilonn: 0}]"), nil, c); err == nil ||
		!strings.Contains(err.Error(), `unknown option "epsilonn" (allowed: epsilon, window, rho_max, penalty, ca2)`) {
		t.Errorf("unknown option: %v", err)
	}
}
