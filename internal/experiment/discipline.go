package experiment

import (
	"fmt"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// addDisciplines maps the tiers' disciplines and buffers, the classes and
// the patience laws onto cfg.
func addDisciplines(cfg *engine.Config, sc *scenario.Scenario) error {
	for i, t := range sc.Tiers {
		d, err := engine.ParseDiscipline(t.Discipline)
		if err != nil {
			return fmt.Errorf("tier %s: %w", t.Name, err)
		}
		cfg.Tiers[i].Discipline, cfg.Tiers[i].Buffer, cfg.Tiers[i].Preemptive = d, t.Buffer, t.Preemptive
	}
	var err error
	if cfg.Patience, err = optLaw(sc.Patience); err != nil {
		return fmt.Errorf("patience: %w", err)
	}
	for _, k := range sc.Classes {
		c := engine.Class{Name: k.Name, Share: k.Share, Priority: k.Priority, Deadline: k.Deadline}
		if c.Size, err = optLaw(k.Size); err != nil {
			return fmt.Errorf("class %s size: %w", k.Name, err)
		}
		if c.Patience, err = optLaw(k.Patience); err != nil {
			return fmt.Errorf("class %s patience: %w", k.Name, err)
		}
		cfg.Classes = append(cfg.Classes, c)
	}
	return nil
}

// optLaw is d's law, the zero Dist when d is nil.
func optLaw(d *scenario.Dist) (workload.Dist, error) {
	if d == nil {
		return workload.Dist{}, nil
	}
	return workload.New(d.Dist, d.Mean, d.Alpha, d.CV)
}

// measuredClasses copies the run's class accounts into m.
func measuredClasses(m *results.Measured, res *engine.Result) {
	for _, c := range res.Class {
		m.Classes = append(m.Classes, results.ClassMeasured{Arrived: c.Arrived, Tasks: c.Tasks, Late: c.Late, Latencies: c.Latencies})
	}
}
