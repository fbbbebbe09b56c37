package experiment

import (
	"testing"

	"github.com/offload-sim/offload/internal/quantile"
	"github.com/offload-sim/offload/internal/results"
)

// A plan whose runs may measure more than the exact limit says, per run,
// whether its percentiles were sketched; a plan within it keeps the columns
// it always had (the golden file's).
func TestPlanSketchColumn(t *testing.T) {
	for _, c := range []struct {
		tasks int
		want  bool
	}{{2000, false}, {quantile.ExactLimit + 1, true}} {
		plan, err := NewPlan("sketch", defaultAt(t, 80, c.tasks, 1))
		if err != nil {
			t.Fatal(err)
		}
		if got := results.Index(plan.Columns(), results.ColSketched) >= 0; got != c.want {
			t.Errorf("tasks %d: quantiles_sketched column %v, want %v", c.tasks, got, c.want)
		}
	}
}
