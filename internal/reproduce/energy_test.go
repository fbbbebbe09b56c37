package reproduce

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/runner"
)

// The energy experiment runs end to end on a miniature of its scenario
// and writes its front; a scenario without energy or without the weight's
// sweep is refused before anything is written.
func TestEnergyExperiment(t *testing.T) {
	sc, err := load("energy", []string{"tasks=2000", "warmup=200", "seeds=2", "policies=[hybrid, jsq, {name: hybrid-energy, energy_weight: 0}]",
		"sweep.values=[0, 0.3]"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := experiment.NewPlan("energy", sc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out bytes.Buffer
	if _, err := runner.Run(context.Background(), energySpec().Spec, plan, runner.Args{}, runner.Options{Dir: dir, Workers: 2, Format: "png", Out: &out}); err != nil {
		t.Fatal(err)
	}
	front, err := os.ReadFile(filepath.Join(dir, "front.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(front)), "\n")
	// hybrid and jsq once, hybrid-energy at each of the two weights.
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "policy,energy_weight,") || !strings.HasPrefix(lines[4], "hybrid-energy,0.3,") {
		t.Errorf("front.csv:\n%s", front)
	}
	if _, err := os.Stat(filepath.Join(dir, "energy_front.png")); err != nil {
		t.Error(err)
	}
	for _, sets := range [][]string{
		{"sweep=null"},
		{"sweep={param: arrivals.rate, values: [40, 60]}"},
		{"tiers.local.power={idle: 0, max: 0}", "tiers.edge.power={idle: 0, max: 0}", "tiers.cloud.power={idle: 0, max: 0}",
			"tiers.edge.tx_energy=0", "tiers.edge.rx_energy=0", "tiers.cloud.tx_energy=0", "tiers.cloud.rx_energy=0"},
	} {
		sc, err := load("energy", append([]string{"tasks=200", "seeds=1"}, sets...))
		if err != nil {
			t.Fatalf("%q: %v", sets, err)
		}
		plan, err := experiment.NewPlan("energy", sc)
		if err != nil {
			t.Fatal(err)
		}
		d := t.TempDir()
		if _, err := runner.Run(context.Background(), energySpec().Spec, plan, runner.Args{}, runner.Options{Dir: d, Workers: 1, Format: "png", Out: &out}); !errors.Is(err, runner.ErrBadInput) {
			t.Errorf("%q: %v, want bad input", sets, err)
		}
		if entries, _ := os.ReadDir(d); len(entries) != 0 {
			t.Errorf("%q: wrote %d files", sets, len(entries))
		}
	}
}
