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
// the policies are given (the empirical law of its sizes,
// workload.Trace.SizeLaw), the large-task threshold (its quantile) and the mean rate.
func replay(sc *scenario.Scenario) (*workload.Trace, workload.Dist, float64, error) {
	t := sc.Trace
	arr, sizes := t.Rows()
	if arr == nil {
		return nil, workload.Dist{}, 0, errors.New("trace: the rows of trace.file were not attached (scenario.AttachTrace)")
	}
	tr := &workload.Trace{Arrivals: arr, Sizes: sizes, Bootstrap: t.Resample == "bootstrap"}
	if t.Rate > 0 {
		tr.Arrivals = scaled(arr, tr.Rate()/t.Rate)
	}
	if t.MeanSize > 0 {
		m, _ := tr.SizeMoments()
		tr.Sizes = scaled(sizes, t.MeanSize/m)
	}
	law, err := tr.SizeLaw()
	if err != nil {
		return nil, workload.Dist{}, 0, fmt.Errorf("trace %s: %w", t.File, err)
	}
	return tr, law, law.Quantile(sc.Workload.LargeQuantile), nil
}
