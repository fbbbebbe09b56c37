package engine

import (
	"math"
	"testing"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/workload"
	"gonum.org/v1/gonum/stat"
)

// zeroWait is a shadow predictor that always predicts no wait.
type zeroWait struct{}

func (zeroWait) PredictWait(*dispatch.View, int) float64 { return 0 }

// TestIdleShareIsOneMinusErlangC: the share of measured tasks whose chosen
// tier had an idle server at the decision (the mape experiment's
// idle_share) is, on an M/M/c tier without delay, the probability that an
// arrival finds a server free: 1 − C(c, a) (Poisson arrivals see time
// averages). The idle tasks' part of a shadow's error is part of the whole.
func TestIdleShareIsOneMinusErlangC(t *testing.T) {
	exp := mustDist(t, "exponential", 1, 0, 0)
	tasks, reps, maxRel := runLength()
	for _, tc := range []struct {
		c   int
		rho float64
	}{{1, 0.5}, {2, 0.7}, {4, 0.8}} {
		lambda := tc.rho * float64(tc.c)
		cfg := singleTier(lambda, tc.c, exp, tasks, tasks/10)
		cfg.Shadows = []dispatch.Predictor{zeroWait{}}
		share := make([]float64, reps)
		for r := range reps {
			res, err := Run(cfg, always(0), workload.NewStreams(7, r))
			if err != nil {
				t.Fatal(err)
			}
			sh := res.Shadow[0]
			if sh.IdleTasks > res.Tasks || sh.SumAPEIdle > sh.SumAPE || sh.SumAPEIdle < 0 {
				t.Fatalf("c=%d: idle tasks %d of %d, idle APE sum %g of %g", tc.c, sh.IdleTasks, res.Tasks, sh.SumAPEIdle, sh.SumAPE)
			}
			share[r] = float64(sh.IdleTasks) / float64(res.Tasks)
		}
		m, sd := stat.MeanStdDev(share, nil)
		want := 1 - erlangC(tc.c, lambda)
		checkAgainst(t, "idle share M/M/"+itoa(tc.c)+" ρ="+ftoa(tc.rho), m, sd/math.Sqrt(float64(reps)), reps, want, maxRel)
	}
}
