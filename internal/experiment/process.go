package experiment

import (
	"fmt"

	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// sizeDist is the scenario's size law: bounded-pareto from its bounds,
// empirical from the values attached to it (scaled to its mean, if given),
// every other family from its mean.
func sizeDist(ws scenario.Dist) (workload.Dist, error) {
	switch ws.Dist {
	case "bounded-pareto":
		return workload.NewBoundedPareto(ws.Alpha, ws.Low, ws.High)
	case "empirical":
		xs := ws.Values()
		if xs == nil {
			return workload.Dist{}, fmt.Errorf("the values of file %s were not attached (scenario.AttachSizes)", ws.File)
		}
		d, err := workload.NewEmpirical(xs)
		if err != nil || ws.Mean == 0 {
			return d, err
		}
		return workload.NewEmpirical(scaled(xs, ws.Mean/d.Mean()))
	}
	return workload.New(ws.Dist, ws.Mean, ws.Alpha, ws.CV)
}

// process maps arrivals.process onto the workload's process spec, which
// is relative to the schedule's rate (arrivals.rate, for mmpp the derived
// stationary rate), so that the engine's split of the rate among devices
// splits the process.
func process(a scenario.Arrivals) (workload.ProcessSpec, error) {
	switch a.Process {
	case "", "poisson":
		return workload.ProcessSpec{}, nil
	case "renewal":
		l, err := workload.NewLaw(a.Law, a.CV)
		if err != nil {
			return workload.ProcessSpec{}, fmt.Errorf("arrivals: %w", err)
		}
		return workload.NewRenewal(l), nil
	case "mmpp":
		if len(a.Rates) != 2 || len(a.Sojourn) != 2 {
			return workload.ProcessSpec{}, fmt.Errorf("arrivals: mmpp needs two rates and two sojourns")
		}
		p, _, err := workload.NewMMPP(a.Rates[0], a.Rates[1], a.Sojourn[0], a.Sojourn[1])
		if err != nil {
			return workload.ProcessSpec{}, fmt.Errorf("arrivals: %w", err)
		}
		return p, nil
	case "diurnal":
		p, err := workload.NewDiurnal(a.Amplitude, a.Period)
		if err != nil {
			return workload.ProcessSpec{}, fmt.Errorf("arrivals: %w", err)
		}
		return p, nil
	}
	return workload.ProcessSpec{}, fmt.Errorf("arrivals.process %q: unknown", a.Process)
}

// scaled is a copy of xs multiplied by f.
func scaled(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}
