package engine_test

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/offload-sim/offload/internal/dispatch"
	"github.com/offload-sim/offload/internal/engine"
	"github.com/offload-sim/offload/internal/policies"
	"github.com/offload-sim/offload/internal/workload"
)

// scalePolicies are the rows of docs/performance.md's "Cost against the
// pool size": a blind draw (random), a sample of two (power-of-d, d = 2:
// p2c), a rule over every tier's state (jsq-s), the estimator (hybrid)
// and the clairvoyant replay (oracle); then the other rules the pool's
// size bears on: a split (static-opt), the idle list (jiq), the shortest
// queue (jsq) and least work left (lwl); and the production balancers'
// rules, on their own counts (docs/policies.md, "Production load
// balancers").
var scalePolicies = []string{policies.NameRandom, policies.NamePowerOfD, policies.NameJSQS, policies.NameHybrid, policies.NameOracle,
	policies.NameStaticOpt, policies.NameJIQ, policies.NameJSQ, policies.NameLWL,
	policies.NameRoundRobin, policies.NameWeightedRR, policies.NameLeastConn, policies.NameP2C, policies.NameLeastRequest,
	policies.NamePeakEWMA, policies.NamePrequal}

// scaleAxis is one axis of the cost tables: its values, and the run of a
// value (its scenario and device count) and how many tasks it measures
// for a benchmark of n (the tasks axis multiplies n; the others take n).
type scaleAxis struct {
	name   string
	values []int
	run    func(b *testing.B, v int) (cfg *engine.Config, devices int)
	tasks  func(n, v int) int
	// most caps the axis for a policy: the hybrid's tiers stop at 1,000,
	// where the window's first 10 s (every tier rescored at every
	// decision, since λ̂ divides by the time elapsed) is already 2·10⁵
	// tasks; at 10⁴ it would be 2·10⁶ decisions over 10⁴ tiers each
	// before the steady state the row measures.
	most map[string]int
}

var scaleAxes = []scaleAxis{
	{"tiers", []int{3, 10, 100, 1000, 10000},
		func(b *testing.B, v int) (*engine.Config, int) { return costConfig(b, v, 4, 0.5), 1 }, func(n, _ int) int { return n },
		map[string]int{policies.NameHybrid: 1000}},
	{"servers", []int{1, 10, 100, 1000, 10000},
		func(b *testing.B, v int) (*engine.Config, int) { return costConfig(b, 3, v, 0.5), 1 }, func(n, _ int) int { return n }, nil},
	{"devices", []int{1, 10, 100, 1000},
		func(b *testing.B, v int) (*engine.Config, int) { return costConfig(b, 3, 4, 0.5), v }, func(n, _ int) int { return n }, nil},
	{"tasks", []int{1, 10, 100},
		func(b *testing.B, _ int) (*engine.Config, int) { return costConfig(b, 3, 4, 0.5), 1 }, func(n, v int) int { return n * v }, nil},
}

// BenchmarkScale is the marginal cost per task against the pool's size,
// for each axis and policy: at each value of the axis, a run of N tasks
// and one of 5N on the thread's CPU clock, and (t(5N) − t(N))/(4N), so
// that neither the set-up of a large scenario nor a run's first tasks
// (the estimator's first window, queues filling) counts. N is b.N (times
// the value on the tasks axis), so run it with -benchtime Nx: at 1x it
// checks every row runs, quickly; the tables of docs/performance.md take
// N large enough for the steady state (their command says which). It
// reports the marginal cost at each value (ns/task@v), its ratio at the
// last value to the first (x-last) and the growth exponent, the
// least-squares slope of ln(cost) on ln(value). One sub-benchmark a row,
// so that a regression of any row shows in its own line.
func BenchmarkScale(b *testing.B) {
	for _, ax := range scaleAxes {
		for _, name := range scalePolicies {
			b.Run(ax.name+"/"+name, func(b *testing.B) {
				values := ax.values
				if most, ok := ax.most[name]; ok {
					values = values[:slices.IndexFunc(values, func(v int) bool { return v > most })]
				}
				costs := make([]float64, len(values))
				for j, v := range values {
					n := max(1, ax.tasks(b.N, v))
					t1 := scaleRun(b, ax, v, name, n)
					t5 := scaleRun(b, ax, v, name, 5*n)
					costs[j] = max(0, float64(t5-t1)) / float64(4*n)
					b.ReportMetric(costs[j], fmt.Sprintf("ns/task@%d", v))
				}
				b.ReportMetric(costs[len(costs)-1]/costs[0], "x-last")
				b.ReportMetric(growth(values, costs), "exponent")
			})
		}
	}
}

// scaleRun runs n measured tasks of axis ax at value v under the named
// policy (one instance a device, each with its own streams) and returns
// the run's CPU time on the thread's clock (wall time where there is
// none), set-up included.
func scaleRun(b *testing.B, ax scaleAxis, v int, name string, n int) time.Duration {
	cfg, k := ax.run(b, v)
	cfg.Tasks, cfg.Warmup = n, 0
	devs := make([]engine.Device, k)
	for d := range devs {
		devs[d] = engine.Device{Policy: engine.RegistryPolicy(b, name, cfg, uint64(d)), Streams: workload.DeviceStreams(1, 0, d)}
		if fb, ok := devs[d].Policy.(dispatch.Feedback); ok {
			devs[d].Feedback = fb
		}
	}
	runtime.GC() // the previous run's garbage is not this one's
	read, stop, cpu := engine.ThreadClock()
	defer stop()
	start, c0 := time.Now(), time.Duration(0)
	if cpu {
		c0 = read()
	}
	if _, err := engine.RunDevices(cfg, devs, nil); err != nil {
		b.Fatal(err)
	}
	if cpu {
		return read() - c0
	}
	return time.Since(start)
}

// growth is the least-squares slope of ln(cost) on ln(value): cost grows
// as value^growth. Values of cost 0 (a run too short to time) are left
// out; NaN when fewer than two remain.
func growth(values []int, costs []float64) float64 {
	var n, sx, sy, sxx, sxy float64
	for j, v := range values {
		if !(costs[j] > 0) {
			continue
		}
		x, y := math.Log(float64(v)), math.Log(costs[j])
		n++
		sx += x
		sy += y
		sxx += x * x
		sxy += x * y
	}
	if n < 2 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}
