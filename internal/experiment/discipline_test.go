package experiment

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/scenario"
)

// A clairvoyant policy with a PS tier is refused before any run; a PS
// tier is shown to the policies with C_s² = 1 and the classes' mixture
// sets μ.
func TestDisciplinePlan(t *testing.T) {
	y := `tasks: 500
arrivals: {rate: 20}
classes: [{name: a, share: 0.5, size: {dist: exponential, mean: 0.5}}, {name: b, share: 0.5}]
tiers:
  - {name: local, kind: local, servers: 1, speed: 10}
  - {name: edge, kind: edge, servers: 4, speed: 25, discipline: ps}
policies: [jsq, oracle]
`
	sc, err := scenario.Parse("d.yaml", []byte(y), nil, Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlan("d", sc); err == nil || !strings.Contains(err.Error(), "policy oracle: a clairvoyant policy") {
		t.Errorf("oracle with a ps tier: %v", err)
	}
	cfg, err := Config(sc)
	if err != nil {
		t.Fatal(err)
	}
	// Mixture of exponential(0.5) and the default Pareto(2.5) of mean 1: mean 0.75.
	if e, l := cfg.Tiers[1], cfg.Tiers[0]; e.Cs2 != 1 || l.Cs2 == 1 || e.Mu != 25/0.75 {
		t.Errorf("edge μ %v C_s² %v, local C_s² %v", e.Mu, e.Cs2, l.Cs2)
	}
}
