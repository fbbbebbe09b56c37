package experiment

import (
	"fmt"
	"slices"

	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// addDisciplines maps the tiers' disciplines and buffers, the classes and
// the patience laws onto cfg, and gives the policies the size law's
// moments they model with (tierModel).
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
	tierModel(cfg)
	return nil
}

// tierModel sets what a policy knows of each tier's service to what it
// is under the classes and the discipline (docs/model.md §1.13): with
// classes of their own sizes, μ and C_s² of the mixture of their laws;
// at a PS tier, C_s² = 1, since M/G/c-PS is insensitive: its mean sojourn
// is the M/M/c one of the same mean size, which is what the estimators'
// M/G/c model (Allen–Cunneen) gives at C_s² = 1.
func tierModel(cfg *engine.Config) {
	if len(cfg.Classes) == 0 && !slices.ContainsFunc(cfg.Tiers, func(t engine.TierConfig) bool { return t.Discipline == engine.PS }) {
		return // the law's own, as build set them
	}
	mean, cs2 := cfg.Size.Mean(), cfg.Size.Cs2()
	if len(cfg.Classes) > 0 {
		m1, m2 := 0.0, 0.0
		for _, k := range cfg.Classes {
			d := cfg.Size
			if k.Size.Mean() > 0 {
				d = k.Size
			}
			m1 += k.Share * d.Mean()
			m2 += k.Share * d.Mean() * d.Mean() * (1 + d.Cs2())
		}
		mean, cs2 = m1, m2/(m1*m1)-1
	}
	for i := range cfg.Tiers {
		t := &cfg.Tiers[i]
		t.Mu, t.Cs2 = t.Speed/mean, cs2
		if t.Discipline == engine.PS {
			t.Cs2 = 1
		}
	}
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
