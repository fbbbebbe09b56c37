package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

func ExampleMSER5() {
	// A run's latencies: a start-up transient that decays over the first
	// hundred tasks, then oscillations about a steady 2.
	y := make([]float64, 2000)
	for i := range y {
		y[i] = 2 + 3*math.Exp(-float64(i)/30) + 0.5*math.Sin(float64(i)*1.3)
	}
	t := MSER5(y)
	fmt.Printf("discard %d of %d (too short: %v)\n", t.Discard, len(y), t.TooShort)
	// Output: discard 210 of 2000 (too short: false)
}

func ExampleBatchMeans() {
	// One long run after its warm-up: the waits of an M/M/1 queue at
	// ρ = 0.5 (mean wait 1), by the Lindley recursion.
	r := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, 200000)
	w := 0.0
	for i := range y {
		y[i] = w
		w = max(0, w+r.ExpFloat64()-r.ExpFloat64()/0.5)
	}
	for _, k := range []int{20, 20000} {
		b, err := BatchMeans(y, k)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d batches of %d: %.3f ± %.3f, r1 %.2f, correlated %v\n", k, b.Size, b.Center, b.Half, b.Lag1, b.Correlated)
	}
	// Output:
	// 20 batches of 10000: 1.004 ± 0.023, r1 0.05, correlated false
	// 20000 batches of 10: 1.004 ± 0.018, r1 0.35, correlated true
}
