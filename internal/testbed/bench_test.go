package testbed

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/policies"
)

// BenchmarkDispatcher measures the client's own cost per request — decision,
// bookkeeping, the request goroutine and its accounting — over a transport
// that answers at once. Arrivals are scheduled 1 ns apart, so the loop never
// sleeps: ns/op is the cost of one request.
//
//	go test -run '^$' -bench Dispatcher -cpu 2 ./internal/testbed/
func BenchmarkDispatcher(b *testing.B) {
	tiers := threeTiers()
	for _, name := range []string{"hybrid", "jsq-s", "oracle"} {
		b.Run(name, func(b *testing.B) {
			pol, err := policies.New(name, tiers, policies.DefaultParams(), rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				b.Fatal(err)
			}
			sizes := rand.New(rand.NewPCG(3, 4))
			tr := &counter{}
			b.ResetTimer()
			res, err := Run(context.Background(), Config{Tiers: tiers, Policy: pol, Transport: tr,
				Workload: Workload{
					Next:   func(t float64) float64 { return t + 1e-9 },
					Size:   func() float64 { return sizes.ExpFloat64() },
					Delays: func(dst []float64) { clear(dst) },
				},
				TimeScale: 1, Duration: time.Hour, MaxTasks: b.N})
			b.StopTimer()
			if err != nil || res.Completed != b.N {
				b.Fatalf("%v, %d of %d completed", err, res.Completed, b.N)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/request")
		})
	}
}
