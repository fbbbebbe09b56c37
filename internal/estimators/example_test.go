package estimators_test

import (
	"fmt"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/estimators"
)

func ExampleErlangC() {
	// Two servers offered one Erlang: P_wait = 2ρ²/(1+ρ) = 1/3.
	fmt.Printf("%.4f\n", estimators.ErlangC(2, 1))
	// Output: 0.3333
}

func ExampleAllenCunneen() {
	// An edge tier: 4 servers of rate 25/s, 80 tasks/s, Pareto α = 2.5 sizes.
	cs2, _ := estimators.ParetoCs2(2.5)
	fmt.Printf("M/M/4 %.4f s, G/G/4 %.4f s\n",
		estimators.MMcWait(4, 80, 25), estimators.AllenCunneen(4, 80, 25, 1, cs2))
	// Output: M/M/4 0.0298 s, G/G/4 0.0268 s
}

func ExampleHybridWait() {
	// 4 busy servers with 2 waiting: β = 1/2 between model and queue.
	fmt.Printf("model %.4f, queue %.4f, hybrid %.4f\n",
		estimators.ModelWait(4, 80, 25, 0.8, 0.99),
		estimators.QueueWait(2, 4, 4, 25),
		estimators.HybridWait(2, 4, 4, 25, 80, 0.8, 0.99))
	// Output: model 0.0268, queue 0.0300, hybrid 0.0284
}

func ExampleRateWindow() {
	w, _ := estimators.NewRateWindow(10, 100)
	for t := 0.5; t <= 30; t += 0.5 {
		w.Add(t) // 2 tasks/s
	}
	fmt.Println(w.Rate(30), w.Rate(35), w.Rate(45))
	// Output: 2 1 0
}

func ExampleEstimator() {
	tiers := []dispatch.Tier{{Name: "edge", Kind: dispatch.Edge, Servers: 4, Mu: 25, MeanDelay: 0.005, Cs2: 0.8}}
	e, _ := estimators.NewEstimator(tiers, estimators.Config{Window: 10, RhoMax: 0.99, PenaltyThreshold: 0.9, PenaltyK: 1})
	for t := 0.0; t < 20; t += 0.0125 {
		e.Observe(t, 0) // 80 tasks/s
	}
	v := &dispatch.View{Now: 20, Tiers: tiers, States: []dispatch.State{{Queued: 0, Busy: 3}}}
	c := e.Components(v, 0)
	fmt.Printf("λ̂ %.0f/s, ρ̂ %.2f, β %.0f, Ŵ %.4f s\n", c.LambdaHat, c.Rho, c.Beta, c.Wait)
	// Output: λ̂ 80/s, ρ̂ 0.80, β 0, Ŵ 0.0268 s
}
