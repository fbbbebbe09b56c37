package experiment

import (
	"errors"
	"fmt"

	"github.com/offload-sim/offload/internal/scenario"
	"github.com/offload-sim/offload/internal/workload"
)

// replay builds the workload of a scenario with a trace block from the
// rows attached to it (scenario.AttachTrace): arrivals scaled to
// trace.rate, sizes to trace.mean_size. It returns the trace, the size law
// the policies are given (the empirical mean and SCV, workload.Trace.SizeLaw),
// the large-task threshold (the empirical quantile) and the mean rate.
func replay(sc *scenario.Scenario) (*workload.Trace, workload.Dist, float64, error) {
	t := sc.Trace
	arr, sizes := t.Rows()
	if arr == nil {
		return nil, workload.Dist{}, 0, errors.New("trace: the rows of trace.file were not attached (scenario.AttachTrace)")
	}
	tr := &workload.Trace{Arrivals: arr, Sizes: sizes, Bootstrap: t.Resample == "bootstrap"}
	if t.Rate > 0 {
		f := tr.Rate() / t.Rate
		tr.Arrivals = make([]float64, len(arr))
		for i, a := range arr {
			tr.Arrivals[i] = a * f
		}
	}
	if t.MeanSize > 0 {
		m, _ := tr.SizeMoments()
		f := t.MeanSize / m
		tr.Sizes = make([]float64, len(sizes))
		for i, s := range sizes {
			tr.Sizes[i] = s * f
		}
	}
	law, err := tr.SizeLaw()
	if err != nil {
		return nil, workload.Dist{}, 0, fmt.Errorf("trace %s: %w", t.File, err)
	}
	return tr, law, tr.SizeQuantile(sc.Workload.LargeQuantile), nil
}
