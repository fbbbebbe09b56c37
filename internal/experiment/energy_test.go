package experiment

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/offload-sim/offload/experiments"
	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// clockwork is a deterministic run: a task of size 1 every second (a
// replayed trace of n+1 rows, the first unmeasured), so that the measured
// window is [0, n] s and every busy time is known.
func clockwork(n int, tiers []engine.TierConfig) *engine.Config {
	tr := &workload.Trace{}
	for k := range n + 1 {
		tr.Arrivals = append(tr.Arrivals, float64(k))
		tr.Sizes = append(tr.Sizes, 1)
	}
	return &engine.Config{Tiers: tiers, Trace: tr, Size: workload.Const(1), Arrivals: workload.Schedule{Rate: 1},
		Large: math.Inf(1), Tasks: n, Warmup: 1}
}

func energyTier(name string, kind dispatch.Kind, c int, speed, idle, maxW, tx, rx float64) engine.TierConfig {
	return engine.TierConfig{Tier: dispatch.Tier{Name: name, Kind: kind, Servers: c, Speed: speed, Mu: speed,
		IdlePower: idle, MaxPower: maxW, TxEnergy: tx, RxEnergy: rx}}
}

// energyRow runs cfg under pol and reads the energy columns.
func energyRow(t *testing.T, cfg *engine.Config, pol dispatch.Policy) map[string]float64 {
	t.Helper()
	res, err := engine.Run(cfg, pol, workload.NewStreams(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := measured(cfg, res)
	measuredEnergy(m, cfg, res, true)
	var names []string
	for _, tc := range cfg.Tiers {
		names = append(names, tc.Name)
	}
	cols := results.RunColumns(results.Layout{Tiers: names, Energy: true})
	vals := results.Row(cols, m)
	out := map[string]float64{}
	for i, c := range cols {
		out[c.Name] = vals[i]
	}
	return out
}

// At full load (u = 1) a server draws exactly P_max: one server busy
// through the whole measured window of n seconds uses P_max × n, so the
// energy per task (caused plus idle) is P_max × 1 s, and never more
// (EdgeSimPy's (100u)^k models exceed P_max at u = 1).
func TestEnergyAtFullLoadIsPmaxTimesTime(t *testing.T) {
	const n = 1000
	cfg := clockwork(n, []engine.TierConfig{energyTier("edge", dispatch.Edge, 1, 1, 10, 30, 0, 0)})
	row := energyRow(t, cfg, dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision { return dispatch.Decision{} }))
	if got := (row["energy_j"] + row["energy_idle_j"]) * n; got != 30*n {
		t.Errorf("energy over the %d s window at u = 1: %v J, want P_max × time = %v J", n, got, 30.0*n)
	}
	if row["energy_j"] != 20 || row["energy_idle_j"] != 10 || row["energy_edge_j"] != 30 {
		t.Errorf("per task: caused %v, idle %v, edge %v; want (30 − 10)·1 s = 20, 10·1·1 s = 10, 30", row["energy_j"], row["energy_idle_j"], row["energy_edge_j"])
	}
}

// The accounting of docs/design.md §1.11 against a hand computation: ten
// measured tasks of size 1 alternate between a local tier (1 server of
// speed 1, 2/5 W) and an edge tier (2 servers of speed 2, 10/30 W, tx 10⁻⁶
// and rx 3·10⁻⁶ J/bit), each with 1000 bits of data and a 200-bit reply.
//
//	local: 5 tasks × 1 s × (5 − 2) W = 15 J caused; idle 2 W × 1 × 10 s = 20 J
//	edge:  5 tasks × 0.5 s × (30 − 10) W = 50 J, plus 5 × (1000 × 10⁻⁶ + 200 × 3·10⁻⁶) = 0.008 J
//	       (the sender pays tx on the data, the receiver rx on the reply); idle 10 W × 2 × 10 s = 200 J
//
// so energy_j = 65.008/10, energy_idle_j = 220/10, energy_local_j = 35/10,
// energy_edge_j = 250.008/10. With tx and rx swapped (PureEdgeSim's bug)
// the transfer part would be 0.016 J.
func TestEnergyAgainstAHandComputation(t *testing.T) {
	cfg := clockwork(10, []engine.TierConfig{
		energyTier("local", dispatch.Local, 1, 1, 2, 5, 0, 0),
		energyTier("edge", dispatch.Edge, 2, 2, 10, 30, 1e-6, 3e-6),
	})
	cfg.Data = workload.DataLaw{Dist: workload.Const(1000)}
	cfg.Reply = workload.DataLaw{Dist: workload.Const(200)}
	k := 0
	alternate := dispatch.PolicyFunc(func(*dispatch.View) dispatch.Decision {
		k++
		return dispatch.Decision{Tier: k % 2} // the warmup task to edge, then local, edge, …
	})
	row := energyRow(t, cfg, alternate)
	for _, c := range []struct {
		col  string
		want float64
	}{{"energy_j", 6.5008}, {"energy_idle_j", 22}, {"energy_local_j", 3.5}, {"energy_edge_j", 25.0008}} {
		if got := row[c.col]; math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s = %.15g, want %.15g", c.col, got, c.want)
		}
	}
	if sum := row["energy_local_j"] + row["energy_edge_j"]; math.Abs(sum-row["energy_j"]-row["energy_idle_j"]) > 1e-12*sum {
		t.Errorf("the tiers' columns add up to %v, energy_j + energy_idle_j to %v", sum, row["energy_j"]+row["energy_idle_j"])
	}
}

