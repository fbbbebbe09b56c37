package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offload-sim/offload/internal/quantile"
	"github.com/offload-sim/offload/internal/workload"
)

// A run beyond its exact limit sketches its latencies: the same run with
// every latency kept gives percentiles within the sketch's relative error,
// and the same mean and maximum.
func TestRunBeyondTheExactLimitSketches(t *testing.T) {
	run := func(limit int) *Result {
		cfg := threeTier(t, 20, 50_000)
		cfg.ExactLimit = limit
		res, err := Run(cfg, uniform(rand.New(rand.NewPCG(1, 4))), workload.NewStreams(5, 0))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	exact, sk := run(0), run(1000)
	if !exact.Latencies.Exact() || sk.Latencies.Exact() || sk.LargeLatencies.Exact() {
		t.Fatalf("exact %v, sketched %v/%v: want an exact run and a sketched one", exact.Latencies.Exact(), !sk.Latencies.Exact(), !sk.LargeLatencies.Exact())
	}
	for _, p := range []float64{0.5, 0.95, 0.99} {
		got, want := sk.Latencies.Quantile(p), exact.Latencies.Quantile(p)
		if math.Abs(got-want) > quantile.RelativeError*want {
			t.Errorf("p%v: sketched %v, exact %v", 100*p, got, want)
		}
	}
	if got, want := sk.Latencies.Mean(), exact.Latencies.Mean(); math.Abs(got-want) > 1e-12*want {
		t.Errorf("mean: sketched %v, exact %v", got, want)
	}
	if sk.Latencies.Max() != exact.Latencies.Max() {
		t.Errorf("max: sketched %v, exact %v", sk.Latencies.Max(), exact.Latencies.Max())
	}
}
