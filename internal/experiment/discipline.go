package experiment

import (
	"fmt"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/scenario"
)

// addDisciplines maps the tiers' disciplines and buffers onto cfg.
func addDisciplines(cfg *engine.Config, sc *scenario.Scenario) error {
	for i, t := range sc.Tiers {
		d, err := engine.ParseDiscipline(t.Discipline)
		if err != nil {
			return fmt.Errorf("tier %s: %w", t.Name, err)
		}
		cfg.Tiers[i].Discipline, cfg.Tiers[i].Buffer = d, t.Buffer
	}
	return nil
}