// The energy columns appear only when the scenario gives an energy model.
func TestEnergyColumnsOnlyWithModels(t *testing.T) {
	for _, c := range []struct {
		sets []string
		want bool
	}{
		{nil, false},
		{[]string{"tiers.edge.power={idle: 12.5, max: 31.25}"}, true},
		{[]string{"workload.data={dist: deterministic, mean: 8000}", "tiers.cloud.tx_energy=2.8317e-7"}, true},
	} {
		plan, err := NewPlan("t", defaultAt(t, 60, 1000, 1, c.sets...))
		if err != nil {
			t.Fatal(err)
		}
		names := results.Names(plan.Columns())
		for _, col := range []string{"energy_j", "energy_idle_j", "energy_local_j", "energy_edge_j", "energy_cloud_j"} {
			if slices.Contains(names, col) != c.want {
				t.Errorf("%q: column %s present = %v, want %v", c.sets, col, !c.want, c.want)
			}
		}
	}
}

// energyAt is the embedded energy scenario, shortened, with these policies.
func energyAt(t *testing.T, tasks, seeds int, pols string) *scenario.Scenario {
	t.Helper()
	data, err := experiments.Get("energy")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse("energy.yaml", data, []string{"tasks=" + strconv.Itoa(tasks), "warmup=" + strconv.Itoa(tasks/10),
		"seeds=" + strconv.Itoa(seeds), "sweep=null", "policies=" + pols}, Catalog())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// At energy_weight 0 the energy-aware hybrid is the hybrid exactly: every
// column of every replicate is the same (the same draws on the policy's
// stream, the same decisions).
func TestHybridEnergyAtWeightZeroIsHybrid(t *testing.T) {
	runs := execute(t, energyAt(t, 5000, 3, "[hybrid, {name: hybrid-energy, energy_weight: 0}]"), 2)
	by := map[string][]results.Run{}
	for _, r := range runs {
		by[r.Policy] = append(by[r.Policy], r)
	}
	h, e := by["hybrid"], by["hybrid-energy"]
	if len(h) != 3 || len(e) != 3 {
		t.Fatalf("%d hybrid and %d hybrid-energy runs, want 3 each", len(h), len(e))
	}
	for k := range h {
		for i, c := range h[k].Cols {
			a, b := h[k].Values[i], e[k].Values[i]
			if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Errorf("replicate %d, %s: hybrid %v, hybrid-energy at weight 0 %v", k, c.Name, a, b)
			}
		}
	}
}

// A heavy weight trades latency for energy: in every replicate (common
// random numbers) the energy per task is lower and the latency higher
// than hybrid's.
func TestHybridEnergyTradesLatencyForEnergy(t *testing.T) {
	runs := execute(t, energyAt(t, 10000, 3, "[hybrid, {name: hybrid-energy, energy_weight: 0.3}]"), 2)
	for k := 0; k < 3; k++ {
		h, e := runs[k], runs[3+k]
		if h.Policy != "hybrid" || e.Policy != "hybrid-energy" {
			t.Fatalf("runs out of order: %s, %s", h.Policy, e.Policy)
		}
		if !(e.Get("energy_j") < h.Get("energy_j")) || !(e.Get("mean_latency_s") > h.Get("mean_latency_s")) {
			t.Errorf("replicate %d: hybrid-energy %g J, %g s; hybrid %g J, %g s: want less energy for more latency",
				k, e.Get("energy_j"), e.Get("mean_latency_s"), h.Get("energy_j"), h.Get("mean_latency_s"))
		}
	}
}
