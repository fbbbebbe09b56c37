package testbed

import "github.com/offload-sim/offload/internal/workload"

// FromSource is the client's workload drawn from the simulator's own
// source, so that replicate r of the emulation sends exactly the tasks
// of replicate r of the simulator: their arrivals, sizes, delays, data
// and classes. The client calls Next, then the others, per task.
func FromSource(src *workload.Source, classes bool) Workload {
	var task workload.Task
	w := Workload{
		Next: func(float64) float64 { src.Next(&task); return task.Arrival },
		Size: func() float64 { return task.Size },
		Delays: func(dst []float64) {
			for i := range dst {
				dst[i] = src.Delay(&task, i)
			}
		},
		Data: func() float64 { return task.Data },
	}
	if classes {
		w.Class = func() int { return task.Class }
	}
	return w
}
